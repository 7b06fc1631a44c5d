package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code resolve --provider aws --simulate}: the whole aws path against the in-process demo fleet. */
class SimulateTest {

  @Test
  void resolvesTheDemoFleetWithTheRealProvider() throws Exception {
    CliRun run = CliRun.run(Map.of(), "resolve", "--provider", "aws", "--simulate");
    assertThat(run.code).as("%s", run).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out);
    assertThat(json.get("cluster").get("worker")).hasSize(4);
    assertThat(json.get("cluster").get("worker").get(0).asText()).isEqualTo("10.0.0.0:8888");
    assertThat(json.get("task").get("type").asText()).isEqualTo("worker");
    assertThat(json.get("task").get("index").asInt()).isZero();
    assertThat(json.get("environment").asText()).isEqualTo("aws");
    assertThat(json.get("accelerators").get("GPU").asInt()).isEqualTo(8);
    assertThat(run.err).contains("simulated EC2").doesNotContain("simulated-secret-access-key");
  }

  @Test
  void commandLinePropertiesApplyOnTopOfTheSimulation() throws Exception {
    CliRun run = CliRun.run(Map.of(), "resolve", "--provider", "aws", "--simulate",
        "-D", "clusterresolver.aws.jobs=chief:1,worker:*", "-D", "clusterresolver.aws.port=2222",
        "--format", "hostfile");
    assertThat(run.code).as("%s", run).isZero();
    assertThat(run.out.lines()).containsExactly("10.0.0.0", "10.0.0.1", "10.0.0.2", "10.0.0.3");
  }

  @Test
  void simulateNeedsAProviderThatHasASimulation() {
    CliRun none = CliRun.run(Map.of(), "resolve", "--simulate");
    assertThat(none.code).isEqualTo(ExitCodes.USAGE);
    assertThat(none.err).contains("--provider");
    CliRun unknown = CliRun.run(Map.of(), "resolve", "--provider", "local", "--simulate");
    assertThat(unknown.code).isEqualTo(ExitCodes.USAGE);
    assertThat(unknown.err).contains("no simulation of provider 'local'").contains("aws");
  }
}
