package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 9, defect 10: a Slurm setting the user must change is exit 2 naming the key or variable; exit 3
 * is kept only where TensorFlow's conformance vectors pin a RuntimeError (docs/tf-compatibility.md,
 * "Exit codes of Slurm mistakes").
 */
class SlurmExitCodesTest {

  /** Two nodes with one task each, as {@code srun -N2 -n2} shows them. */
  private static Map<String, String> twoTasks() {
    Map<String, String> env = new HashMap<>();
    env.put("SLURM_JOB_ID", "7");
    env.put("SLURM_STEP_ID", "0");
    env.put("SLURM_STEP_NODELIST", "n[1-2]");
    env.put("SLURM_STEP_TASKS_PER_NODE", "1(x2)");
    env.put("SLURM_STEP_NUM_TASKS", "2");
    env.put("SLURM_PROCID", "0");
    return env;
  }

  @Test
  void aTaskCountPastAnyNodesPortsIsExit2NamingTheKey() {
    for (String value : new String[] {"2147483647", "65536", "n1:2147483648", "99999999999999999999"}) {
      CliRun run = CliRun.run(twoTasks(), "resolve", "--provider", "slurm",
          "-Dclusterresolver.slurm.tasks-per-node=" + value);
      assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
      assertThat(run.err).as("%s", run).contains("clusterresolver.slurm.tasks-per-node").contains("65535")
          .doesNotContain("Exception").doesNotContain("\tat ");
    }
  }

  @Test
  void theLargestTaskCountStillResolves() {
    // 65535 tasks on n1 alone need ports 1..65535: port-base 1 makes that fit exactly.
    Map<String, String> env = twoTasks();
    env.remove("SLURM_STEP_NUM_TASKS");
    CliRun run = CliRun.run(env, "resolve", "--provider", "slurm", "--format", "hostfile",
        "-Dclusterresolver.slurm.tasks-per-node=n1:65535", "-Dclusterresolver.slurm.port-base=1");
    assertThat(run.code).as("%s", run.err).isEqualTo(ExitCodes.OK);
    assertThat(run.out.strip()).isEqualTo("n1 slots=65535");
  }

  @Test
  void tasksPerNodeThatDisagreesWithSlurmsTaskCountIsExit2NamingTheKey() {
    CliRun run = CliRun.run(twoTasks(), "resolve", "--provider", "slurm",
        "-Dclusterresolver.slurm.tasks-per-node=3");
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    // 2 nodes x 3 = 6 tasks against SLURM_STEP_NUM_TASKS=2
    assertThat(run.err).contains("clusterresolver.slurm.tasks-per-node").contains("6 tasks")
        .contains("SLURM_STEP_NUM_TASKS").doesNotContain("\tat ");
  }

  @Test
  void moreTasksInJobsThanSlurmAssignedNamesTheKeyAndStaysTensorFlowsRuntimeError() {
    // slurm/errors/task-count-mismatch pins TensorFlow's RuntimeError (ClusterResolverException, exit 3).
    CliRun run = CliRun.run(twoTasks(), "resolve", "--provider", "slurm", "-Dclusterresolver.slurm.jobs=ps:5");
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
    assertThat(run.err).contains("clusterresolver.slurm.jobs=ps:5").contains("only 2").doesNotContain("\tat ");
  }

  @Test
  void aMalformedNodeListIsExit2NamingTheVariable() {
    Map<String, String> env = twoTasks();
    env.put("SLURM_STEP_NODELIST", "n[1-2 ]"); // scontrol: "Invalid range: `1-2 '"
    CliRun run = CliRun.run(env, "resolve", "--provider", "slurm");
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err).contains("SLURM_STEP_NODELIST").contains("n[1-2 ]").doesNotContain("\tat ");
  }

  @Test
  void fewerCountsThanHostsNamesBothVariablesWithoutATrace() {
    Map<String, String> env = twoTasks();
    env.put("SLURM_STEP_TASKS_PER_NODE", "2");
    CliRun run = CliRun.run(env, "resolve", "--provider", "slurm");
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
    assertThat(run.err).contains("SLURM_STEP_NODELIST lists 2 nodes").contains("SLURM_STEP_TASKS_PER_NODE")
        .doesNotContain("IndexOutOfBounds").doesNotContain("\tat ");
  }
}
