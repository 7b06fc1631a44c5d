package io.clusterresolver.slurm;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.Resolution;
import io.clusterresolver.TaskAddress;
import io.clusterresolver.cloud.JobAssignment;
import io.clusterresolver.internal.LocalAccelerators;
import io.clusterresolver.internal.Masters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * Resolves the cluster of a Slurm job step from the environment of one of its processes, with no
 * communication: every process of the step computes the same cluster and finds itself in it.
 *
 * <p>The ranks of the step are placed on nodes as Slurm placed them: node-list order, tasks per
 * node and the step's distribution (block, cyclic, plane). Jobs take consecutive ranks in job-name
 * order; a task's address is {@code host:(port-base + its local id on that host)}. The
 * environment is read again on every call. Created by {@link SlurmClusterResolverProvider}.
 */
public final class SlurmClusterResolver implements ClusterResolver {

  private static final String GPU = LocalAccelerators.GPU;

  private final Supplier<Map<String, String>> environment;
  private final JobAssignment jobs;
  private final int portBase;
  private final SlurmStep.Overrides overrides;
  private final OptionalInt gpusPerNode;
  private final OptionalInt gpusPerTask;
  private final Optional<String> rpcLayer;
  private final Optional<String> taskTypeOverride;
  private final OptionalInt taskIdOverride;
  private final boolean autoSetGpu;

  SlurmClusterResolver(Supplier<Map<String, String>> environment, JobAssignment jobs, int portBase,
      SlurmStep.Overrides overrides, OptionalInt gpusPerNode, OptionalInt gpusPerTask,
      Optional<String> rpcLayer, Optional<String> taskType, OptionalInt taskId, boolean autoSetGpu) {
    this.environment = environment;
    this.jobs = jobs;
    this.portBase = portBase;
    this.overrides = overrides;
    this.gpusPerNode = gpusPerNode;
    this.gpusPerTask = gpusPerTask;
    this.rpcLayer = rpcLayer;
    this.taskTypeOverride = taskType;
    this.taskIdOverride = taskId;
    this.autoSetGpu = autoSetGpu;
    snapshot(); // an unusable environment fails at creation, not at first use
  }

  @Override
  public ClusterSpec clusterSpec() {
    return snapshot().spec();
  }

  @Override
  public String master(String taskType, Integer taskId, String rpcLayer) {
    Snapshot snapshot = snapshot();
    Optional<String> type = taskType != null ? Optional.of(taskType) : snapshot.taskType();
    OptionalInt id = taskId != null ? OptionalInt.of(taskId) : snapshot.taskId();
    if (type.isEmpty() || id.isEmpty()) {
      return ""; // this process is not a task of the cluster: nothing to connect to
    }
    String address = snapshot.address(type.get(), id.getAsInt());
    return Masters.format(address, rpcLayer != null ? rpcLayer : this.rpcLayer.orElse(""));
  }

