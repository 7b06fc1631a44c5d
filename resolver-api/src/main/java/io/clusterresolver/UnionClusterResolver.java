package io.clusterresolver;

import io.clusterresolver.internal.Masters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The union of several resolvers' clusters: TensorFlow's {@code UnionClusterResolver}, for
 * example workers from a cloud instance group plus parameter servers given in code.
 *
 * <p>Merge rules (K6): a job that every member gives as a dense list is their concatenation in
 * argument order; as soon as one member gives the job in map form (sparse, or without tasks), the
 * job is merged by task index, list members counting from 0, and an index given by two members is
 * an {@link IllegalArgumentException}. Each member is asked exactly once per {@link #clusterSpec()}
 * (deviation D5: TensorFlow asks twice).
 *
 * <p>Attributes: the task type, task id and rpc layer given to the union win, even {@code 0} or
 * {@code ""} (D5); otherwise they, the environment, the visible devices and the accelerators come
 * from the first member. {@code master()} without task arguments is the first member's master,
 * with the union's own rpc layer when it has one (D5); with a task type and id it is that task's
 * address in the merged cluster, with the argument or the union's own rpc layer as scheme. Immutable and thread-safe when the members
 * are.
 */
public final class UnionClusterResolver implements ClusterResolver {

  private final List<ClusterResolver> members;
  private final String taskType;
  private final Integer taskId;
  private final String rpcLayer;

  private UnionClusterResolver(List<ClusterResolver> members, String taskType, Integer taskId, String rpcLayer) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("A UnionClusterResolver needs at least one member resolver");
    }
    for (int i = 0; i < members.size(); i++) {
      if (members.get(i) == null) {
        throw new IllegalArgumentException("Member " + i + " of a UnionClusterResolver is null");
      }
    }
    this.members = List.copyOf(members);
    this.taskType = taskType;
    this.taskId = taskId;
    this.rpcLayer = rpcLayer;
  }

  /**
   * The union of these resolvers, without overrides.
   *
   * @throws IllegalArgumentException if there is none, or one is {@code null}
   */
  public static UnionClusterResolver of(ClusterResolver... members) {
    return new UnionClusterResolver(Arrays.asList(members.clone()), null, null, null);
  }

  /** A builder for a union with overrides of task type, task id or rpc layer. */
  public static Builder builder() {
    return new Builder();
  }

  /** The members, in argument order. */
  public List<ClusterResolver> members() {
    return members;
  }

  @Override
  public ClusterSpec clusterSpec() {
    List<ClusterSpec> specs = new ArrayList<>(members.size());
    for (ClusterResolver member : members) {
      specs.add(member.clusterSpec());
    }
    return merge(specs);
  }

  /**
   * One snapshot: the first member's own {@link ClusterResolver#resolve()} (its task, rpc layer,
   * environment, accelerators and devices) and every other member's spec, each asked once.
   */
  @Override
  public Resolution resolve() {
    Resolution first = members.get(0).resolve();
    List<ClusterSpec> specs = new ArrayList<>(members.size());
    specs.add(first.clusterSpec());
    for (ClusterResolver member : members.subList(1, members.size())) {
      specs.add(member.clusterSpec());
    }
    String type = taskType != null ? taskType : first.taskType().orElse(null);
    Integer id = taskId != null ? taskId : first.taskId().isPresent() ? first.taskId().getAsInt() : null;
    boolean firstMembersTask = Objects.equals(type, first.taskType().orElse(null))
        && Objects.equals(id, first.taskId().isPresent() ? first.taskId().getAsInt() : null);
    return Resolution.builder(merge(specs))
        .taskType(type)
        .taskId(id)
        .rpcLayer(rpcLayer != null ? rpcLayer : first.rpcLayer().orElse(null))
        .environment(first.environment())
        // An overridden task is not the first member's own: only then is it asked for that task.
        .accelerators(firstMembersTask ? first.accelerators() : members.get(0).numAccelerators(type, id))
        .visibleDevices(first.visibleDevices().orElse(null))
        .build();
  }

  private static ClusterSpec merge(List<ClusterSpec> clusterSpecs) {
    List<Map<String, Object>> specs = new ArrayList<>(clusterSpecs.size());
    for (ClusterSpec spec : clusterSpecs) {
      specs.add(spec.asMap());
    }
    // Which jobs must be merged by index: those that any member gives in map form.
    Map<String, Boolean> indexed = new LinkedHashMap<>();
    for (Map<String, Object> spec : specs) {
      for (Map.Entry<String, Object> job : spec.entrySet()) {
        indexed.merge(job.getKey(), job.getValue() instanceof Map, Boolean::logicalOr);
      }
    }
    Map<String, List<String>> concatenated = new LinkedHashMap<>();
    Map<String, TreeMap<Integer, String>> byIndex = new LinkedHashMap<>();
    Map<String, Map<Integer, Integer>> givenBy = new LinkedHashMap<>();
    for (int m = 0; m < specs.size(); m++) {
      for (Map.Entry<String, Object> job : specs.get(m).entrySet()) {
        String name = job.getKey();
        if (!indexed.get(name)) {
          concatenated.computeIfAbsent(name, k -> new ArrayList<>()).addAll(asList(job.getValue()));
          continue;
        }
        TreeMap<Integer, String> tasks = byIndex.computeIfAbsent(name, k -> new TreeMap<>());
        Map<Integer, Integer> owners = givenBy.computeIfAbsent(name, k -> new LinkedHashMap<>());
        for (Map.Entry<Integer, String> task : asIndexed(job.getValue()).entrySet()) {
          Integer previous = owners.putIfAbsent(task.getKey(), m);
          if (previous != null) {
            throw new IllegalArgumentException("Task " + task.getKey() + " of job '" + name
                + "' is given by union members " + previous + " and " + m
                + ": merged clusters must not share a task index");
          }
          tasks.put(task.getKey(), task.getValue());
        }
      }
    }
    ClusterSpec.Builder merged = ClusterSpec.builder();
    concatenated.forEach(merged::addJob);
    byIndex.forEach((job, tasks) -> {
      merged.addEmptyJob(job);
      tasks.forEach((index, address) -> merged.addTask(job, index, address));
    });
    return merged.build();
  }

  @SuppressWarnings("unchecked")
  private static List<String> asList(Object tasks) {
    return (List<String>) tasks;
  }

  @SuppressWarnings("unchecked")
  private static Map<Integer, String> asIndexed(Object tasks) {
    if (tasks instanceof Map) {
      return (Map<Integer, String>) tasks;
    }
    List<String> list = asList(tasks);
    Map<Integer, String> map = new LinkedHashMap<>();
    for (int i = 0; i < list.size(); i++) {
      map.put(i, list.get(i));
    }
    return map;
  }

  @Override
  public String master(String taskType, Integer taskId, String rpcLayer) {
    if (taskType != null && taskId != null) {
      return Masters.format(
          clusterSpec().taskAddress(taskType, taskId), Masters.orElse(rpcLayer, this.rpcLayer));
    }
    return members.get(0).master(null, null, Masters.orElse(rpcLayer, this.rpcLayer));
  }

  /** The first member's accelerators for the task, which defaults to the union's own. */
  @Override
  public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
    String type = taskType != null ? taskType : taskType().orElse(null);
    Integer id = taskId;
    if (id == null) {
      OptionalInt own = taskId();
      id = own.isPresent() ? own.getAsInt() : null;
    }
    return members.get(0).numAccelerators(type, id);
  }

  @Override
  public String environment() {
    return members.get(0).environment();
  }

  @Override
  public Optional<String> taskType() {
    return taskType != null ? Optional.of(taskType) : members.get(0).taskType();
  }

  @Override
  public OptionalInt taskId() {
    return taskId != null ? OptionalInt.of(taskId) : members.get(0).taskId();
  }

  @Override
  public Optional<String> rpcLayer() {
    return rpcLayer != null ? Optional.of(rpcLayer) : members.get(0).rpcLayer();
  }

  @Override
  public Optional<List<String>> visibleDevices() {
    return members.get(0).visibleDevices();
  }

  @Override
  public String toString() {
    return "UnionClusterResolver" + members
        + (taskType == null ? "" : ", taskType=" + taskType) + (taskId == null ? "" : ", taskId=" + taskId)
        + (rpcLayer == null ? "" : ", rpcLayer=" + rpcLayer);
  }

  /** Builds a {@link UnionClusterResolver}. Not thread-safe. */
  public static final class Builder {
    private final List<ClusterResolver> members = new ArrayList<>();
    private String taskType;
    private Integer taskId;
    private String rpcLayer;

    private Builder() {}

    /** Adds members, in order. */
    public Builder add(ClusterResolver... resolvers) {
      members.addAll(Arrays.asList(resolvers));
      return this;
    }

    /** This process's job, overriding the first member's (even {@code ""}). */
    public Builder taskType(String taskType) {
      this.taskType = taskType;
      return this;
    }

    /** This process's task index, overriding the first member's (even {@code 0}). */
    public Builder taskId(Integer taskId) {
      this.taskId = taskId;
      return this;
    }

    /** The rpc layer, overriding the first member's. */
    public Builder rpcLayer(String rpcLayer) {
      this.rpcLayer = rpcLayer;
      return this;
    }

    /** @throws IllegalArgumentException if no member was added, or one is {@code null} */
    public UnionClusterResolver build() {
      return new UnionClusterResolver(members, taskType, taskId, rpcLayer);
    }
  }
}
