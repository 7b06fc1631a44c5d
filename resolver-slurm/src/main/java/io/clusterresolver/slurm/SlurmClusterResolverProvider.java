package io.clusterresolver.slurm;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
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

  private static final List<ConfigProperty> PROPERTIES = List.of(
      ConfigProperty.string("jobs").defaultValue("worker:*")
          .description("Jobs and their task counts, taking consecutive ranks in job-name order;"
              + " * takes the remaining tasks, e.g. ps:1,worker:*").build(),
      ConfigProperty.integer("port-base").defaultValue("8888").range(0, 65535)
          .description("Port of the first task on each node; the task with local id i listens on"
              + " port-base + i").build(),
      ConfigProperty.string("tasks-per-node")
          .description("Overrides Slurm's tasks per node: one number for every node, or host:count pairs"
              + " (those hosts, in that order)").build(),
      ConfigProperty.integer("gpus-per-node").range(0, 1 << 16)
          .description("GPUs of each node; default: the number of ids in CUDA_VISIBLE_DEVICES, 0 when"
              + " unset").build(),
      ConfigProperty.integer("gpus-per-task").range(0, 1 << 16)
          .description("GPUs of each task; default: as bound by Slurm (--gpus-per-task), else the node's"
              + " visible GPUs divided by its tasks (gpus-per-node divided by the most tasks on one node)").build(),
      ConfigProperty.string("rpc-layer").defaultValue("grpc")
          .description("Scheme of master() addresses; empty for none").build(),
      ConfigProperty.string("task-type")
          .description("This process's job, instead of the one its rank falls in").build(),
      ConfigProperty.integer("task-id").range(0, Integer.MAX_VALUE)
          .description("This process's task index, instead of the one its rank gives").build(),
      ConfigProperty.bool("auto-set-gpu").defaultValue("true")
          .description("Whether visibleDevices() offers this task's GPU ids for a launcher to export as"
              + " CUDA_VISIBLE_DEVICES (Java cannot change its own environment)").build());

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
  public List<ConfigProperty> properties() {
    return PROPERTIES;
  }

  @Override
  public ClusterResolver create(ResolverConfig config) {
    List<String> problems = new ArrayList<>();
    JobCounts jobs = null;
    try {
      jobs = JobCounts.parse(config.key("jobs"), config.string("jobs"));
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    SlurmStep.Overrides overrides = null;
    try {
      overrides = tasksPerNode(config.key("tasks-per-node"), config.optionalString("tasks-per-node"));
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    if (!problems.isEmpty()) {
      throw ResolverConfig.problems(NAME, problems);
    }
    String rpcLayer = config.string("rpc-layer");
    return new SlurmClusterResolver(
        config::environment,
        jobs,
        config.integer("port-base"),
        overrides,
        config.optionalInt("gpus-per-node"),
        config.optionalInt("gpus-per-task"),
        rpcLayer == null || rpcLayer.isEmpty() ? Optional.empty() : Optional.of(rpcLayer),
        config.optionalString("task-type"),
        config.optionalInt("task-id"),
        config.bool("auto-set-gpu"));
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
    if (text.chars().allMatch(Character::isDigit)) {
      try {
        return new SlurmStep.Overrides(Integer.parseInt(text), Map.of());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(key + ": '" + text + "'" + usage);
      }
    }
    Map<String, Integer> perHost = new LinkedHashMap<>();
    for (String item : text.split(",", -1)) {
      int colon = item.lastIndexOf(':');
      String host = colon < 0 ? "" : item.substring(0, colon).trim();
      String count = colon < 0 ? "" : item.substring(colon + 1).trim();
      if (host.isEmpty() || count.isEmpty() || !count.chars().allMatch(Character::isDigit)) {
        throw new IllegalArgumentException(key + ": '" + text + "'" + usage);
      }
      if (perHost.put(host, Integer.parseInt(count)) != null) {
        throw new IllegalArgumentException(key + ": host '" + host + "' is given twice in '" + text + "'");
      }
    }
    return new SlurmStep.Overrides(-1, perHost);
  }
}
