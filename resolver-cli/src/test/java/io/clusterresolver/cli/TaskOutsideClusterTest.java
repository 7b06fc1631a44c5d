package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A task this process claims must be in the cluster printed next to it, for every provider. */
class TaskOutsideClusterTest {

  private static final String TF_CONFIG =
      "{\"cluster\": {\"worker\": [\"w0:2222\", \"w1:2222\"]}, \"task\": {\"type\": \"worker\", \"index\": 0}}";

  @Test
  void tfconfigWithATaskIdOverrideOutsideTheCluster() {
    CliRun run = CliRun.run(Map.of("TF_CONFIG", TF_CONFIG), "resolve", "--task-id", "99");
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err).contains("task index 99").contains("job 'worker'").contains("[0, 1]");
  }

  @Test
  void tfconfigWhoseOwnIndexIsOutsideItsCluster() {
    CliRun run = CliRun.run(Map.of("TF_CONFIG", TF_CONFIG.replace("\"index\": 0", "\"index\": 5")), "resolve");
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err).contains("task index 5");
  }

  @Test
  void slurmWithATaskIdOverrideOutsideTheStep() {
    Map<String, String> env = Map.of("SLURM_JOB_ID", "7", "SLURM_STEP_NODELIST", "n[1-2]",
        "SLURM_STEP_TASKS_PER_NODE", "1(x2)", "SLURM_STEP_NUM_TASKS", "2", "SLURM_PROCID", "0");
    CliRun run = CliRun.run(env, "resolve", "--task-id", "99");
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err).contains("task index 99").contains("clusterresolver.slurm.task-id");
  }

  @Test
  void anAddressThatWouldBreakAHostfileIsRejectedNamingJobAndIndex() {
    for (String address : new String[] {"a\\nb:1", "a b:1", "fd00::1:80"}) {
      String tfConfig = "{\"cluster\": {\"worker\": [\"w0:2222\", \"" + address + "\"]},"
          + " \"task\": {\"type\": \"worker\", \"index\": 0}}";
      CliRun run = CliRun.run(Map.of("TF_CONFIG", tfConfig), "resolve", "--format", "hostfile");
      assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
      assertThat(run.out).isEmpty();
      assertThat(run.err).contains("Task 1 of job 'worker'");
    }
  }
}
