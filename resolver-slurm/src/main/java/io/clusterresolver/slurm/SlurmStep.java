package io.clusterresolver.slurm;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.ClusterResolverException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One process's view of its Slurm step, read from the environment alone: the nodes in Slurm's
 * order, the tasks of each node, where each rank runs, and which rank this process is.
 *
 * <p>Inside a step ({@code srun}) the step variables are used. Outside a step — in a batch script
 * or an salloc shell — the job-level variables are (D10); for a heterogeneous job the components'
 * {@code *_HET_GROUP_<n>} variables are joined in component order, as {@code srun
 * --het-group=0,1,...} numbers its ranks.
 */
final class SlurmStep {

  /** Host names in Slurm's node-list order (never sorted). */
  final List<String> hosts;
  /** Tasks on each host. */
  final int[] tasksPerNode;
  final int[] nodeOfRank;
  final int[] localIdOfRank;
  /** This process's rank, when it is a task (SLURM_PROCID). */
  final OptionalInt procId;
  /** Whether this process runs inside a job step (not a batch script or salloc shell). */
  final boolean inStep;
  /** The variables the layout was read from, for messages. */
  final String source;

  private SlurmStep(List<String> hosts, int[] tasksPerNode, Distribution distribution, OptionalInt procId,
      boolean inStep, String source) {
    this.hosts = hosts;
    this.tasksPerNode = tasksPerNode;
    int total = 0;
    for (int n : tasksPerNode) {
      total += n;
    }
    this.nodeOfRank = new int[total];
    this.localIdOfRank = new int[total];
    distribution.place(tasksPerNode, nodeOfRank, localIdOfRank);
    this.procId = procId;
    this.inStep = inStep;
    this.source = source;
  }

  int numTasks() {
    return nodeOfRank.length;
  }

  int maxTasksPerNode() {
    int max = 0;
    for (int n : tasksPerNode) {
      max = Math.max(max, n);
    }
    return max;
  }

  /**
   * How the resolver's properties override the environment's layout.
   *
   * @param tasksPerNodeEverywhere tasks on every node, or -1
   * @param tasksPerHost explicit hosts with their tasks, in the given order; empty when not given
   */
  record Overrides(int tasksPerNodeEverywhere, Map<String, Integer> tasksPerHost) {

    boolean any() {
      return tasksPerNodeEverywhere >= 0 || !tasksPerHost.isEmpty();
    }
  }

