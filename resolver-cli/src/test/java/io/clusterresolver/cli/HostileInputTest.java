package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Input a careless or hostile user gives: bounded, never echoed when it may be a secret. */
class HostileInputTest {

  private static CliRun usage(String... args) {
    CliRun run = CliRun.run(Map.of(), args);
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.out).isEmpty();
    return run;
  }

  @Test
  void aConfigFileLargerThanTheBoundIsRejectedWithoutReadingItAll(@TempDir Path dir) throws Exception {
    Path big = dir.resolve("big.properties");
    Files.write(big, new byte[PropertyOptions.MAX_CONFIG_BYTES + 1]);
    assertThat(usage("resolve", "--config", big.toString()).err).contains("larger than 1024 KiB");
  }

  @Test
  void anEndlessConfigFileIsRejectedToo() {
    assertThat(usage("resolve", "--config", "/dev/zero").err).contains("/dev/zero").contains("larger than");
  }

  @Test
  void aConfigFileThatIsNotUtf8IsNamedAsSuch(@TempDir Path dir) throws Exception {
    Path latin1 = dir.resolve("latin1.properties");
    Files.write(latin1, new byte[] {'c', '=', (byte) 0xE9, '\n'});
    assertThat(usage("resolve", "--config", latin1.toString()).err).contains("not UTF-8").doesNotContain("Input length");
  }

  @Test
  void aMalformedMinusDNeverEchoesItsValue() {
    CliRun run = usage("resolve", "-D", "clusterresolver.aws.secret-access-key:S3CR3T-VALUE");
    assertThat(run.err).contains("-D takes KEY=VALUE").doesNotContain("S3CR3T-VALUE").doesNotContain("option option");
  }

  @Test
  void aSecretInAnUnknownOrMisplacedOptionIsNeverEchoed() {
    // What picocli printed before (issue 20): "Unknown option: '-Dclusterresolver.azure.access-key=S3CR3T-1'",
    // "Unknown options: '--access-key', 'S3CR3T-4'", "Unmatched argument at index 1: 'S3CR3T-5'".
    String[][] commandLines = {
      {"-Dclusterresolver.azure.access-key=S3CR3T-1", "resolve"},
      {"-D", "clusterresolver.azure.access-key=S3CR3T-2", "resolve"},
      {"resolve", "--access-key=S3CR3T-3"},
      {"resolve", "--access-key", "S3CR3T-4"},
      {"resolve", "S3CR3T-5"},
      {"reslove", "-D", "clusterresolver.azure.access-key=S3CR3T-6"},
      {"resolve", "--provider", "azure", "--timeout", "S3CR3T-7"},
      {"resolve", "-Dclusterresolver.azure.access-key", "S3CR3T-8"},
    };
    for (String[] args : commandLines) {
      CliRun run = usage(args);
      assertThat(run.err).as("%s", String.join(" ", args)).doesNotContain("S3CR3T").contains("cluster-resolver: ");
    }
    assertThat(usage("-Dclusterresolver.azure.access-key=S3CR3T-1", "resolve").err)
        .contains("'-Dclusterresolver.azure.access-key=***'").contains("-D goes after the command");
    assertThat(usage("resolve", "--access-key", "S3CR3T-4").err)
        .contains("'--access-key', and 1 argument not shown (it may hold a secret)");
    assertThat(usage("reslove", "-D", "clusterresolver.azure.access-key=S3CR3T-6").err)
        .contains("'clusterresolver.azure.access-key=***'").contains("Did you mean: cluster-resolver resolve");
  }

  @Test
  void aPasswordInAnEndpointUrlIsNeverEchoed(@TempDir Path dir) throws Exception {
    Path token = dir.resolve("token");
    Files.writeString(token, "t0ken");
    // Invalid (a space in the host) and valid but refused: both errors name the endpoint, neither its password.
    CliRun invalid = usage("resolve", "--provider", "kubernetes", "-D", "clusterresolver.kubernetes.selector=app=t",
        "-D", "clusterresolver.kubernetes.endpoint=https://admin:S3CR3T-PW@bad host:6443");
    assertThat(invalid.err).contains("clusterresolver.kubernetes.endpoint").contains("https://***@bad host:6443")
        .doesNotContain("S3CR3T");
    CliRun refused = CliRun.run(Map.of(), "resolve", "--provider", "kubernetes", "-D", "clusterresolver.kubernetes.selector=app=t",
        "-D", "clusterresolver.kubernetes.endpoint=http://admin:S3CR3T-PW@127.0.0.1:1",
        "-D", "clusterresolver.kubernetes.token-file=" + token, "-D", "clusterresolver.kubernetes.namespace=ml",
        "-D", "clusterresolver.kubernetes.timeout=3s");
    assertThat(refused.code).as("%s", refused).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
    assertThat(refused.err).doesNotContain("S3CR3T");
  }

  @Test
  void aBareTokenInAConfigFileIsNotEchoed(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tokens.properties");
    Files.writeString(file, "ghp_S3CR3TTOKENVALUE\n");
    CliRun run = usage("resolve", "--config", file.toString());
    assertThat(run.err).contains("does not start with clusterresolver.").doesNotContain("S3CR3TTOKENVALUE");
  }

  @Test
  void messagesNameTheInputNotTheParsersInternals() {
    CliRun nan = CliRun.run(Map.of("TF_CONFIG", "{\"cluster\": {\"w\": [NaN]}}"), "resolve");
    assertThat(nan.code).isEqualTo(ExitCodes.USAGE);
    assertThat(nan.err).contains("TF_CONFIG is not valid JSON").contains("NaN").doesNotContain("JsonReadFeature");
    CliRun deep = CliRun.run(Map.of("TF_CONFIG", "{\"a\":".repeat(1200) + "1" + "}".repeat(1200)), "resolve");
    assertThat(deep.code).isEqualTo(ExitCodes.USAGE);
    assertThat(deep.err).contains("nesting depth").doesNotContain("StreamReadConstraints");
    CliRun nullCluster = CliRun.run(Map.of("TF_CONFIG", "{\"cluster\": null}"), "resolve");
    assertThat(nullCluster.err).contains("not null").doesNotContain("null null");
    CliRun unknown = usage("resolve", "--provider", "local", "-D", "clusterresolver.local.xyz=1");
    assertThat(unknown.err).contains("clusterresolver.local.xyz").doesNotContain("did you mean");
  }

  @Test
  void aZeroTimeoutIsAConfigurationErrorNamingTheKey() {
    CliRun run = usage("resolve", "--provider", "aws", "-D", "clusterresolver.aws.region=us-east-1",
        "-D", "clusterresolver.aws.timeout=0s", "-D", "clusterresolver.aws.imds-endpoint=http://127.0.0.1:1");
    assertThat(run.err).contains("clusterresolver.aws.timeout").contains("must be positive")
        .doesNotContain("internal error");
  }
}
