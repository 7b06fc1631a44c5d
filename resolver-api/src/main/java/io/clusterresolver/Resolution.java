package io.clusterresolver;

import io.clusterresolver.internal.Masters;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * One consistent answer of a {@link ClusterResolver}: the cluster and this process's place in it,
 * all taken from <em>one</em> query of the source of truth — so the task index printed next to the
 * addresses always belongs to the same cluster, even while the fleet changes. Immutable and
 * thread-safe; what {@link ClusterResolver#resolve()} returns.
 *
 * <p>Like grpc-java's {@code NameResolver.ResolutionResult}: one object carries everything a
 * listener needs, where TensorFlow's getters each ask again.
 *
 * <pre>{@code
 * Resolution r = ClusterResolvers.detect().resolve();
 * ClusterSpec cluster = r.clusterSpec();
 * String me = r.taskType().orElse("worker") + ":" + r.taskId().orElse(0);
 * }</pre>
 */
public final class Resolution {

  private final ClusterSpec clusterSpec;
  private final String taskType;
  private final Integer taskId;
  private final String rpcLayer;
  private final String environment;
  private final Map<String, Integer> accelerators;
  private final List<String> visibleDevices;

  private Resolution(Builder b) {
    this.clusterSpec = b.clusterSpec;
    this.taskType = b.taskType;
    this.taskId = b.taskId;
    this.rpcLayer = b.rpcLayer; // "" is kept as given (TensorFlow's Simple resolver returns it); master() ignores it
    this.environment = b.environment;
    this.accelerators = Collections.unmodifiableMap(new TreeMap<>(b.accelerators));
    this.visibleDevices = b.visibleDevices == null ? null : List.copyOf(b.visibleDevices);
  }

  /** A builder for a resolution of this cluster. */
  public static Builder builder(ClusterSpec clusterSpec) {
    return new Builder(clusterSpec);
  }

  /**
   * The snapshot a resolver's getters compose: {@link ClusterResolver#clusterSpec()} first, then
   * this process's task, rpc layer, environment, accelerators and visible devices. Each getter may
   * ask the source of truth again, so this is only as consistent as the resolver; our providers
   * override {@link ClusterResolver#resolve()} with a single query instead.
   */
  public static Resolution fromGetters(ClusterResolver resolver) {
    ClusterSpec spec = Objects.requireNonNull(resolver.clusterSpec(), "clusterSpec() returned null");
    OptionalInt id = resolver.taskId();
    return builder(spec)
        .taskType(resolver.taskType().orElse(null))
        .taskId(id.isPresent() ? id.getAsInt() : null)
        .rpcLayer(resolver.rpcLayer().orElse(null))
        .environment(resolver.environment())
        .accelerators(resolver.numAccelerators())
        .visibleDevices(resolver.visibleDevices().orElse(null))
        .build();
  }

  /** The cluster. */
  public ClusterSpec clusterSpec() {
    return clusterSpec;
  }

  /** The job of this process's own task, when known. */
  public Optional<String> taskType() {
    return Optional.ofNullable(taskType);
  }

  /** The index of this process's own task within its job, when known. */
  public OptionalInt taskId() {
    return taskId == null ? OptionalInt.empty() : OptionalInt.of(taskId);
  }

  /** The rpc layer (scheme) tasks speak, such as {@code grpc}, when there is one. */
  public Optional<String> rpcLayer() {
    return Optional.ofNullable(rpcLayer);
  }

  /** The platform, such as {@code aws}; {@code ""} when the resolver names none. */
  public String environment() {
    return environment;
  }

  /** Accelerators of this process's own task by device type, e.g. {@code {"GPU": 8}}; empty when none. */
  public Map<String, Integer> accelerators() {
    return accelerators;
  }

  /** The accelerator device ids visible to this process's own task, when the resolver knows them. */
  public Optional<List<String>> visibleDevices() {
    return Optional.ofNullable(visibleDevices);
  }

  /**
   * This process's own task address as {@code rpcLayer://host:port} (no scheme without an rpc
   * layer), or {@code ""} when this process's task is not known or not in the cluster.
   */
  public String master() {
    if (taskType == null || taskId == null || !clusterSpec.hasJob(taskType)
        || !clusterSpec.taskIndices(taskType).contains(taskId)) {
      return "";
    }
    return Masters.format(clusterSpec.taskAddress(taskType, taskId), rpcLayer);
  }

  /** A builder with this resolution's values, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder(clusterSpec).taskType(taskType).taskId(taskId).rpcLayer(rpcLayer)
        .environment(environment).accelerators(accelerators).visibleDevices(visibleDevices);
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Resolution)) {
      return false;
    }
    Resolution r = (Resolution) o;
    return clusterSpec.equals(r.clusterSpec) && Objects.equals(taskType, r.taskType)
        && Objects.equals(taskId, r.taskId) && Objects.equals(rpcLayer, r.rpcLayer)
        && environment.equals(r.environment) && accelerators.equals(r.accelerators)
        && Objects.equals(visibleDevices, r.visibleDevices);
  }

  @Override
  public int hashCode() {
    return Objects.hash(clusterSpec, taskType, taskId, rpcLayer, environment, accelerators, visibleDevices);
  }

  @Override
  public String toString() {
    return "Resolution{" + clusterSpec + ", task=" + taskType + ":" + taskId
        + (rpcLayer == null ? "" : ", rpcLayer=" + rpcLayer)
        + (environment.isEmpty() ? "" : ", environment=" + environment)
        + (accelerators.isEmpty() ? "" : ", accelerators=" + accelerators)
        + (visibleDevices == null ? "" : ", visibleDevices=" + visibleDevices) + "}";
  }

  /** Builds a {@link Resolution}; unset parts are unknown (task), absent (rpc layer) or empty. */
  public static final class Builder {
    private final ClusterSpec clusterSpec;
    private String taskType;
    private Integer taskId;
    private String rpcLayer;
    private String environment = "";
    private Map<String, Integer> accelerators = Map.of();
    private List<String> visibleDevices;

    private Builder(ClusterSpec clusterSpec) {
      this.clusterSpec = Objects.requireNonNull(clusterSpec, "clusterSpec");
    }

    /** This process's job; {@code null} when unknown. */
    public Builder taskType(String taskType) {
      this.taskType = taskType;
      return this;
    }

    /** This process's task index; {@code null} when unknown. */
    public Builder taskId(Integer taskId) {
      if (taskId != null && taskId < 0) {
        throw new IllegalArgumentException("Task index " + taskId + " is negative");
      }
      this.taskId = taskId;
      return this;
    }

    /** The scheme of master addresses; {@code null} for none ({@code ""} is kept, and writes no scheme). */
    public Builder rpcLayer(String rpcLayer) {
      this.rpcLayer = rpcLayer;
      return this;
    }

    /** The platform name; {@code ""} for none. */
    public Builder environment(String environment) {
      this.environment = Objects.requireNonNull(environment, "environment");
      return this;
    }

    /** This task's accelerators by device type; {@code null} means none. */
    public Builder accelerators(Map<String, Integer> accelerators) {
      this.accelerators = accelerators == null ? Map.of() : Map.copyOf(accelerators);
      return this;
    }

    /** This task's visible device ids; {@code null} when unknown. */
    public Builder visibleDevices(List<String> visibleDevices) {
      this.visibleDevices = visibleDevices;
      return this;
    }

    public Resolution build() {
      return new Resolution(this);
    }
  }
}
