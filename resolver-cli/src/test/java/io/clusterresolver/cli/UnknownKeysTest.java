package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Typos outside the provider in use are warned about once, with the closest valid key. */
class UnknownKeysTest {

  @Test
  void aMisspelledEnvironmentVariable() {
    CliRun run = CliRun.run(Map.of("CLUSTERRESOLVER_TFCONFG_RPC_LAYER", "grpc"), "resolve", "--provider", "local");
    assertThat(run.code).as("%s", run).isZero();
    assertThat(run.err).contains("warning: CLUSTERRESOLVER_TFCONFG_RPC_LAYER (environment variable) is read by no"
        + " provider on the class path: did you mean CLUSTERRESOLVER_TFCONFIG_RPC_LAYER?");
    assertThat(run.err.lines().filter(l -> l.contains("TFCONFG")).count()).isEqualTo(1);
  }

  @Test
  void aMisspelledKeyOfAnotherProviderGivenWithMinusD() {
    CliRun run = CliRun.run(Map.of(), "resolve", "--provider", "local", "-D", "clusterresolver.slurm.port-bse=1");
    assertThat(run.code).as("%s", run).isZero();
    assertThat(run.err).contains("clusterresolver.slurm.port-bse (-D)").contains("did you mean clusterresolver.slurm.port-base?");
  }

  @Test
  void aMisspelledKeyOfAnotherProviderInTheConfigFile(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("cluster.properties"), "clusterresolver.slurm.port-bse=1\n");
    CliRun run = CliRun.run(Map.of(), "resolve", "--provider", "local", "--config", file.toString());
    assertThat(run.code).as("%s", run).isZero();
    assertThat(run.err).contains("clusterresolver.slurm.port-bse (--config file)")
        .contains("did you mean clusterresolver.slurm.port-base?");
    assertThat(run.err.lines().filter(l -> l.contains("port-bse")).count()).isEqualTo(1);
  }

  @Test
  void aMisspelledSystemProperty() {
    System.setProperty("clusterresolver.tfconfg.rpc-layer", "grpc");
    try {
      CliRun run = CliRun.run(Map.of(), "resolve", "--provider", "local");
      assertThat(run.code).as("%s", run).isZero();
      assertThat(run.err).contains("clusterresolver.tfconfg.rpc-layer (system property)")
          .contains("did you mean clusterresolver.tfconfig.rpc-layer?");
    } finally {
      System.clearProperty("clusterresolver.tfconfg.rpc-layer");
    }
  }

  @Test
  void declaredKeysOfOtherProvidersAreNotWarnedAbout() {
    CliRun run = CliRun.run(Map.of("CLUSTERRESOLVER_SLURM_PORT_BASE", "9000"), "resolve", "--provider", "local",
        "-D", "clusterresolver.aws.region=us-east-1");
    assertThat(run.code).as("%s", run).isZero();
    assertThat(run.err).doesNotContain("warning");
  }
}
