package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clusterresolver.testkit.SimulatedEc2;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code resolve --wait}: a fleet that grows while the command waits for it. */
class WaitCommandTest {

  private static String[] args(SimulatedEc2 ec2, String... more) {
    List<String> args = new ArrayList<>(List.of("resolve", "--provider", "aws"));
    ec2.providerProperties().forEach((key, value) -> args.addAll(List.of("-D", key + "=" + value)));
    args.addAll(List.of(more));
    return args.toArray(new String[0]);
  }

  @Test
  void waitsForTheFleetToGrowThenPrintsTheWholeCluster() throws Exception {
    try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
      ec2.addTypical(0, 2, b -> b);
      CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(
          () -> CliRun.run(Map.of(), args(ec2, "--wait", "30s", "--min-tasks", "5")));
      // Grow the fleet only once the command has seen the small one (bounded: at most 10 s).
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (ec2.callCount("DescribeInstances") < 2 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      ec2.addTypical(2, 3, b -> b);
      CliRun done = run.get(30, TimeUnit.SECONDS);

      assertThat(done.code).as("%s", done).isZero();
      JsonNode json = new ObjectMapper().readTree(done.out);
      assertThat(json.at("/cluster/worker")).hasSize(5);
      assertThat(done.err.lines().filter(l -> l.contains("2 of 5 tasks")).count()).isGreaterThanOrEqualTo(2);
      assertThat(done.err).contains("5 of 5 tasks");
    }
  }

  @Test
  void pastTheDeadlineItIsExit3SayingWhatItSaw() {
    try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
      ec2.addTypical(0, 2, b -> b);
      CliRun run = CliRun.run(Map.of(), args(ec2, "--wait", "300ms", "--min-tasks", "3"));
      assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
      assertThat(run.out).isEmpty();
      assertThat(run.err).contains("did not reach 3 tasks").contains("saw 2 tasks");
    }
  }

  @Test
  void minTasksWithoutWaitChecksTheOneListing() {
    try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
      ec2.addTypical(0, 2, b -> b);
      CliRun tooFew = CliRun.run(Map.of(), args(ec2, "--min-tasks", "3"));
      assertThat(tooFew.code).as("%s", tooFew).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
      assertThat(tooFew.out).isEmpty();
      assertThat(tooFew.err).contains("has 2 task(s), fewer than --min-tasks 3").contains("--wait");
      CliRun enough = CliRun.run(Map.of(), args(ec2, "--min-tasks", "2"));
      assertThat(enough.code).as("%s", enough).isZero();
      assertThat(ec2.callCount("DescribeInstances")).isEqualTo(2);
    }
  }

  @Test
  void minTasksBelowOneIsAUsageError() {
    CliRun run = CliRun.run(Map.of(), "resolve", "--provider", "local", "--min-tasks", "0");
    assertThat(run.code).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err).contains("--min-tasks 0");
  }
}
