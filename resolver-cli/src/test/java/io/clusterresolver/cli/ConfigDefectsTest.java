package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.testkit.SimulatedEc2;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 20's configuration defects: values that used to end in an internal error (exit 1) or a
 * retryable source error (exit 3) are configuration errors (exit 2) naming the key.
 */
class ConfigDefectsTest {

  /** An aws resolve that fails before any call if its configuration is wrong (nothing listens on port 1). */
  private static CliRun aws(String... more) {
    List<String> args = new ArrayList<>(List.of("resolve", "--provider", "aws",
        "-D", "clusterresolver.aws.region=us-east-1",
        "-D", "clusterresolver.aws.endpoint=http://127.0.0.1:1",
        "-D", "clusterresolver.aws.imds-endpoint=http://127.0.0.1:1",
        "-D", "clusterresolver.aws.access-key-id=AKIDEXAMPLE",
        "-D", "clusterresolver.aws.secret-access-key=secretexample"));
    args.addAll(List.of(more));
    return CliRun.run(Map.of(), args.toArray(new String[0]));
  }

  private static CliRun usage(CliRun run) {
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.out).isEmpty();
    assertThat(run.err).doesNotContain("internal error");
    return run;
  }

  @Test
  void aTimeoutThatOverflowsIsAConfigurationErrorNamingTheKey() {
    assertThat(usage(aws("-D", "clusterresolver.aws.timeout=99999999999999d")).err)
        .contains("clusterresolver.aws.timeout").contains("too large");
  }

  @Test
  void aRelayWaitThatOverflowsIsAConfigurationErrorNamingTheKey() {
    assertThat(usage(aws("-D", "clusterresolver.aws.relay=127.0.0.1:1", "-D", "clusterresolver.aws.relay-insecure=true",
        "-D", "clusterresolver.aws.relay-wait=99999999999999d")).err)
        .contains("clusterresolver.aws.relay-wait").contains("too large");
  }

  @Test
  void aWaitThatOverflowsIsAConfigurationErrorNamingTheOption() {
    assertThat(usage(aws("--wait", "99999999999999d")).err).contains("--wait").contains("too large");
  }

  @Test
  void anEmptySharedListingDirIsAConfigurationErrorNamingTheKey() {
    assertThat(usage(aws("-D", "clusterresolver.aws.shared-listing=true",
        "-D", "clusterresolver.aws.shared-listing-dir=")).err)
        .contains("clusterresolver.aws.shared-listing-dir");
  }

  @Test
  void aHugeTasksPerInstanceIsAConfigurationErrorNamingTheKey() {
    assertThat(usage(aws("-D", "clusterresolver.aws.tasks-per-instance=2147483647")).err)
        .contains("clusterresolver.aws.tasks-per-instance").contains("1024");
  }

  @Test
  void tasksPerInstanceThatRunPastThePortRangeAreAConfigurationError() {
    assertThat(usage(aws("-D", "clusterresolver.aws.tasks-per-instance=1000",
        "-D", "clusterresolver.aws.port=65000")).err)
        .contains("clusterresolver.aws.tasks-per-instance").contains("clusterresolver.aws.port").contains("65535");
  }

  private static CliRun kubernetes(String... more) {
    List<String> args = new ArrayList<>(List.of("resolve", "--provider", "kubernetes",
        "-D", "clusterresolver.kubernetes.endpoint=http://127.0.0.1:1",
        "-D", "clusterresolver.kubernetes.namespace=ml",
        "-D", "clusterresolver.kubernetes.selector=app=trainer"));
    args.addAll(List.of(more));
    return CliRun.run(Map.of("HOME", "/nonexistent"), args.toArray(new String[0]));
  }

  @Test
  void aTokenFileWithoutEndIsReadOnlyToItsBound() {
    assertThat(usage(kubernetes("-D", "clusterresolver.kubernetes.token-file=/dev/zero")).err)
        .contains("clusterresolver.kubernetes.token-file").contains("/dev/zero").contains("more than 64 KiB");
  }

  @Test
  void aKubeconfigWithoutEndIsReadOnlyToItsBound() {
    assertThat(usage(kubernetes("-D", "clusterresolver.kubernetes.kubeconfig=/dev/zero")).err)
        .contains("clusterresolver.kubernetes.kubeconfig").contains("/dev/zero").contains("more than 1024 KiB");
  }

  @Test
  void aFilterThatMatchesNothingSaysSoOnStandardError() {
    try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
      ec2.addTypical(0, 2, b -> b);
      List<String> args = new ArrayList<>(List.of("resolve", "--provider", "aws", "--format", "json"));
      ec2.providerProperties().forEach((key, value) -> args.addAll(List.of("-D", key + "=" + value)));
      args.addAll(List.of("-D", "clusterresolver.aws.tags=team=nobody"));
      CliRun run = CliRun.run(Map.of(), args.toArray(new String[0]));
      assertThat(run.code).as("%s", run).isZero();
      assertThat(run.err.lines().filter(line -> line.contains("listed no task")))
          .containsExactly("cluster-resolver: provider 'aws' listed no task: nothing matches"
              + " clusterresolver.aws.region=" + ec2.providerProperties().get("clusterresolver.aws.region")
              + ", clusterresolver.aws.tags=team=nobody");
    }
  }
}
