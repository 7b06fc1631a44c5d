package io.clusterresolver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class SlurmClusterResolverTest {

  private static Map<String, String> step(String nodes, String tasksPerNode, int procId) {
    Map<String, String> env = new HashMap<>();
    env.put("SLURM_JOB_ID", "7");
    env.put("SLURM_STEP_ID", "0");
    env.put("SLURM_STEP_NODELIST", nodes);
    env.put("SLURM_STEP_TASKS_PER_NODE", tasksPerNode);
    env.put("SLURM_PROCID", Integer.toString(procId));
    return env;
  }

  private static ClusterResolver slurm(Map<String, String> env) {
    return slurm(Map.of(), env);
  }

  private static ClusterResolver slurm(Map<String, String> properties, Map<String, String> env) {
    return ClusterResolvers.create("slurm", properties, env);
  }

  @Test
  void hostsKeepSlurmsOrderNotStringOrder() {
    ClusterResolver resolver = slurm(step("n[8-11]", "1(x4)", 2));
    assertThat(resolver.clusterSpec().jobTasks("worker"))
        .containsExactly("n8:8888", "n9:8888", "n10:8888", "n11:8888");
    assertThat(resolver.master()).isEqualTo("grpc://n10:8888");
  }

  @Test
  void blockDistributionFillsNodesAndPortsFollowTheLocalId() {
    ClusterResolver resolver = slurm(step("node[1-3]", "4,2,1", 5));
    assertThat(resolver.clusterSpec().jobTasks("worker")).containsExactly(
        "node1:8888", "node1:8889", "node1:8890", "node1:8891", "node2:8888", "node2:8889", "node3:8888");
    assertThat(resolver.taskId()).hasValue(5);
  }

  @Test
  void cyclicDistributionGoesRoundRobinOverNodesWithTasksLeft() {
    Map<String, String> env = step("node[1-3]", "3,1,2", 0);
    env.put("SLURM_DISTRIBUTION", "cyclic");
    assertThat(slurm(env).clusterSpec().jobTasks("worker")).containsExactly(
        "node1:8888", "node2:8888", "node3:8888", "node1:8889", "node3:8889", "node1:8890");
    env.put("SLURM_DISTRIBUTION", "cyclic:block,pack");
    assertThat(slurm(env).clusterSpec().taskAddress("worker", 3)).isEqualTo("node1:8889");
  }

  @Test
  void planeDistributionPlacesBlocksOfPlaneSize() {
    Map<String, String> env = step("a,b", "3,3", 0);
    env.put("SLURM_DISTRIBUTION", "plane");
    env.put("SLURM_DIST_PLANESIZE", "2");
    assertThat(slurm(env).clusterSpec().jobTasks("worker"))
        .containsExactly("a:8888", "a:8889", "b:8888", "b:8889", "a:8890", "b:8890");
    env.remove("SLURM_DIST_PLANESIZE");
    assertThatThrownBy(() -> slurm(env)).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("SLURM_DIST_PLANESIZE");
  }

  @Test
  void anArbitraryLayoutIsAClearError() {
    Map<String, String> env = step("a,b", "1,1", 0);
    env.put("SLURM_DISTRIBUTION", "arbitrary");
    assertThatThrownBy(() -> slurm(env)).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("SLURM_DISTRIBUTION=arbitrary");
  }

  @Test
  void inconsistentVariablesAreNamed() {
    Map<String, String> env = step("node[1-2]", "2(x2)", 1);
    env.put("SLURMD_NODENAME", "node2");
    assertThatThrownBy(() -> slurm(env)).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("SLURMD_NODENAME=node2").hasMessageContaining("SLURM_PROCID=1");
    env.put("SLURMD_NODENAME", "node1");
    env.put("SLURM_LOCALID", "0");
    assertThatThrownBy(() -> slurm(env)).hasMessageContaining("SLURM_LOCALID=0");
    env.put("SLURM_LOCALID", "1");
    assertThat(slurm(env).master()).isEqualTo("grpc://node1:8889");

    Map<String, String> mismatch = step("node[1-2]", "2(x2)", 0);
    mismatch.put("SLURM_STEP_NUM_TASKS", "5");
    assertThatThrownBy(() -> slurm(mismatch)).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("SLURM_STEP_NUM_TASKS").hasMessageContaining("5");
    assertThatThrownBy(() -> slurm(step("n1,n1", "1,2", 0))).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("twice");
    assertThatThrownBy(() -> slurm(step("n[1-3]", "1,1", 0))).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("SLURM_STEP_TASKS_PER_NODE");
    assertThatThrownBy(() -> slurm(step("n[1-3]", "1(2)", 0))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SLURM_STEP_TASKS_PER_NODE");
    Map<String, String> badRank = step("n1", "1", 0);
    badRank.put("SLURM_PROCID", "abc");
    assertThatThrownBy(() -> slurm(badRank)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SLURM_PROCID='abc'");
    assertThatThrownBy(() -> slurm(Map.of("SLURM_JOB_ID", "1"))).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("SLURM_STEP_NODELIST");
  }

  @Test
  void theEnvironmentIsReadAgainOnEveryCall() {
    Map<String, String> env = new HashMap<>(step("n[1-2]", "1(x2)", 0));
    SlurmClusterResolver resolver = new SlurmClusterResolver(() -> Map.copyOf(env),
        io.clusterresolver.cloud.JobAssignment.parseCounts("worker:*"), 8888, new SlurmStep.Overrides(-1, Map.of()), OptionalInt.empty(),
        OptionalInt.empty(), Optional.of("grpc"), Optional.empty(), OptionalInt.empty(), true);
    assertThat(resolver.clusterSpec().numTasks("worker")).isEqualTo(2);
    env.put("SLURM_STEP_NODELIST", "n[1-3]");
    env.put("SLURM_STEP_TASKS_PER_NODE", "1(x3)");
    assertThat(resolver.clusterSpec().jobTasks("worker")).containsExactly("n1:8888", "n2:8888", "n3:8888");
    env.put("SLURM_PROCID", "2");
    assertThat(resolver.master()).isEqualTo("grpc://n3:8888");
  }

  @Test
  void outsideAStepTheJobLevelVariablesAreUsed() {
    // D10: a batch script has no step variables.
    Map<String, String> env = new HashMap<>(Map.of(
        "SLURM_JOB_ID", "3", "SLURM_JOB_NODELIST", "node[1-2]", "SLURM_TASKS_PER_NODE", "3,1",
        "SLURM_NTASKS", "4", "SLURM_PROCID", "0", "SLURMD_NODENAME", "node1", "SLURM_LOCALID", "0"));
    ClusterResolver resolver = slurm(env);
    assertThat(resolver.clusterSpec().jobTasks("worker"))
        .containsExactly("node1:8888", "node1:8889", "node1:8890", "node2:8888");
    assertThat(resolver.master()).isEqualTo("grpc://node1:8888");
    env.remove("SLURM_PROCID");
    assertThat(slurm(env).master()).isEmpty(); // an salloc shell is no task
  }

  @Test
  void aHeterogeneousBatchScriptSeesEveryComponent() {
    Map<String, String> env = new HashMap<>();
    env.put("SLURM_JOB_ID", "31");
    env.put("SLURM_HET_SIZE", "2");
    env.put("SLURM_JOB_NODELIST", "node1");
    env.put("SLURM_TASKS_PER_NODE", "1");
    env.put("SLURM_JOB_NODELIST_HET_GROUP_0", "node1");
    env.put("SLURM_TASKS_PER_NODE_HET_GROUP_0", "1");
    env.put("SLURM_NTASKS_HET_GROUP_0", "1");
    env.put("SLURM_JOB_NODELIST_HET_GROUP_1", "node[2-3]");
    env.put("SLURM_TASKS_PER_NODE_HET_GROUP_1", "3,1");
    env.put("SLURM_NTASKS_HET_GROUP_1", "4");
    env.put("SLURM_PROCID", "0");
    assertThat(slurm(env).clusterSpec().jobTasks("worker"))
        .containsExactly("node1:8888", "node2:8888", "node2:8889", "node2:8890", "node3:8888");
    env.remove("SLURM_TASKS_PER_NODE_HET_GROUP_1");
    assertThatThrownBy(() -> slurm(env)).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("SLURM_TASKS_PER_NODE_HET_GROUP_1");
  }

  @Test
  void jobsTakeConsecutiveRanksInNameOrder() {
    ClusterResolver resolver = slurm(Map.of("clusterresolver.slurm.jobs", "worker:4,ps:2,chief:1"),
        step("n[1-3],gpu-01", "2(x3),1", 4));
    assertThat(resolver.clusterSpec().asMap()).isEqualTo(Map.of(
        "chief", List.of("n1:8888"), "ps", List.of("n1:8889", "n2:8888"),
        "worker", List.of("n2:8889", "n3:8888", "n3:8889", "gpu-01:8888")));
    assertThat(resolver.taskType()).contains("worker");
    assertThat(resolver.taskId()).hasValue(1);

    ClusterResolver rest = slurm(Map.of("clusterresolver.slurm.jobs", "ps:1,worker:*,evaluator:0"), step("a", "3", 0));
    assertThat(rest.clusterSpec().asMap()).isEqualTo(Map.of(
        "evaluator", Map.of(), "ps", List.of("a:8888"), "worker", List.of("a:8889", "a:8890")));
    assertThat(rest.taskType()).contains("ps");

    assertThatThrownBy(() -> slurm(Map.of("clusterresolver.slurm.jobs", "worker:3"), step("a", "2", 0)))
        .isInstanceOf(ClusterResolverException.class).hasMessageContaining("Requested 3 tasks");
  }

  @Test
  void propertiesOverrideTaskAndScheme() {
    // D9: known before clusterSpec(), and a value the caller set wins.
    ClusterResolver resolver = slurm(Map.of("clusterresolver.slurm.task-type", "worker",
        "clusterresolver.slurm.task-id", "1", "clusterresolver.slurm.rpc-layer", "",
        "clusterresolver.slurm.port-base", "9000"), step("a,b", "1,1", 0));
    assertThat(resolver.master()).isEqualTo("b:9000");
    assertThat(resolver.master("worker", 0, "ab")).isEqualTo("ab://a:9000");
    assertThat(resolver.rpcLayer()).isEmpty();
    assertThatThrownBy(() -> resolver.master("worker", 5, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("worker");
  }

  @Test
  void tasksPerNodeCanBeGivenAsACountOrPerHost() {
    Map<String, String> env = new HashMap<>(Map.of("SLURM_JOB_ID", "1", "SLURM_PROCID", "3",
        "SLURM_STEP_NUM_TASKS", "4", "SLURM_STEP_NODELIST", "a,b"));
    assertThat(slurm(Map.of("clusterresolver.slurm.tasks-per-node", "2"), env).master())
        .isEqualTo("grpc://b:8889");
    assertThat(slurm(Map.of("clusterresolver.slurm.tasks-per-node", "hostB:3,hostA:1"), env)
        .clusterSpec().jobTasks("worker")).containsExactly("hostB:8888", "hostB:8889", "hostB:8890", "hostA:8888");
  }

  @Test
  void allConfigurationProblemsAreReportedAtOnce() {
    assertThatThrownBy(() -> slurm(Map.of("clusterresolver.slurm.jobs", "ps:x",
        "clusterresolver.slurm.tasks-per-node", "a:b:"), step("a", "1", 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clusterresolver.slurm.jobs").hasMessageContaining("clusterresolver.slurm.tasks-per-node");
  }

  @Test
  void gpusAreTheIdsActuallyVisible() {
    // D8: visible 4,5 shared by two tasks: rank 0 gets 4, rank 1 gets 5.
    Map<String, String> env = step("n1", "2", 1);
    env.put("CUDA_VISIBLE_DEVICES", "4,5");
    ClusterResolver resolver = slurm(env);
    assertThat(resolver.visibleDevices()).contains(List.of("5"));
    assertThat(resolver.numAccelerators()).isEqualTo(Map.of("GPU", 1));
    assertThat(slurm(Map.of("clusterresolver.slurm.auto-set-gpu", "false"), env).visibleDevices()).isEmpty();

    env.put("CUDA_VISIBLE_DEVICES", ""); // empty means none (TF counts one)
    assertThat(slurm(env).visibleDevices()).contains(List.of());
    assertThat(slurm(env).numAccelerators()).isEmpty();
    env.remove("CUDA_VISIBLE_DEVICES"); // CPU-only allocation works
    assertThat(slurm(env).numAccelerators()).isEmpty();
    assertThat(slurm(Map.of("clusterresolver.slurm.gpus-per-node", "4"), env).visibleDevices())
        .contains(List.of("2", "3"));

    // --gpus-per-task: Slurm shows each task only its own GPU.
    Map<String, String> bound = step("n[1-2]", "3,1", 1);
    bound.put("CUDA_VISIBLE_DEVICES", "1");
    bound.put("SLURM_GPUS_ON_NODE", "3");
    assertThat(slurm(bound).visibleDevices()).contains(List.of("1"));
    assertThat(slurm(bound).numAccelerators()).isEqualTo(Map.of("GPU", 1));

    assertThatThrownBy(() -> slurm(Map.of("clusterresolver.slurm.gpus-per-node", "2",
        "clusterresolver.slurm.gpus-per-task", "2"), step("n[1-2]", "2(x2)", 0)))
        .isInstanceOf(ClusterResolverException.class).hasMessageContaining("more GPUs");
  }

  @Test
  void theProviderIsFoundAndDetectedBySlurmJobId() {
    ClusterResolverProvider provider = ClusterResolvers.provider("slurm");
    assertThat(provider).isInstanceOf(SlurmClusterResolverProvider.class);
    assertThat(provider.priority()).isEqualTo(300);
    assertThat(provider.isAvailable(ResolverContext.of(PropertySources.withEnvironment(Map.of(),
        Map.of("SLURM_JOB_ID", "12"))))).isTrue();
    assertThat(provider.isAvailable(ResolverContext.of(PropertySources.withEnvironment(Map.of(), Map.of()))))
        .isFalse();
  }
}
