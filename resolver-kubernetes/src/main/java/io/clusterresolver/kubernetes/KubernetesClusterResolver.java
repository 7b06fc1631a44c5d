package io.clusterresolver.kubernetes;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.internal.Masters;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The {@code kubernetes} resolver: every call lists the pods afresh ({@link PodSource}) and lays
 * them out ({@link PodLayout}); {@link #resolve()} takes the cluster, this process's task and its
 * accelerators from one listing. This process is the pod named by {@code POD_NAME} (the downward
 * API), else {@code HOSTNAME}, unless {@code task-type}/{@code task-id} say otherwise. Thread-safe.
 */
final class KubernetesClusterResolver implements ClusterResolver {

  private static final System.Logger LOG = System.getLogger(KubernetesClusterResolver.class.getName());
  private static final int NAMES_LOGGED = 20;

  private final PodSource source;
  private final PodLayout layout;
  private final String podName;
  private final String taskTypeOverride;
  private final Integer taskIdOverride;
  private final String rpcLayer;
  private final String description;

  KubernetesClusterResolver(PodSource source, PodLayout layout, String podName, String taskType, Integer taskId,
      String rpcLayer, String description) {
    this.source = source;
    this.layout = layout;
    this.podName = podName;
    this.taskTypeOverride = taskType;
    this.taskIdOverride = taskId;
    this.rpcLayer = rpcLayer == null || rpcLayer.isEmpty() ? null : rpcLayer;
    this.description = description;
  }

  /** Lists the pods once and places them, logging the pods left out (never fatal). */
  PodLayout.Placement placement() {
    PodSource.Listing listing = source.list();
    PodLayout.Placement placement = layout.place(listing.members());
    logLeftOut(listing.leftOut().size() + placement.leftOut().size(),
        concat(listing.leftOut(), placement.leftOut()));
    if (placement.renumbered()) {
      LOG.log(Level.WARNING, () -> "kubernetes: the pods come from several controllers (or repeat an ordinal): "
          + "tasks are numbered 0.." + (placement.tasks().size() - 1) + " in pod order instead of by ordinal;"
          + " narrow clusterresolver.kubernetes.selector to one StatefulSet or Job, or set job-label");
    }
    return placement;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return b.isEmpty() ? a : java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }

  private static void logLeftOut(int n, List<String> pods) {
    if (n > 0) {
      LOG.log(Level.INFO, () -> "kubernetes: " + n + " pod(s) matching the selector left out of the cluster: "
          + String.join(", ", pods.subList(0, Math.min(NAMES_LOGGED, pods.size())))
          + (pods.size() > NAMES_LOGGED ? ", …" : ""));
    }
  }

  @Override
  public ClusterSpec clusterSpec() {
    return placement().spec();
  }

  @Override
  public Resolution resolve() {
    PodLayout.Placement placement = placement();
    Optional<PodLayout.Task> own = self(placement);
    String type = taskTypeOverride != null ? taskTypeOverride : own.map(PodLayout.Task::job).orElse(null);
    Integer id = taskIdOverride != null ? taskIdOverride : own.map(PodLayout.Task::index).orElse(null);
    return Resolution.builder(placement.spec())
        .taskType(type)
        .taskId(id)
        .rpcLayer(rpcLayer)
        .environment(KubernetesClusterResolverProvider.NAME)
        .accelerators(accelerators(placement, type, id))
        .build();
  }

  @Override
  public String master(String taskType, Integer taskId, String rpcLayer) {
    PodLayout.Placement placement = placement();
    Optional<PodLayout.Task> own = taskType == null || taskId == null ? self(placement) : Optional.empty();
    String type = taskType != null ? taskType : taskTypeOverride != null ? taskTypeOverride
        : own.map(PodLayout.Task::job).orElse(null);
    Integer id = taskId != null ? taskId : taskIdOverride != null ? taskIdOverride
        : own.map(PodLayout.Task::index).orElse(null);
    if (type == null || id == null) {
      return "";
    }
    return Masters.format(placement.spec().taskAddress(type, id), rpcLayer != null ? rpcLayer : this.rpcLayer);
  }

  @Override
  public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
    PodLayout.Placement placement = placement();
    Optional<PodLayout.Task> own = taskType == null || taskId == null ? self(placement) : Optional.empty();
    String type = taskType != null ? taskType : own.map(PodLayout.Task::job).orElse(null);
    Integer id = taskId != null ? taskId : own.map(PodLayout.Task::index).orElse(null);
    if (type == null || id == null) {
      return Map.of();
    }
    placement.spec().taskAddress(type, id); // IllegalArgumentException naming an unknown job or task
    return accelerators(placement, type, id);
  }

  private static Map<String, Integer> accelerators(PodLayout.Placement placement, String type, Integer id) {
    return type == null || id == null ? Map.of()
        : placement.task(type, id).map(t -> t.pod().accelerators()).orElse(Map.of());
  }

  @Override
  public String environment() {
    return KubernetesClusterResolverProvider.NAME;
  }

  @Override
  public Optional<String> taskType() {
    return taskTypeOverride != null ? Optional.of(taskTypeOverride) : self(placement()).map(PodLayout.Task::job);
  }

  @Override
  public OptionalInt taskId() {
    if (taskIdOverride != null) {
      return OptionalInt.of(taskIdOverride);
    }
    return self(placement()).map(t -> OptionalInt.of(t.index())).orElse(OptionalInt.empty());
  }

  @Override
  public Optional<String> rpcLayer() {
    return Optional.ofNullable(rpcLayer);
  }

  /** This process's task: the overrides when both are set, else the task of the pod named like this one. */
  private Optional<PodLayout.Task> self(PodLayout.Placement placement) {
    if (taskTypeOverride != null && taskIdOverride != null) {
      return placement.task(taskTypeOverride, taskIdOverride);
    }
    return podName == null ? Optional.empty() : placement.taskOf(podName);
  }

  @Override
  public String toString() {
    return "KubernetesClusterResolver{" + description + ", " + layout + "}";
  }
}
