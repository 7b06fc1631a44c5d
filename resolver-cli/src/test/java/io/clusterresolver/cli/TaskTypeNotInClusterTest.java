package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.testkit.SimulatedEc2;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 20: {@code --task-type} naming a job the cluster does not have is exit 2 naming the type and
 * the cluster's jobs, whichever provider answered and whether or not this process is a member.
 */
class TaskTypeNotInClusterTest {

  private static void rejected(CliRun run) {
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("nosuch").contains("its jobs are: worker").doesNotContain("internal error");
  }

  @Test
  void tfconfig() {
    String tfConfig = "{\"cluster\": {\"worker\": [\"w0:2222\", \"w1:2222\"]}, \"task\": {\"type\": \"worker\", \"index\": 0}}";
    rejected(CliRun.run(Map.of("TF_CONFIG", tfConfig), "resolve", "--task-type", "nosuch"));
    rejected(CliRun.run(Map.of("TF_CONFIG", tfConfig), "resolve", "--task-type", "nosuch", "--task-id", "0"));
  }

  @Test
  void slurm() {
    Map<String, String> env = Map.of("SLURM_JOB_ID", "7", "SLURM_STEP_NODELIST", "n[1-2]",
        "SLURM_STEP_TASKS_PER_NODE", "1(x2)", "SLURM_STEP_NUM_TASKS", "2", "SLURM_PROCID", "0");
    rejected(CliRun.run(env, "resolve", "--task-type", "nosuch"));
    rejected(CliRun.run(env, "resolve", "--task-type", "nosuch", "--task-id", "0"));
  }

  @Test
  void awsForAMemberAndForAProcessThatIsNone() {
    try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
      ec2.addTypical(0, 3, b -> b);
      List<String> args = new ArrayList<>(List.of("resolve", "--provider", "aws"));
      ec2.providerProperties().forEach((key, value) -> args.addAll(List.of("-D", key + "=" + value)));
      args.addAll(List.of("--task-type", "nosuch"));
      rejected(CliRun.run(Map.of(), args.toArray(new String[0]))); // this process is no instance of the fleet
      ec2.identifyAs(ec2.instances().get(1).instanceId());
      rejected(CliRun.run(Map.of(), args.toArray(new String[0])));
      args.addAll(List.of("--task-id", "0"));
      rejected(CliRun.run(Map.of(), args.toArray(new String[0])));
    }
  }
}