  /**
   * Reads the step from environment variables.
   *
   * @throws ClusterResolverException when required variables are missing or contradict each other
   * @throws IllegalArgumentException when a variable's value is malformed
   */
  static SlurmStep read(Map<String, String> env, Overrides overrides) {
    OptionalInt procId = optionalInt(env, "SLURM_PROCID");
    boolean inStep = env.get("SLURM_STEP_NODELIST") != null || env.get("SLURM_STEP_ID") != null;
    String heterogeneous = env.get("SLURM_HET_SIZE");

    List<String> hosts;
    List<Integer> counts;
    String source;
    String numTasksVariable;
    Integer numTasks;
    if (!overrides.tasksPerHost().isEmpty()) {
      hosts = new ArrayList<>(overrides.tasksPerHost().keySet());
      counts = new ArrayList<>(overrides.tasksPerHost().values());
      source = "clusterresolver.slurm.tasks-per-node";
      numTasksVariable = inStep || env.get("SLURM_JOB_NODELIST") == null ? "SLURM_STEP_NUM_TASKS" : "SLURM_NTASKS";
      numTasks = optionalInteger(env, numTasksVariable);
    } else if (!inStep && heterogeneous != null && env.get("SLURM_JOB_NODELIST") != null) {
      int components = parseInt("SLURM_HET_SIZE", heterogeneous);
      hosts = new ArrayList<>();
      counts = new ArrayList<>();
      int total = 0;
      for (int group = 0; group < components; group++) {
        String nodeVar = "SLURM_JOB_NODELIST_HET_GROUP_" + group;
        String tasksVar = "SLURM_TASKS_PER_NODE_HET_GROUP_" + group;
        String ntasksVar = "SLURM_NTASKS_HET_GROUP_" + group;
        List<String> groupHosts = expandHosts(nodeVar, require(env, nodeVar, "heterogeneous job component " + group));
        List<Integer> groupCounts = overrides.tasksPerNodeEverywhere() >= 0
            ? repeat(overrides.tasksPerNodeEverywhere(), groupHosts.size())
            : expandTasks(tasksVar, require(env, tasksVar, "heterogeneous job component " + group));
        checkSameLength(nodeVar, groupHosts, tasksVar, groupCounts);
        Integer groupTasks = optionalInteger(env, ntasksVar);
        int groupSum = sum(groupCounts);
        if (groupTasks != null && groupTasks != groupSum && overrides.tasksPerNodeEverywhere() < 0) {
          throw new ClusterResolverException(ntasksVar + "=" + groupTasks + " but " + tasksVar + "="
              + env.get(tasksVar) + " assigns " + groupSum + " tasks");
        }
        hosts.addAll(groupHosts);
        counts.addAll(groupCounts);
        total += groupSum;
      }
      source = "SLURM_JOB_NODELIST_HET_GROUP_<n> and SLURM_TASKS_PER_NODE_HET_GROUP_<n> (n < " + components + ")";
      numTasksVariable = null;
      numTasks = total;
    } else {
      String nodeVar = inStep ? "SLURM_STEP_NODELIST" : "SLURM_JOB_NODELIST";
      String tasksVar = inStep ? "SLURM_STEP_TASKS_PER_NODE" : "SLURM_TASKS_PER_NODE";
      numTasksVariable = inStep ? "SLURM_STEP_NUM_TASKS" : "SLURM_NTASKS";
      String nodelist = env.get(nodeVar);
      if (nodelist == null) {
        throw new ClusterResolverException("Neither SLURM_STEP_NODELIST nor SLURM_JOB_NODELIST is set:"
            + " not running inside a Slurm job (start the program with srun or sbatch)");
      }
      hosts = expandHosts(nodeVar, nodelist);
      if (overrides.tasksPerNodeEverywhere() >= 0) {
        counts = repeat(overrides.tasksPerNodeEverywhere(), hosts.size());
        source = nodeVar + " and clusterresolver.slurm.tasks-per-node";
      } else {
        String tasks = env.get(tasksVar);
        if (tasks == null) {
          throw new ClusterResolverException(tasksVar + " is not set although " + nodeVar + " is: not"
              + " running inside a Slurm step? Set clusterresolver.slurm.tasks-per-node to give the tasks"
              + " per node yourself");
        }
        counts = expandTasks(tasksVar, tasks);
        source = nodeVar + "=" + nodelist + " and " + tasksVar + "=" + tasks;
      }
      checkSameLength(nodeVar, hosts, tasksVar, counts);
      numTasks = optionalInteger(env, numTasksVariable);
    }
    if (hosts.isEmpty()) {
      throw new ClusterResolverException("The Slurm node list is empty (" + source + ")");
    }
    Set<String> distinct = new HashSet<>(hosts);
    if (distinct.size() != hosts.size()) {
      throw new ClusterResolverException("The Slurm node list names a node twice (" + source
          + "): two tasks would get the same address");
    }
    int sum = sum(counts);
    if (numTasks != null && numTasks != sum && overrides.any()) {
      // The property, not Slurm, is what disagrees: the user changes it.
      throw new ConfigurationException("clusterresolver.slurm.tasks-per-node gives " + sum + " tasks in all ("
          + source + ") but Slurm started " + numTasks + " (" + numTasksVariable + "): change the property to"
          + " match, or unset it to use Slurm's own tasks per node");
    }
    if (numTasks != null && numTasks != sum) {
      throw new ClusterResolverException("Requested " + numTasks + " tasks (" + numTasksVariable + ") but "
          + source + " assigns " + sum);
    }
    Distribution distribution = inStep
        ? Distribution.parse(env.get("SLURM_DISTRIBUTION"), env.get("SLURM_DIST_PLANESIZE"))
        : Distribution.BLOCK;
    int[] perNode = counts.stream().mapToInt(Integer::intValue).toArray();
    SlurmStep step = new SlurmStep(List.copyOf(hosts), perNode, distribution, procId, inStep,
        source + ", distribution " + distribution);
    if (!overrides.any()) {
      step.checkOwnPlacement(env);
    }
    return step;
  }

