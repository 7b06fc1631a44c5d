package io.clusterresolver.cli;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.TaskAddress;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a command prints: one {@link Resolution} of the provider that answered (every part from one
 * query of the source of truth), seen from this process's task or from the task named on the
 * command line.
 */
final class Answer {

  private final String provider;
  private final Resolution resolution;

  private Answer(String provider, Resolution resolution) {
    this.provider = provider;
    this.resolution = resolution;
  }

  /**
   * Asks the resolver once. A task given here (from the command line, for a provider that does not
   * take {@code task-type}/{@code task-id} properties) replaces the resolver's own task in the view;
   * it must exist in the cluster.
   *
   * @throws IllegalArgumentException if the given task is not in the cluster
   */
  static Answer of(String provider, ClusterResolver resolver, String taskTypeOverride, Integer taskIdOverride) {
    return of(provider, resolver.resolve(), resolver, taskTypeOverride, taskIdOverride);
  }

  /** Like {@link #of(String, ClusterResolver, String, Integer)}, from a resolution already taken. */
  static Answer of(String provider, Resolution snapshot, ClusterResolver resolver, String taskTypeOverride,
      Integer taskIdOverride) {
    Resolution resolution = Objects.requireNonNull(snapshot, "resolve() returned null");
    requireValidAddresses(provider, resolution.clusterSpec());
    if (taskTypeOverride == null && taskIdOverride == null) {
      requireOwnTaskInCluster(provider, resolution);
      return new Answer(provider, resolution);
    }
    String taskType = taskTypeOverride != null ? taskTypeOverride : resolution.taskType().orElse(null);
    OptionalInt ownId = resolution.taskId();
    Integer taskIndex = taskIdOverride != null ? taskIdOverride : ownId.isPresent() ? ownId.getAsInt() : null;
    checkTaskExists(provider, resolution.clusterSpec(), taskType, taskIndex);
    boolean ownTask = Objects.equals(taskType, resolution.taskType().orElse(null))
        && Objects.equals(taskIndex, ownId.isPresent() ? ownId.getAsInt() : null);
    if (ownTask) {
      return new Answer(provider, resolution);
    }
    // Another task's view: its accelerators (asked for that task); its visible devices are unknown.
    Map<String, Integer> accelerators = resolver.numAccelerators(taskType, taskIndex);
    return new Answer(provider, resolution.toBuilder()
        .taskType(taskType)
        .taskId(taskIndex)
        .accelerators(accelerators)
        .visibleDevices(null)
        .build());
  }

  /**
   * Every address the command prints is a valid {@code host:port} ({@link TaskAddress}): an address
   * with a space or a line break would break a hostfile or an {@code eval}ed environment.
   */
  private static void requireValidAddresses(String provider, ClusterSpec spec) {
    for (String job : spec.jobs()) {
      for (Map.Entry<Integer, String> task : tasksOf(spec, job).entrySet()) {
        try {
          TaskAddress.parse(task.getValue());
        } catch (IllegalArgumentException e) {
          throw new ConfigurationException("Task " + task.getKey() + " of job '" + job + "' from provider '"
              + provider + "' has an address no task can listen on: " + e.getMessage());
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<Integer, String> tasksOf(ClusterSpec spec, String job) {
    Object tasks = spec.asMap().get(job);
    if (tasks instanceof Map) {
      return (Map<Integer, String>) tasks;
    }
    Map<Integer, String> byIndex = new java.util.LinkedHashMap<>();
    List<String> list = (List<String>) tasks;
    for (int i = 0; i < list.size(); i++) {
      byIndex.put(i, list.get(i));
    }
    return byIndex;
  }

  /**
   * The same check for every provider: a task this process claims (from --task-type/--task-id, the
   * provider's properties or its source) must be a task of the cluster printed next to it.
   */
  private static void requireOwnTaskInCluster(String provider, Resolution resolution) {
    OptionalInt id = resolution.taskId();
    if (resolution.taskType().isEmpty()) {
      return; // not a task of the cluster: nothing to check
    }
    ClusterSpec spec = resolution.clusterSpec();
    String type = resolution.taskType().get();
    // A type without an index (a process that is no member, given --task-type) must name a job too.
    if (!spec.hasJob(type)) {
      throw new ConfigurationException("This process's task type '" + type + "' (--task-type, or"
          + " clusterresolver." + provider + ".task-type) is not a job of the cluster from provider '" + provider
          + "'; its jobs are: " + String.join(", ", spec.jobs()));
    }
    if (id.isPresent() && !spec.taskIndices(type).contains(id.getAsInt())) {
      throw new ConfigurationException("This process's task index " + id.getAsInt() + " (--task-id, or"
          + " clusterresolver." + provider + ".task-id) is not a task of job '" + type + "' of the cluster from"
          + " provider '" + provider + "'; its task indices are " + spec.taskIndices(type));
    }
  }

  private static void checkTaskExists(String provider, ClusterSpec spec, String taskType, Integer taskIndex) {
    if (taskType == null || taskIndex == null) {
      throw new ConfigurationException("--task-type and --task-id: provider '" + provider
          + "' does not say which task this process is, so give both (jobs in the cluster: "
          + String.join(", ", spec.jobs()) + ")");
    }
    if (!spec.hasJob(taskType)) {
      throw new ConfigurationException("--task-type " + taskType + ": the cluster from provider '"
          + provider + "' has no such job; its jobs are: " + String.join(", ", spec.jobs()));
    }
    if (!spec.taskIndices(taskType).contains(taskIndex)) {
      throw new ConfigurationException("--task-id " + taskIndex + ": job '" + taskType
          + "' of the cluster from provider '" + provider + "' has no such task; its task indices are "
          + spec.taskIndices(taskType));
    }
  }

  /** The name of the provider that answered. */
  String provider() {
    return provider;
  }

  /** The snapshot this answer shows. */
  Resolution resolution() {
    return resolution;
  }

  ClusterSpec clusterSpec() {
    return resolution.clusterSpec();
  }

  /** This process's job, or {@code null} when unknown. */
  String taskType() {
    return resolution.taskType().orElse(null);
  }

  /** This process's task index, or {@code null} when unknown. */
  Integer taskIndex() {
    OptionalInt id = resolution.taskId();
    return id.isPresent() ? id.getAsInt() : null;
  }

  /** The rpc layer, or {@code null} when there is none. */
  String rpcLayer() {
    return resolution.rpcLayer().orElse(null);
  }

  String environment() {
    return resolution.environment();
  }

  /** Accelerators of this process's task by device type; empty when none. */
  Map<String, Integer> accelerators() {
    return resolution.accelerators();
  }

  /** The accelerator device ids visible to this process's task, when the resolver knows them. */
  Optional<List<String>> visibleDevices() {
    return resolution.visibleDevices();
  }
}
