package io.clusterresolver.local;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.internal.LocalAccelerators;
import io.clusterresolver.internal.Masters;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** This host as a one-task cluster. The GPU count, a fact of the host, is probed once and kept. */
final class LocalClusterResolver implements ClusterResolver {

  private final String job;
  private final String address;
  private final String rpcLayer;
  private final OptionalInt configuredGpus;
  private final Map<String, String> environment;
  private final Duration nvidiaSmiTimeout;
  private volatile Map<String, Integer> detectedAccelerators;

  LocalClusterResolver(String job, String address, String rpcLayer, OptionalInt configuredGpus,
      Map<String, String> environment, Duration nvidiaSmiTimeout) {
    this.job = job;
    this.address = address;
    this.rpcLayer = rpcLayer == null || rpcLayer.isEmpty() ? null : rpcLayer;
    this.configuredGpus = configuredGpus;
    this.environment = environment;
    this.nvidiaSmiTimeout = nvidiaSmiTimeout;
  }

  @Override
  public ClusterSpec clusterSpec() {
    return ClusterSpec.builder().addJob(job, List.of(address)).build();
  }

  /**
   * {@code ""} without task arguments: a single task has nothing remote to connect to (TensorFlow's
   * rule for a one-task cluster); otherwise the task's address.
   */
  @Override
  public String master(String taskType, Integer taskId, String rpcLayer) {
    if (taskType == null && taskId == null) {
      return "";
    }
    String type = taskType != null ? taskType : job;
    int id = taskId != null ? taskId : 0;
    return Masters.format(clusterSpec().taskAddress(type, id), rpcLayer != null ? rpcLayer : this.rpcLayer);
  }

  @Override
  public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
    if ((taskType != null && !taskType.equals(job)) || (taskId != null && taskId != 0)) {
      clusterSpec().taskAddress(taskType != null ? taskType : job, taskId != null ? taskId : 0);
    }
    if (configuredGpus.isPresent()) {
      int gpus = configuredGpus.getAsInt();
      return gpus == 0 ? Map.of() : Map.of(LocalAccelerators.GPU, gpus);
    }
    Map<String, Integer> detected = detectedAccelerators;
    if (detected == null) {
      detected = LocalAccelerators.detect(environment, nvidiaSmiTimeout);
      detectedAccelerators = detected;
    }
    return detected;
  }

  /** The one task, its accelerators and devices: nothing to list, so trivially one snapshot. */
  @Override
  public Resolution resolve() {
    return Resolution.builder(clusterSpec())
        .taskType(job)
        .taskId(0)
        .rpcLayer(rpcLayer)
        .accelerators(numAccelerators(null, null))
        .visibleDevices(visibleDevices().orElse(null))
        .build();
  }

  @Override
  public Optional<String> taskType() {
    return Optional.of(job);
  }

  @Override
  public OptionalInt taskId() {
    return OptionalInt.of(0);
  }

  @Override
  public Optional<String> rpcLayer() {
    return Optional.ofNullable(rpcLayer);
  }

  @Override
  public Optional<List<String>> visibleDevices() {
    String visible = environment.get("CUDA_VISIBLE_DEVICES");
    return visible == null ? Optional.empty() : Optional.of(LocalAccelerators.visibleDeviceIds(visible));
  }

  @Override
  public String toString() {
    return "LocalClusterResolver{" + job + ": [" + address + "]"
        + (rpcLayer == null ? "" : ", rpcLayer=" + rpcLayer) + "}";
  }
}
