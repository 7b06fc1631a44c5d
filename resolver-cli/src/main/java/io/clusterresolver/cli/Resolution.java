package io.clusterresolver.cli;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * One answer of a resolver, captured once so that every part of the output describes the same
 * cluster (each {@link ClusterResolver#clusterSpec()} call asks the source of truth again).
 */
public final class Resolution {

  private final String provider;
  private final ClusterSpec clusterSpec;
  private final String taskType;
  private final Integer taskIndex;
  private final String rpcLayer;
  private final String environment;
  private final Map<String, Integer> accelerators;
  private final List<String> visibleDevices;

  private Resolution(String provider, ClusterSpec clusterSpec, String taskType, Integer taskIndex,
      String rpcLayer, String environment, Map<String, Integer> accelerators, List<String> visibleDevices) {
    this.provider = provider;
    this.clusterSpec = clusterSpec;
    this.taskType = taskType;
    this.taskIndex = taskIndex;
    this.rpcLayer = rpcLayer;
    this.environment = environment;
    this.accelerators = Collections.unmodifiableMap(new TreeMap<>(accelerators));
    this.visibleDevices = visibleDevices == null ? null : List.copyOf(visibleDevices);
  }

  /**
   * Asks the resolver. A task given here (from the command line) replaces the resolver's own task
   * in the view; it must exist in the cluster.
   *
   * @throws IllegalArgumentException if the given task is not in the cluster
   */
  static Resolution of(String provider, ClusterResolver resolver, String taskTypeOverride, Integer taskIdOverride) {
    ClusterSpec spec = Objects.requireNonNull(resolver.clusterSpec(), "clusterSpec() returned null");
    boolean overridden = taskTypeOverride != null || taskIdOverride != null;
    String taskType = taskTypeOverride != null ? taskTypeOverride : resolver.taskType().orElse(null);
    OptionalInt ownId = resolver.taskId();
    Integer taskIndex = taskIdOverride != null ? taskIdOverride : ownId.isPresent() ? ownId.getAsInt() : null;
    if (overridden) {
      checkTaskExists(provider, spec, taskType, taskIndex);
    }
    boolean ownTask = Objects.equals(taskType, resolver.taskType().orElse(null))
        && Objects.equals(taskIndex, ownId.isPresent() ? ownId.getAsInt() : null);
    Map<String, Integer> accelerators = overridden
        ? resolver.numAccelerators(taskType, taskIndex)
        : resolver.numAccelerators();
    // Visible device ids belong to this process's own task; for another task they are unknown.
    Optional<List<String>> devices = ownTask ? resolver.visibleDevices() : Optional.empty();
    return new Resolution(provider, spec, taskType, taskIndex, resolver.rpcLayer().orElse(null),
        resolver.environment(), accelerators == null ? Map.of() : accelerators, devices.orElse(null));
  }

  private static void checkTaskExists(String provider, ClusterSpec spec, String taskType, Integer taskIndex) {
    if (taskType == null || taskIndex == null) {
      throw new IllegalArgumentException("--task-type and --task-id: provider '" + provider
          + "' does not say which task this process is, so give both (jobs in the cluster: "
          + String.join(", ", spec.jobs()) + ")");
    }
    if (!spec.hasJob(taskType)) {
      throw new IllegalArgumentException("--task-type " + taskType + ": the cluster from provider '"
          + provider + "' has no such job; its jobs are: " + String.join(", ", spec.jobs()));
    }
    if (!spec.taskIndices(taskType).contains(taskIndex)) {
      throw new IllegalArgumentException("--task-id " + taskIndex + ": job '" + taskType
          + "' of the cluster from provider '" + provider + "' has no such task; its task indices are "
          + spec.taskIndices(taskType));
    }
  }

  /** The name of the provider that answered. */
  public String provider() {
    return provider;
  }

  public ClusterSpec clusterSpec() {
    return clusterSpec;
  }

  /** This process's job, or {@code null} when unknown. */
  public String taskType() {
    return taskType;
  }

  /** This process's task index, or {@code null} when unknown. */
  public Integer taskIndex() {
    return taskIndex;
  }

  /** The rpc layer, or {@code null} when there is none. */
  public String rpcLayer() {
    return rpcLayer;
  }

  public String environment() {
    return environment;
  }

  /** Accelerators of this process's task by device type; empty when none. */
  public Map<String, Integer> accelerators() {
    return accelerators;
  }

  /** The accelerator device ids visible to this process's task, when the resolver knows them. */
  public Optional<List<String>> visibleDevices() {
    return Optional.ofNullable(visibleDevices);
  }
}