  @Override
  public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
    int gpus = snapshot().gpusPerTask();
    return gpus > 0 ? Map.of(GPU, gpus) : Map.of();
  }

  @Override
  public Optional<String> taskType() {
    return snapshot().taskType();
  }

  @Override
  public OptionalInt taskId() {
    return snapshot().taskId();
  }

  @Override
  public Optional<String> rpcLayer() {
    return rpcLayer;
  }

  /** One reading of the environment for every part. */
  @Override
  public Resolution resolve() {
    Snapshot snapshot = snapshot();
    OptionalInt id = snapshot.taskId();
    int gpus = snapshot.gpusPerTask();
    return Resolution.builder(snapshot.spec())
        .taskType(snapshot.taskType().orElse(null))
        .taskId(id.isPresent() ? id.getAsInt() : null)
        .rpcLayer(rpcLayer.orElse(null))
        .accelerators(gpus > 0 ? Map.of(GPU, gpus) : Map.of())
        .visibleDevices(autoSetGpu ? snapshot.ownDevices().orElse(null) : null)
        .build();
  }

  /**
   * The GPU ids of this process's own task (D8): under {@code --gpus-per-task} Slurm already shows
   * each task only its own GPUs, so they are {@code CUDA_VISIBLE_DEVICES}; otherwise the node's
   * visible ids ({@code CUDA_VISIBLE_DEVICES}, or {@code 0..gpus-per-node-1} when unset) are sliced
   * by local id. An empty list for CPU-only tasks. Empty when this process is not a task or
   * {@code auto-set-gpu} is false.
   */
  @Override
  public Optional<List<String>> visibleDevices() {
    if (!autoSetGpu) {
      return Optional.empty();
    }
    return snapshot().ownDevices();
  }

  private Snapshot snapshot() {
    return new Snapshot(environment.get());
  }

  /** Everything derived from one reading of the environment. */
  private final class Snapshot {
    private final Map<String, String> env;
    private final SlurmStep step;
    private final Map<String, Integer> jobSizes;

    Snapshot(Map<String, String> env) {
      this.env = env;
      this.step = SlurmStep.read(env, overrides);
      if (step.numTasks() < jobs.fixedTotal()) {
        // TensorFlow's RuntimeError (the conformance data pins it): the allocation, not only the
        // property, may be what has to change.
        throw new ClusterResolverException("Requested " + jobs.fixedTotal() + " tasks (clusterresolver.slurm.jobs="
            + jobs + ") but only " + step.numTasks() + " were assigned by Slurm (" + step.source + "): lower the"
            + " counts, use * for the job that takes the rest, or ask Slurm for more tasks");
      }
      this.jobSizes = jobs.countsFor(step.numTasks());
      gpusPerTask(); // validates the GPU configuration against the layout
    }

    ClusterSpec spec() {
      ClusterSpec.Builder builder = ClusterSpec.builder();
      int rank = 0;
      for (Map.Entry<String, Integer> job : jobSizes.entrySet()) {
        int size = job.getValue();
        if (size == 0) {
          builder.addEmptyJob(job.getKey());
          continue;
        }
        List<String> addresses = new ArrayList<>(size);
        for (int i = 0; i < size; i++, rank++) {
          addresses.add(address(rank));
        }
        builder.addJob(job.getKey(), addresses);
      }
      return builder.build();
    }

    /**
     * One task's address, computed from its rank alone: a task needs only its own (or its
     * master's) address at start-up, not the other tasks' — no need to build the whole cluster.
     */
    String address(String job, int index) {
      int first = 0;
      for (Map.Entry<String, Integer> entry : jobSizes.entrySet()) {
        if (entry.getKey().equals(job)) {
          if (index < 0 || index >= entry.getValue()) {
            throw new ConfigurationException("No task with index " + index + " in job '" + job + "'");
          }
          return address(first + index);
        }
        first += entry.getValue();
      }
      throw new ConfigurationException("No job '" + job + "' in the cluster (jobs: " + jobSizes.keySet()
          + "; set clusterresolver.slurm.jobs)");
    }

    /** The address of a rank: its node, port {@code port-base + local id}. */
    private String address(int rank) {
      String host = step.hosts.get(step.nodeOfRank[rank]);
      int port = portBase + step.localIdOfRank[rank];
      try {
        return TaskAddress.of(host, port).toString();
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException("Rank " + rank + " on node " + host + " would listen on port " + port + ": "
            + e.getMessage() + " (lower clusterresolver.slurm.port-base or the tasks per node)");
      }
    }

    /** The job and index of this process's rank, when it has one. */
    private Optional<Map.Entry<String, Integer>> ownTask() {
      if (step.procId.isEmpty()) {
        return Optional.empty();
      }
      int rank = step.procId.getAsInt();
      int first = 0;
      for (Map.Entry<String, Integer> job : jobSizes.entrySet()) {
        if (rank < first + job.getValue()) {
          return Optional.of(Map.entry(job.getKey(), rank - first));
        }
        first += job.getValue();
      }
      return Optional.empty(); // a rank left over by jobs without '*'
    }

    Optional<String> taskType() {
      return taskTypeOverride.isPresent() ? taskTypeOverride : ownTask().map(Map.Entry::getKey);
    }

    OptionalInt taskId() {
      if (taskIdOverride.isPresent()) {
        return taskIdOverride;
      }
      return ownTask().map(t -> OptionalInt.of(t.getValue())).orElse(OptionalInt.empty());
    }

    private List<String> visibleIds() {
      String value = env.get("CUDA_VISIBLE_DEVICES");
      return value == null ? null : LocalAccelerators.visibleDeviceIds(value);
    }

    /**
     * Whether Slurm bound GPUs per task, so that CUDA_VISIBLE_DEVICES lists only this task's:
     * {@code --gpus-per-task} in the step, or fewer ids visible than the node has for the step.
     */
    private boolean boundPerTask() {
      List<String> visible = visibleIds();
      if (!step.inStep || visible == null) {
        return false;
      }
      if (env.get("SLURM_GPUS_PER_TASK") != null) {
        return true;
      }
      String onNode = env.get("SLURM_GPUS_ON_NODE");
      return onNode != null && SlurmStep.parseInt("SLURM_GPUS_ON_NODE", onNode) > visible.size();
    }

    private int gpusPerNode() {
      return gpusPerNode.isPresent() ? gpusPerNode.getAsInt() : sizeOrZero(visibleIds());
    }

    /** Tasks on this process's node; the most on any node when this process is not a task. */
    private int tasksOnOwnNode() {
      if (step.procId.isPresent() && step.procId.getAsInt() >= 0 && step.procId.getAsInt() < step.numTasks()) {
        return step.tasksPerNode[step.nodeOfRank[step.procId.getAsInt()]];
      }
      return step.maxTasksPerNode();
    }

    /**
     * GPUs per task: configured; as bound by Slurm; the configured GPUs per node shared by the most
     * tasks on one node (TensorFlow's rule, for uniform nodes); or this node's visible GPUs shared
     * by its own tasks (the nodes of one step may see different numbers: --gpus=3 on two nodes).
     */
    int gpusPerTask() {
      boolean bound = boundPerTask();
      if (gpusPerTask.isPresent()) {
        int perTask = gpusPerTask.getAsInt();
        if (!bound) {
          int perNode = gpusPerNode();
          int tasks = gpusPerNode.isPresent() ? step.maxTasksPerNode() : tasksOnOwnNode();
          if ((long) perTask * tasks > perNode) {
            throw new ClusterResolverException("Requested more GPUs per node than available: "
                + "clusterresolver.slurm.gpus-per-task=" + perTask + " for " + tasks + " tasks on a node needs "
                + ((long) perTask * tasks) + " GPUs, but "
                + (gpusPerNode.isPresent() ? "clusterresolver.slurm.gpus-per-node=" : "CUDA_VISIBLE_DEVICES lists ")
                + perNode);
          }
        }
        return perTask;
      }
      if (bound) {
        return visibleIds().size();
      }
      int tasks = gpusPerNode.isPresent() ? step.maxTasksPerNode() : tasksOnOwnNode();
      return tasks == 0 ? 0 : gpusPerNode() / tasks;
    }


    Optional<List<String>> ownDevices() {
      if (step.procId.isEmpty() || step.procId.getAsInt() < 0 || step.procId.getAsInt() >= step.numTasks()) {
        return Optional.empty();
      }
      List<String> visible = visibleIds();
      if (boundPerTask()) {
        return Optional.of(List.copyOf(visible));
      }
      List<String> ids = visible;
      if (ids == null) {
        ids = new ArrayList<>();
        for (int i = 0; i < gpusPerNode(); i++) {
          ids.add(Integer.toString(i));
        }
      }
      int perTask = gpusPerTask();
      long from = (long) step.localIdOfRank[step.procId.getAsInt()] * perTask;
      int start = (int) Math.min(from, ids.size());
      int end = (int) Math.min(from + perTask, ids.size());
      return Optional.of(List.copyOf(ids.subList(start, end)));
    }
  }

  private static int sizeOrZero(List<String> list) {
    return list == null ? 0 : list.size();
  }

  @Override
  public String toString() {
    return "SlurmClusterResolver{jobs=" + jobs + ", portBase=" + portBase + "}";
  }
}
