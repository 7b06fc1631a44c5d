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
  void aBareTokenInAConfigFileIsNotEchoed(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tokens.properties");
    Files.writeString(file, "ghp_S3CR3TTOKENVALUE\n");
    CliRun run = usage("resolve", "--config", file.toString());
    assertThat(run.err).contains("does not start with clusterresolver.").doesNotContain("S3CR3TTOKENVALUE");
  }
}