  /**
   * A process must find itself where Slurm says it runs: otherwise the rank map every process
   * computes would be wrong, so it is an error rather than a silently wrong cluster.
   */
  private void checkOwnPlacement(Map<String, String> env) {
    if (procId.isEmpty()) {
      return;
    }
    int rank = procId.getAsInt();
    if (rank < 0 || rank >= numTasks()) {
      throw new ClusterResolverException("SLURM_PROCID=" + rank + " is outside the " + numTasks()
          + " tasks of " + source);
    }
    String nodeName = env.get("SLURMD_NODENAME");
    String host = hosts.get(nodeOfRank[rank]);
    if (nodeName != null && !nodeName.equals(host)) {
      throw new ClusterResolverException("SLURM_PROCID=" + rank + " runs on SLURMD_NODENAME=" + nodeName
          + ", but " + source + " places it on " + host);
    }
    OptionalInt localId = optionalInt(env, "SLURM_LOCALID");
    if (localId.isPresent() && localId.getAsInt() != localIdOfRank[rank]) {
      throw new ClusterResolverException("SLURM_PROCID=" + rank + " has SLURM_LOCALID=" + localId.getAsInt()
          + ", but " + source + " gives it local id " + localIdOfRank[rank]);
    }
  }

  private static List<String> expandHosts(String variable, String value) {
    try {
      return Hostlist.expand(value);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(variable + ": " + e.getMessage(), e);
    }
  }

  private static List<Integer> expandTasks(String variable, String value) {
    try {
      return TasksPerNode.expand(value);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException(variable + ": " + e.getMessage(), e);
    }
  }

  private static void checkSameLength(String nodeVar, List<String> hosts, String tasksVar, List<Integer> counts) {
    if (hosts.size() != counts.size()) {
      throw new ClusterResolverException(nodeVar + " lists " + hosts.size() + " nodes but " + tasksVar
          + " gives tasks for " + counts.size());
    }
  }

  private static List<Integer> repeat(int value, int times) {
    List<Integer> list = new ArrayList<>(times);
    for (int i = 0; i < times; i++) {
      list.add(value);
    }
    return list;
  }

  private static int sum(List<Integer> counts) {
    long sum = 0;
    for (int c : counts) {
      sum += c;
    }
    if (sum > TasksPerNode.MAX_NODES * 64L) {
      throw new ClusterResolverException("The Slurm step has too many tasks: " + sum);
    }
    return (int) sum;
  }

  private static String require(Map<String, String> env, String variable, String what) {
    String value = env.get(variable);
    if (value == null) {
      throw new ClusterResolverException(variable + " is not set: it describes " + what);
    }
    return value;
  }

  static OptionalInt optionalInt(Map<String, String> env, String variable) {
    String value = env.get(variable);
    return value == null ? OptionalInt.empty() : OptionalInt.of(parseInt(variable, value));
  }

  private static Integer optionalInteger(Map<String, String> env, String variable) {
    String value = env.get(variable);
    return value == null ? null : parseInt(variable, value);
  }

  static int parseInt(String variable, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new ConfigurationException(variable + "='" + value + "' is not an integer");
    }
  }
}
