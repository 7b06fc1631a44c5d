package io.clusterresolver.tfconfig;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.internal.LocalAccelerators;
import io.clusterresolver.internal.Masters;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * TensorFlow's {@code TFConfigClusterResolver}: reads {@code TF_CONFIG} from the environment on
 * every call (never cached), with the task type, task id and rpc layer given as properties winning
 * over the file (K4, D4).
 */
final class TfConfigClusterResolver implements ClusterResolver {

  private final Map<String, String> environment;
  private final String taskTypeOverride;
  private final Integer taskIdOverride;
  private final String rpcLayerOverride;
  private final String platform;
  private final Duration nvidiaSmiTimeout;

  TfConfigClusterResolver(Map<String, String> environment, String taskType, Integer taskId,
      String rpcLayer, String platform, Duration nvidiaSmiTimeout) {
    this.environment = environment;
    this.taskTypeOverride = taskType;
    this.taskIdOverride = taskId;
    this.rpcLayerOverride = rpcLayer;
    this.platform = platform;
    this.nvidiaSmiTimeout = nvidiaSmiTimeout;
  }

  private TfConfig read() {
    return TfConfig.parse(environment.get(TfConfig.VARIABLE));
  }

  @Override
  public ClusterSpec clusterSpec() {
    return read().cluster();
  }

  /**
   * TensorFlow's rules: {@code session_master} verbatim when present (even {@code ""}); {@code ""}
   * for an empty cluster or a single job with a single task; otherwise the address of the task
   * (the arguments, else this process's own task) with the rpc layer (the argument, else the
   * property, else {@code rpc_layer}) as scheme.
   */
  @Override
  public String master(String taskType, Integer taskId, String rpcLayer) {
    TfConfig config = read();
    String sessionMaster = config.sessionMaster();
    if (sessionMaster != null) {
      return sessionMaster;
    }
    ClusterSpec spec = config.cluster();
    if (spec.isEmpty() || isSingleTask(spec)) {
      return "";
    }
    String type = taskType != null ? taskType : taskType(config);
    Integer id = taskId != null ? taskId : taskId(config);
    if (type == null) {
      throw new ConfigurationException("No task type to find the master of: set task.type in "
          + TfConfig.VARIABLE + " or the property clusterresolver.tfconfig.task-type, or pass a task type");
    }
    if (id == null) {
      spec.numTasks(type); // an unknown job is the more useful message
      throw new ConfigurationException("No task index to find the master of in job '" + type
          + "': set task.index in " + TfConfig.VARIABLE
          + " or the property clusterresolver.tfconfig.task-id, or pass a task id");
    }
    String scheme = rpcLayer != null ? rpcLayer : rpcLayer(config);
    return Masters.format(spec.taskAddress(type, id), scheme);
  }

  /** TensorFlow's test {@code len(job_tasks(job)) == 1}, without building a sparse job's list. */
  private static boolean isSingleTask(ClusterSpec spec) {
    if (spec.jobs().size() != 1) {
      return false;
    }
    String job = spec.jobs().get(0);
    return spec.numTasks(job) == 1 && spec.taskIndices(job).get(0) == 0;
  }

  /**
   * This host's accelerators (nvidia-smi, narrowed to {@code CUDA_VISIBLE_DEVICES}) for this
   * process's own task; an empty map for any other task, of which {@code TF_CONFIG} says nothing.
   */
  @Override
  public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
    TfConfig config = read();
    boolean ownType = taskType == null || taskType.equals(taskType(config));
    boolean ownId = taskId == null || taskId.equals(taskId(config));
    return ownType && ownId ? LocalAccelerators.detect(environment, nvidiaSmiTimeout) : Map.of();
  }

  @Override
  public String environment() {
    return platform;
  }

  /** One read of {@code TF_CONFIG}: every part comes from the same value of the variable. */
  @Override
  public Resolution resolve() {
    TfConfig config = read();
    return Resolution.builder(config.cluster())
        .taskType(taskType(config))
        .taskId(taskId(config))
        .rpcLayer(rpcLayer(config))
        .environment(platform)
        .accelerators(LocalAccelerators.detect(environment, nvidiaSmiTimeout))
        .build();
  }

  @Override
  public Optional<String> taskType() {
    return Optional.ofNullable(taskType(read()));
  }

  @Override
  public OptionalInt taskId() {
    Integer id = taskId(read());
    return id == null ? OptionalInt.empty() : OptionalInt.of(id);
  }

  @Override
  public Optional<String> rpcLayer() {
    return Optional.ofNullable(rpcLayer(read()));
  }

  private String taskType(TfConfig config) {
    return taskTypeOverride != null ? taskTypeOverride : config.taskType();
  }

  private Integer taskId(TfConfig config) {
    return taskIdOverride != null ? taskIdOverride : config.taskIndex();
  }

  private String rpcLayer(TfConfig config) {
    return rpcLayerOverride != null ? rpcLayerOverride : config.rpcLayer();
  }

  @Override
  public String toString() {
    return "TfConfigClusterResolver{" + (taskTypeOverride == null ? "" : "taskType=" + taskTypeOverride + ", ")
        + (taskIdOverride == null ? "" : "taskId=" + taskIdOverride + ", ")
        + (rpcLayerOverride == null ? "" : "rpcLayer=" + rpcLayerOverride + ", ")
        + "reads " + TfConfig.VARIABLE + "}";
  }
}
