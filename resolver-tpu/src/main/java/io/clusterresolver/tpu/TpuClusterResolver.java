package io.clusterresolver.tpu;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.internal.Masters;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * The workers of one TPU node as job {@code worker}, in worker order. Every call asks the source
 * afresh; {@link #resolve()} takes everything from one answer. As in TensorFlow, a process that is
 * not one of the workers (a client of the node) is task 0 of {@code worker}, so {@link #master()}
 * is worker 0. A directly attached TPU ({@code local}) is task 0 of {@code worker} too, in an empty
 * cluster: {@link #master()} is {@code ""}, nothing remote. Thread-safe.
 */
final class TpuClusterResolver implements ClusterResolver {

  static final String JOB = "worker";

  private final Supplier<Workers> source;
  private final String taskTypeOverride;
  private final Integer taskIdOverride;
  private final String rpcLayer;
  private final String description;
  private final boolean local;

  /**
   * @param local whether the target is a directly attached TPU (an empty cluster; this process is worker 0)
   */
  TpuClusterResolver(Supplier<Workers> source, boolean local, String taskType, Integer taskId, String rpcLayer,
      String description) {
    this.source = source;
    this.local = local;
    this.taskTypeOverride = taskType;
    this.taskIdOverride = taskId;
    this.rpcLayer = rpcLayer == null || rpcLayer.isEmpty() ? null : rpcLayer;
    this.description = description;
  }

  private static ClusterSpec spec(Workers w) {
    return w.addresses().isEmpty() ? ClusterSpec.empty() : ClusterSpec.builder().addJob(JOB, w.addresses()).build();
  }

  /** The own job needs no answer from the source: {@code worker}, the node's only job ({@code local} too, as in TF). */
  private String type() {
    return taskTypeOverride != null ? taskTypeOverride : JOB;
  }

  private Integer id(Workers w) {
    if (taskIdOverride != null) {
      return taskIdOverride;
    }
    return local ? Integer.valueOf(0) : w.addresses().isEmpty() ? null : w.self().orElse(0);
  }

  private static Map<String, Integer> accelerators(Workers w, String type, Integer id) {
    return JOB.equals(type) && id != null && id >= 0 && id < w.addresses().size() ? w.acceleratorsPerHost() : Map.of();
  }

  @Override
  public ClusterSpec clusterSpec() {
    return spec(source.get());
  }

  @Override
  public Resolution resolve() {
    Workers w = source.get();
    String type = type();
    Integer id = id(w);
    return Resolution.builder(spec(w)).taskType(type).taskId(id).rpcLayer(rpcLayer)
        .environment(TpuClusterResolverProvider.ENVIRONMENT).accelerators(accelerators(w, type, id)).build();
  }

  @Override
  public String master(String taskType, Integer taskId, String rpcLayer) {
    Workers w = source.get();
    if (w.addresses().isEmpty()) {
      return "";
    }
    String type = taskType != null ? taskType : type();
    Integer id = taskId != null ? taskId : id(w);
    return Masters.format(spec(w).taskAddress(type, id), rpcLayer != null ? rpcLayer : this.rpcLayer);
  }

  @Override
  public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
    Workers w = source.get();
    String type = taskType != null ? taskType : type();
    Integer id = taskId != null ? taskId : id(w);
    if (local || type == null || id == null) {
      return Map.of(); // local: TF counts this host's logical TPU devices, which only its TF runtime knows
    }
    spec(w).taskAddress(type, id); // IllegalArgumentException naming an unknown job or task
    return accelerators(w, type, id);
  }

  @Override
  public String environment() {
    return TpuClusterResolverProvider.ENVIRONMENT;
  }

  @Override
  public Optional<String> taskType() {
    return Optional.ofNullable(type());
  }

  @Override
  public OptionalInt taskId() {
    Integer id = taskIdOverride != null ? taskIdOverride : id(source.get());
    return id == null ? OptionalInt.empty() : OptionalInt.of(id);
  }

  @Override
  public Optional<String> rpcLayer() {
    return Optional.ofNullable(rpcLayer);
  }

  @Override
  public String toString() {
    return "TpuClusterResolver{" + description + ", rpc layer " + rpcLayer + "}";
  }
}
