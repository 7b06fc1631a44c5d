package io.clusterresolver;

import io.clusterresolver.internal.Masters;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A resolver over a fixed {@link ClusterSpec} and attributes given in code: TensorFlow's
 * {@code SimpleClusterResolver}. Useful in tests, as a member of a {@link UnionClusterResolver}, and
 * wherever the cluster is known up front.
 *
 * <pre>{@code
 * ClusterResolver resolver = SimpleClusterResolver.builder(spec)
 *     .taskType("worker").taskId(0).rpcLayer("grpc").numAccelerators(Map.of("GPU", 8))
 *     .build();
 * }</pre>
 *
 * <p>{@link #master(String, Integer, String)} follows TensorFlow: with both a task type and a task
 * id it gives that task's address, otherwise the configured master (the resolver's own task type
 * and id are <em>not</em> used); the scheme is the argument, or the resolver's rpc layer when the
 * argument is {@code null} or empty. An empty master stays {@code ""} whatever the rpc layer
 * (deviation D6). {@link #numAccelerators(String, Integer)} returns the configured map for any task.
 * Immutable and thread-safe.
 */
public final class SimpleClusterResolver implements ClusterResolver {

  private final ClusterSpec clusterSpec;
  private final String master;
  private final String taskType;
  private final Integer taskId;
  private final String environment;
  private final Map<String, Integer> numAccelerators;
  private final String rpcLayer;

  private SimpleClusterResolver(Builder b) {
    this.clusterSpec = b.clusterSpec;
    this.master = b.master;
    this.taskType = b.taskType;
    this.taskId = b.taskId;
    this.environment = b.environment;
    this.numAccelerators = Map.copyOf(b.numAccelerators);
    this.rpcLayer = b.rpcLayer;
  }

  /** A resolver of this spec with default attributes: no master, task or rpc layer. */
  public static SimpleClusterResolver of(ClusterSpec clusterSpec) {
    return builder(clusterSpec).build();
  }

  /**
   * A builder for a resolver of this spec.
   *
   * @throws IllegalArgumentException if the spec is {@code null}
   */
  public static Builder builder(ClusterSpec clusterSpec) {
    return new Builder(clusterSpec);
  }

  /** A builder holding this resolver's spec and attributes, to derive a changed copy. */
  public Builder toBuilder() {
    Builder b = new Builder(clusterSpec);
    b.master = master;
    b.taskType = taskType;
    b.taskId = taskId;
    b.environment = environment;
    b.numAccelerators.putAll(numAccelerators);
    b.rpcLayer = rpcLayer;
    return b;
  }

  @Override
  public ClusterSpec clusterSpec() {
    return clusterSpec;
  }

  @Override
  public String master(String taskType, Integer taskId, String rpcLayer) {
    String address = taskType != null && taskId != null
        ? clusterSpec.taskAddress(taskType, taskId)
        : master;
    return Masters.format(address, Masters.orElse(rpcLayer, this.rpcLayer));
  }

  /** The configured accelerators; the arguments are ignored, as in TensorFlow. */
  @Override
  public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
    return numAccelerators;
  }

  @Override
  public String environment() {
    return environment;
  }

  @Override
  public Optional<String> taskType() {
    return Optional.ofNullable(taskType);
  }

  @Override
  public OptionalInt taskId() {
    return taskId == null ? OptionalInt.empty() : OptionalInt.of(taskId);
  }

  @Override
  public Optional<String> rpcLayer() {
    return Optional.ofNullable(rpcLayer);
  }

  @Override
  public String toString() {
    return "SimpleClusterResolver{" + clusterSpec + (master.isEmpty() ? "" : ", master=" + master)
        + (taskType == null ? "" : ", taskType=" + taskType) + (taskId == null ? "" : ", taskId=" + taskId)
        + (rpcLayer == null ? "" : ", rpcLayer=" + rpcLayer)
        + (environment.isEmpty() ? "" : ", environment=" + environment)
        + (numAccelerators.isEmpty() ? "" : ", accelerators=" + numAccelerators) + "}";
  }

  /** Builds a {@link SimpleClusterResolver}. Not thread-safe. */
  public static final class Builder {
    private final ClusterSpec clusterSpec;
    private String master = "";
    private String taskType;
    private Integer taskId;
    private String environment = "";
    private final Map<String, Integer> numAccelerators = new LinkedHashMap<>();
    private String rpcLayer;

    private Builder(ClusterSpec clusterSpec) {
      if (clusterSpec == null) {
        throw new IllegalArgumentException("The cluster spec of a SimpleClusterResolver must not be null");
      }
      this.clusterSpec = clusterSpec;
    }

    /**
     * The address {@code master()} gives without task arguments ({@code ""}, the default, means
     * nothing remote).
     *
     * @throws IllegalArgumentException if {@code null}
     */
    public Builder master(String master) {
      if (master == null) {
        throw new IllegalArgumentException("master must be a string; use \"\" for no master");
      }
      this.master = master;
      return this;
    }

    /** This process's job; {@code null} for unknown. */
    public Builder taskType(String taskType) {
      this.taskType = taskType;
      return this;
    }

    /** This process's task index; {@code null} for unknown. */
    public Builder taskId(Integer taskId) {
      this.taskId = taskId;
      return this;
    }

    /** The platform name {@link ClusterResolver#environment()} reports ({@code ""} by default). */
    public Builder environment(String environment) {
      this.environment = Objects.requireNonNullElse(environment, "");
      return this;
    }

    /**
     * The accelerators per device type, such as {@code {"GPU": 8}}, replacing any given before.
     *
     * @throws IllegalArgumentException for a null or blank type or a null or negative count
     */
    public Builder numAccelerators(Map<String, Integer> numAccelerators) {
      Map<String, Integer> checked = new LinkedHashMap<>();
      for (Map.Entry<String, Integer> entry : Objects.requireNonNull(numAccelerators, "numAccelerators").entrySet()) {
        if (entry.getKey() == null || entry.getKey().isBlank()) {
          throw new IllegalArgumentException("Accelerator type must not be blank: " + numAccelerators);
        }
        if (entry.getValue() == null || entry.getValue() < 0) {
          throw new IllegalArgumentException("Accelerator count of '" + entry.getKey()
              + "' must be zero or more, not " + entry.getValue());
        }
        checked.put(entry.getKey(), entry.getValue());
      }
      this.numAccelerators.clear();
      this.numAccelerators.putAll(checked);
      return this;
    }

    /** The rpc layer (scheme) such as {@code grpc}; {@code null} for none. */
    public Builder rpcLayer(String rpcLayer) {
      this.rpcLayer = rpcLayer;
      return this;
    }

    public SimpleClusterResolver build() {
      return new SimpleClusterResolver(this);
    }
  }

}
