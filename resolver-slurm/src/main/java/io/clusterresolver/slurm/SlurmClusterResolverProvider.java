package io.clusterresolver.slurm;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import io.clusterresolver.spi.TaskProperties;
import io.clusterresolver.cloud.JobAssignment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The {@code slurm} provider: available when {@code SLURM_JOB_ID} is set, it describes the job
 * step this process belongs to, read from Slurm's environment variables alone.
 */
public final class SlurmClusterResolverProvider implements ClusterResolverProvider {

  /** The provider's name, the middle part of its property keys. */
  public static final String NAME = "slurm";

  /** Above cloud providers (which need a metadata probe): a Slurm job is known from its environment. */
  public static final int PRIORITY = 300;

  static final ConfigProperty<String> JOBS = ConfigProperty.string("jobs").defaultValue("worker:*")
      .description(JobAssignment.GRAMMAR + " (ranks in that order)").build();
  static final ConfigProperty<Integer> PORT_BASE = ConfigProperty.integer("port-base").defaultValue("8888")
      .range(1, 65535)
      .description("Port of the first task on each node; the task with local id i listens on port-base + i").build();
  static final ConfigProperty<String> TASKS_PER_NODE = ConfigProperty.string("tasks-per-node")
      .description("Overrides Slurm's tasks per node: one number for every node, or host:count pairs"
          + " (those hosts, in that order)").build();
  static final ConfigProperty<Integer> GPUS_PER_NODE = ConfigProperty.integer("gpus-per-node").range(0, 1 << 16)
      .description("GPUs of each node; default: the number of ids in CUDA_VISIBLE_DEVICES, 0 when unset").build();
  static final ConfigProperty<Integer> GPUS_PER_TASK = ConfigProperty.integer("gpus-per-task").range(0, 1 << 16)
      .description("GPUs of each task; default: as bound by Slurm (--gpus-per-task), else the node's"
          + " visible GPUs divided by its tasks (gpus-per-node divided by the most tasks on one node)").build();
  static final ConfigProperty<Boolean> AUTO_SET_GPU = ConfigProperty.bool("auto-set-gpu").defaultValue("true")
      .description("Whether visibleDevices() offers this task's GPU ids for a launcher to export as"
          + " CUDA_VISIBLE_DEVICES (Java cannot change its own environment)").build();

  /** The most tasks one node can hold: each listens on its own port. */
  static final int MAX_TASKS_PER_NODE = 65535;

  private static final List<ConfigProperty<?>> PROPERTIES = List.of(JOBS, PORT_BASE, TASKS_PER_NODE, GPUS_PER_NODE,
      GPUS_PER_TASK, TaskProperties.RPC_LAYER, TaskProperties.TASK_TYPE, TaskProperties.TASK_ID, AUTO_SET_GPU);

  /** Public zero-argument constructor for {@link java.util.ServiceLoader}; does no work. */
  public SlurmClusterResolverProvider() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int priority() {
    return PRIORITY;
  }

  @Override
  public boolean isAvailable(ResolverContext context) {
    try {
      return context.getenv("SLURM_JOB_ID").filter(id -> !id.isBlank()).isPresent();
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public List<ConfigProperty<?>> properties() {
    return PROPERTIES;
  }

  @Override
  public ClusterResolver create(ResolverConfig config) {
    List<String> problems = new ArrayList<>();
    JobAssignment jobs = null;
    try {
      jobs = JobAssignment.parseCounts(config.get(JOBS));
    } catch (IllegalArgumentException e) {
      problems.add(config.key(JOBS) + ": " + e.getMessage());
    }
    SlurmStep.Overrides overrides = null;
    try {
      overrides = tasksPerNode(config.key(TASKS_PER_NODE), config.find(TASKS_PER_NODE));
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    if (!problems.isEmpty()) {
      throw ResolverConfig.problems(NAME, problems);
    }
    String rpcLayer = config.get(TaskProperties.RPC_LAYER);
    return new SlurmClusterResolver(
        config::environment,
        jobs,
        config.get(PORT_BASE),
        overrides,
        optionalInt(config.get(GPUS_PER_NODE)),
        optionalInt(config.get(GPUS_PER_TASK)),
        rpcLayer == null || rpcLayer.isEmpty() ? Optional.empty() : Optional.of(rpcLayer),
        config.find(TaskProperties.TASK_TYPE),
        optionalInt(config.get(TaskProperties.TASK_ID)),
        config.get(AUTO_SET_GPU));
  }

  private static OptionalInt optionalInt(Integer value) {
    return value == null ? OptionalInt.empty() : OptionalInt.of(value);
  }

  private static boolean isAsciiDigit(int c) {
    return c >= '0' && c <= '9';
  }

  /**
   * One node's task count: at most {@value #MAX_TASKS_PER_NODE}, since every task of a node listens
   * on its own port ({@code port-base + local id}).
   */
  private static int taskCount(String key, String text, String count) {
    String digits = count.replaceFirst("^0+(?=.)", "");
    if (digits.length() > 5 || Integer.parseInt(digits) > MAX_TASKS_PER_NODE) {
      throw new IllegalArgumentException(key + ": '" + text + "' asks for " + count + " tasks on a node; at most "
          + MAX_TASKS_PER_NODE + " fit (each task of a node listens on its own port): lower the count");
    }
    return Integer.parseInt(digits);
  }

  /** {@code 4} (every node) or {@code hostA:2,hostB:1} (these hosts, in this order). */
  static SlurmStep.Overrides tasksPerNode(String key, Optional<String> value) {
    if (value.isEmpty()) {
      return new SlurmStep.Overrides(-1, Map.of());
    }
    String text = value.get().trim();
    String usage = " is not a task count or a list of host:count pairs, like 4 or hostA:2,hostB:1";
    if (text.isEmpty()) {
      throw new IllegalArgumentException(key + ": '' " + usage.substring(4));
    }
    if (text.chars().allMatch(SlurmClusterResolverProvider::isAsciiDigit)) {
      return new SlurmStep.Overrides(taskCount(key, text, text), Map.of());
    }
    Map<String, Integer> perHost = new LinkedHashMap<>();
    for (String item : text.split(",", -1)) {
      int colon = item.lastIndexOf(':');
      String host = colon < 0 ? "" : item.substring(0, colon).trim();
      String count = colon < 0 ? "" : item.substring(colon + 1).trim();
      if (host.isEmpty() || count.isEmpty() || !count.chars().allMatch(SlurmClusterResolverProvider::isAsciiDigit)) {
        throw new IllegalArgumentException(key + ": '" + text + "'" + usage);
      }
      if (perHost.put(host, taskCount(key, text, count)) != null) {
        throw new IllegalArgumentException(key + ": host '" + host + "' is given twice in '" + text + "'");
      }
    }
    return new SlurmStep.Overrides(-1, perHost);
  }
}
