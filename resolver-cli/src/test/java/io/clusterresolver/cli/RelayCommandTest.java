package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.testkit.Loopback;
import io.clusterresolver.testkit.SimulatedEc2;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code cluster-resolver relay}: a process of its own that lists for every host of a job. */
class RelayCommandTest {

  private static final String SECRET = "0123456789abcdef-test-relay-secret";

  private SimulatedEc2 ec2;
  private String relay;

  @BeforeEach
  void start() throws Exception {
    ec2 = SimulatedEc2.start();
    ec2.addTypical(0, 1500, b -> b);
    relay = Loopback.freeAddress();
  }

  @AfterEach
  void stop() {
    ec2.close();
  }

  private String[] args(String command, String... more) {
    List<String> args = new ArrayList<>(List.of(command, "--provider", "aws"));
    ec2.providerProperties().forEach((key, value) -> args.addAll(List.of("-D", key + "=" + value)));
    args.addAll(List.of("-D", "clusterresolver.aws.relay=" + relay));
    args.addAll(List.of("-D", "clusterresolver.aws.relay-secret=" + SECRET));
    args.addAll(List.of(more));
    return args.toArray(new String[0]);
  }

  @Test
  void theRelayListsForEveryHostWhileItRuns() throws Exception {
    ec2.resetCounts();
    CompletableFuture<CliRun> relayRun = CompletableFuture.supplyAsync(() -> CliRun.run(Map.of(),
        args("relay", "--for", "4s")));
    // A host of the job: it may not serve, and accepts a listing the relay began up to a minute ago.
    Map<String, String> host = new HashMap<>(ec2.providerProperties());
    host.put("clusterresolver.aws.relay", relay);
    host.put("clusterresolver.aws.relay-secret", SECRET);
    host.put("clusterresolver.aws.relay-serve", "false");
    host.put("clusterresolver.aws.relay-max-age", "1m");
    host.put("clusterresolver.aws.shared-listing", "false");
    List<String> expected = ec2.instances().stream().map(i -> i.privateIpv4().orElseThrow() + ":8888")
        .collect(Collectors.toList());
    ClusterSpec spec = ClusterResolvers.create("aws", host, Map.of()).clusterSpec();
    assertThat(spec.jobTasks("worker")).containsExactlyElementsOf(expected);
    ClusterSpec again = ClusterResolvers.create("aws", host, Map.of()).clusterSpec();
    assertThat(again).isEqualTo(spec);

    CliRun run = relayRun.get(30, TimeUnit.SECONDS);
    assertThat(run.code).as("%s", run).isZero();
    assertThat(run.out).contains("Relaying aws listings on 127.0.0.1:" + relay.split(":")[1])
        .contains("first listing: 1500 task(s)");
    assertThat(ec2.callCount("DescribeInstances")).as("the relay's one listing of two pages, for both hosts")
        .isEqualTo(2);
  }

  @Test
  void withoutARelayAddressOfThisHostItIsExit2SayingWhatToSet() {
    relay = "192.0.2.1:7777"; // TEST-NET-1: never one of this host's addresses
    CliRun run = CliRun.run(Map.of(), args("relay", "--for", "1s"));
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err).contains("serves no relay").contains("clusterresolver.aws.relay");
  }

  @Test
  void aProviderWithoutARelayIsExit2() {
    CliRun run = CliRun.run(Map.of(), "relay", "--provider", "local", "--for", "1s");
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err).contains("provider 'local' has no listing relay");
    CliRun unnamed = CliRun.run(Map.of(), "relay", "--for", "1s");
    assertThat(unnamed.code).as("%s", unnamed).isEqualTo(ExitCodes.USAGE);
    assertThat(unnamed.err).contains("--provider");
  }

  @Test
  void aRelayWithoutASecretIsExit2NamingTheKeys() {
    List<String> args = new ArrayList<>(List.of("relay", "--provider", "aws", "--for", "1s"));
    ec2.providerProperties().forEach((key, value) -> args.addAll(List.of("-D", key + "=" + value)));
    args.addAll(List.of("-D", "clusterresolver.aws.relay=" + relay));
    CliRun run = CliRun.run(Map.of(), args.toArray(new String[0]));
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err).contains("clusterresolver.aws.relay needs a secret").contains("clusterresolver.aws.relay-secret")
        .contains("clusterresolver.aws.relay-insecure=true");
    args.addAll(List.of("-D", "clusterresolver.aws.relay-secret=too-short"));
    CliRun shortSecret = CliRun.run(Map.of(), args.toArray(new String[0]));
    assertThat(shortSecret.code).as("%s", shortSecret).isEqualTo(ExitCodes.USAGE);
    assertThat(shortSecret.err).contains("clusterresolver.aws.relay-secret: the relay secret is shorter than 16")
        .doesNotContain("too-short");
  }
}
