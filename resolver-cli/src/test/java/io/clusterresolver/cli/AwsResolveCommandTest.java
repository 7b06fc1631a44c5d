package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clusterresolver.testkit.SimulatedEc2;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code resolve --provider aws} against a simulated EC2: one listing per resolve, and exit codes. */
class AwsResolveCommandTest {

  private SimulatedEc2 ec2;

  @BeforeEach
  void start() {
    ec2 = SimulatedEc2.start();
  }

  @AfterEach
  void stop() {
    ec2.close();
  }

  private List<String> args(String... more) {
    List<String> args = new ArrayList<>(List.of("resolve", "--provider", "aws"));
    ec2.providerProperties().forEach((key, value) -> args.addAll(List.of("-D", key + "=" + value)));
    args.addAll(List.of(more));
    return args;
  }

  @Test
  void oneResolveOfA2300InstanceFleetIsOneListingOfThreePages() throws Exception {
    ec2.addTypical(0, 2300, b -> b);
    // Typical instance i is launched i seconds after the first, so creation order is index order.
    ec2.identifyAs(ec2.instances().get(1234).instanceId());
    ec2.resetCounts();

    CliRun run = CliRun.run(Map.of(), args("--format", "json").toArray(new String[0]));

    assertThat(run.code).as("%s", run).isZero();
    // 2,300 instances at 1,000 per page: pages of 1000, 1000 and 300, each asked exactly once.
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(3);
    JsonNode json = new ObjectMapper().readTree(run.out);
    assertThat(json.at("/cluster/worker")).hasSize(2300);
    // This process is instance 1234, so task 1234; its address is the one the listing gave it.
    assertThat(json.at("/task/index").asInt()).isEqualTo(1234);
    assertThat(json.at("/cluster/worker/1234").asText())
        .isEqualTo(ec2.instances().get(1234).privateIpv4().orElseThrow() + ":8888");
  }

  @Test
  void aPropertyOfTheWrongTypeIsExit2NamingTheKey() {
    CliRun run = CliRun.run(Map.of(), args("-D", "clusterresolver.aws.port=abc").toArray(new String[0]));
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("clusterresolver.aws.port").contains("'abc' is not an integer")
        .doesNotContain("simulated-secret-access-key");
  }

  @Test
  void missingCredentialsAreExit2SayingHowToConfigureThem() {
    List<String> args = new ArrayList<>(List.of("resolve", "--provider", "aws"));
    ec2.providerProperties().forEach((key, value) -> {
      if (!key.endsWith("access-key-id") && !key.endsWith("secret-access-key")) {
        args.addAll(List.of("-D", key + "=" + value));
      }
    });
    args.addAll(List.of("-D", "clusterresolver.aws.profile=no-such-profile-here"));
    CliRun run = CliRun.run(Map.of(), args.toArray(new String[0]));
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("no credentials").contains("no-such-profile-here")
        .contains("clusterresolver.aws.access-key-id").doesNotContain("internal error");
    assertThat(ec2.callCount("DescribeInstances")).isZero();
  }

  @Test
  void aTaskIdOutsideTheClusterIsExit2NamingTheIndices() {
    ec2.addTypical(0, 2, b -> b);
    CliRun run = CliRun.run(Map.of(), args("--task-type", "worker", "--task-id", "99").toArray(new String[0]));
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("task index 99").contains("[0, 1]").contains("clusterresolver.aws.task-id");
  }

  @Test
  void aMalformedRegionIsExit2NamingTheKey() {
    CliRun run = CliRun.run(Map.of(), args("-D", "clusterresolver.aws.region=us east 1").toArray(new String[0]));
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err).contains("clusterresolver.aws.region").contains("'us east 1' is not a region name")
        .doesNotContain("Exception");
  }

  @Test
  void aBugInAProviderIsExit1WithAStackTrace() {
    CliRun run = CliRun.run(Map.of(), "resolve", "--provider", "fixture", "-D", "clusterresolver.fixture.hosts=a",
        "-D", "clusterresolver.fixture.bug=true");
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.INTERNAL_ERROR);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("internal error").contains("NullPointerException")
        .contains("at io.clusterresolver.cli.FixtureProvider");
  }
}
