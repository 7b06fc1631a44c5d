package io.clusterresolver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ConfigurationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The edges of the D8 GPU rules and of tasks-per-node (docs/tf-compatibility.md), where PIT showed
 * survivors: each expectation is worked out by hand from the environment given.
 */
class SlurmRulesEdgeTest {

  private static Map<String, String> step(String nodes, String tasksPerNode, Integer procId) {
    Map<String, String> env = new HashMap<>();
    env.put("SLURM_JOB_ID", "7");
    env.put("SLURM_STEP_ID", "0");
    env.put("SLURM_STEP_NODELIST", nodes);
    env.put("SLURM_STEP_TASKS_PER_NODE", tasksPerNode);
    if (procId != null) {
      env.put("SLURM_PROCID", procId.toString());
    }
    return env;
  }

  private static ClusterResolver slurm(Map<String, String> env, String... properties) {
    Map<String, String> p = new HashMap<>();
    for (int i = 0; i < properties.length; i += 2) {
      p.put("clusterresolver.slurm." + properties[i], properties[i + 1]);
    }
    return ClusterResolvers.create("slurm", p, env);
  }

  @Test
  void eachNodeSharesItsOwnVisibleGpusAmongItsOwnTasks() {
    // node a: 1 task (rank 0), node b: 3 tasks (ranks 1-3); each process sees 0,1,2.
    Map<String, String> rank0 = step("a,b", "1,3", 0);
    rank0.put("CUDA_VISIBLE_DEVICES", "0,1,2");
    assertThat(slurm(rank0).numAccelerators()).isEqualTo(Map.of("GPU", 3)); // 3 ids / 1 task
    assertThat(slurm(rank0).visibleDevices()).hasValue(List.of("0", "1", "2"));
    Map<String, String> rank3 = step("a,b", "1,3", 3);
    rank3.put("CUDA_VISIBLE_DEVICES", "0,1,2");
    assertThat(slurm(rank3).numAccelerators()).isEqualTo(Map.of("GPU", 1)); // 3 ids / 3 tasks
    assertThat(slurm(rank3).visibleDevices()).hasValue(List.of("2")); // local id 2
  }

  @Test
  void asManyGpusOnTheNodeAsVisibleIsNotBindingPerTask() {
    // SLURM_GPUS_ON_NODE equal to the visible ids: the node's GPUs, shared by its 2 tasks.
    Map<String, String> env = step("a", "2", 1);
    env.put("CUDA_VISIBLE_DEVICES", "4,5");
    env.put("SLURM_GPUS_ON_NODE", "2");
    assertThat(slurm(env).visibleDevices()).hasValue(List.of("5"));
    assertThat(slurm(env).numAccelerators()).isEqualTo(Map.of("GPU", 1));
    // one more on the node than visible: Slurm bound them to this task
    env.put("SLURM_GPUS_ON_NODE", "3");
    assertThat(slurm(env).visibleDevices()).hasValue(List.of("4", "5"));
    assertThat(slurm(env).numAccelerators()).isEqualTo(Map.of("GPU", 2));
  }

  @Test
  void gpusPerTaskMayFillTheNodeExactlyButNotMore() {
    Map<String, String> env = step("a,b", "3,1", 1);
    env.put("CUDA_VISIBLE_DEVICES", "0,1,2,3,4,5");
    // 2 per task x 3 tasks on a = 6 = the 6 visible ids
    assertThat(slurm(env, "gpus-per-task", "2").visibleDevices()).hasValue(List.of("2", "3"));
    assertThat(slurm(env, "gpus-per-task", "2").numAccelerators()).isEqualTo(Map.of("GPU", 2));
    assertThatThrownBy(() -> slurm(env, "gpus-per-task", "3")).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("9 GPUs").hasMessageContaining("6");
    // rank 3 is alone on b: 6 per task fits there
    Map<String, String> alone = step("a,b", "3,1", 3);
    alone.put("CUDA_VISIBLE_DEVICES", "0,1,2,3,4,5");
    assertThat(slurm(alone, "gpus-per-task", "6").numAccelerators()).isEqualTo(Map.of("GPU", 6));
    // with gpus-per-node the most tasks on a node count (a: 3), for every rank
    assertThatThrownBy(() -> slurm(alone, "gpus-per-task", "3", "gpus-per-node", "8"))
        .isInstanceOf(ClusterResolverException.class).hasMessageContaining("gpus-per-node=8");
  }

  @Test
  void boundGpusAreTheTasksWhateverTheCount() {
    Map<String, String> env = step("a", "2", 1);
    env.put("CUDA_VISIBLE_DEVICES", "7");
    env.put("SLURM_GPUS_PER_TASK", "1");
    assertThat(slurm(env).numAccelerators()).isEqualTo(Map.of("GPU", 1));
    assertThat(slurm(env).visibleDevices()).hasValue(List.of("7"));
  }

  @Test
  void theLastRankHasDevicesAndAProcessOutsideTheStepHasNone() {
    Map<String, String> last = step("a", "2", 1);
    last.put("CUDA_VISIBLE_DEVICES", "0,1");
    assertThat(slurm(last).visibleDevices()).hasValue(List.of("1"));
    Map<String, String> noTask = step("a,b", "1,3", null);
    noTask.put("CUDA_VISIBLE_DEVICES", "0,1,2");
    // not a task: no devices of its own; GPUs per task by the most tasks on a node (3)
    assertThat(slurm(noTask).visibleDevices()).isEqualTo(Optional.empty());
    assertThat(slurm(noTask).numAccelerators()).isEqualTo(Map.of("GPU", 1));
  }

  @Test
  void tasksPerNodeAcceptsEveryDigitUpTo65535() {
    Map<String, String> env = step("n1", "1", 0);
    assertThat(slurm(env, "tasks-per-node", "90").clusterSpec().numTasks("worker")).isEqualTo(90);
    assertThat(slurm(env, "tasks-per-node", "n1:19", "port-base", "1000").clusterSpec().numTasks("worker"))
        .isEqualTo(19);
    assertThat(slurm(env, "tasks-per-node", "65535", "port-base", "1").clusterSpec().numTasks("worker"))
        .isEqualTo(65535);
    assertThat(slurm(env, "tasks-per-node", "0065535", "port-base", "1").clusterSpec().numTasks("worker"))
        .isEqualTo(65535);
    for (String tooMany : new String[] {"65536", "100000", "n1:65536"}) {
      assertThatThrownBy(() -> slurm(env, "tasks-per-node", tooMany)).as(tooMany)
          .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.slurm.tasks-per-node");
    }
  }
}
