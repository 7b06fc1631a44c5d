package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clusterresolver.testkit.SimulatedTpu;
import io.clusterresolver.testkit.SimulatedTpuNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code resolve --provider tpu} against a simulated Cloud TPU API (issue 10, "must show"): pod slices
 * and single hosts with their TPUs per host, and the exit codes of a node that is not ready, preempted
 * or unknown. Expected addresses come from the simulated node's own endpoints; TPUs per host from the
 * issue's rule (TensorCores on v2/v3, chips on v4 and later; up to 8 one host, else 4 chips per host).
 */
class TpuResolveCommandTest {

  private SimulatedTpu tpu;

  @BeforeEach
  void start() {
    tpu = SimulatedTpu.start();
  }

  @AfterEach
  void stop() {
    tpu.close();
  }

  private String[] args(String node, String... more) {
    List<String> args = new ArrayList<>(List.of("resolve", "--provider", "tpu"));
    tpu.providerProperties(node).forEach((key, value) -> args.addAll(List.of("-D", key + "=" + value)));
    args.addAll(List.of(more));
    return args.toArray(new String[0]);
  }

  private List<String> endpointsOf(String node) {
    List<String> out = new ArrayList<>();
    for (SimulatedTpuNode.Endpoint e : tpu.node(node).endpoints()) {
      out.add(e.ipAddress() + ":" + e.port());
    }
    return out;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void aV4PodSliceKeepsItsUnsortedWorkersInApiOrderWithFourTpusPerHost() throws Exception {
    tpu.add(SimulatedTpuNode.builder("pod").acceleratorType("v4-32")
        .workers("10.130.0.7", "10.130.0.5", "10.130.0.6", "10.130.0.4").build());
    tpu.identifyAs("pod", 0);
    tpu.resetCounts();

    CliRun run = CliRun.run(Map.of(), args("pod", "--format", "json"));

    assertThat(run.code).as("%s", run).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out);
    List<String> workers = texts(json.at("/cluster/worker"));
    assertThat(workers).containsExactly("10.130.0.7:8470", "10.130.0.5:8470", "10.130.0.6:8470", "10.130.0.4:8470")
        .isEqualTo(endpointsOf("pod"));
    assertThat(workers).isNotEqualTo(workers.stream().sorted().toList());
    assertThat(json.at("/accelerators/TPU").asInt()).isEqualTo(4);
    assertThat(json.at("/task/index").asInt()).isZero();
    assertThat(json.at("/environment").asText()).isEqualTo("google");
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}: {1} host(s), TPU {2}")
  @CsvSource({"v2-8, 1, 8", "v3-8, 1, 8", "v6e-8, 1, 8", "v5litepod-16, 4, 4", "v5p-16, 2, 4"})
  void singleHostsAndSlices(String type, int hosts, int tpusPerHost) throws Exception {
    String[] ips = new String[hosts];
    for (int i = 0; i < hosts; i++) {
      ips[i] = "10.140.0." + (20 - 3 * i);
    }
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType(type).workers(ips).build());
    tpu.identifyAs("n", hosts - 1);

    CliRun run = CliRun.run(Map.of(), args("n", "--format", "json"));

    assertThat(run.code).as("%s", run).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out);
    assertThat(texts(json.at("/cluster/worker"))).isEqualTo(endpointsOf("n"));
    assertThat(json.at("/task/index").asInt()).isEqualTo(hosts - 1);
    assertThat(json.at("/accelerators/TPU").asInt()).isEqualTo(tpusPerHost);
  }

  @Test
  void aCreatingNodeIsExit3SayingItIsRetryable() {
    tpu.add(SimulatedTpuNode.builder("new").acceleratorType("v4-32").state(SimulatedTpuNode.State.CREATING)
        .health(null).build());
    CliRun run = CliRun.run(Map.of(), args("new"));
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("CREATING").contains("retryable").contains("new");
  }

  @Test
  void waitAsksAgainUntilACreatingNodeIsReady() throws Exception {
    tpu.add(SimulatedTpuNode.builder("new").acceleratorType("v4-16").state(SimulatedTpuNode.State.CREATING)
        .health(null).build());
    java.util.concurrent.CompletableFuture<CliRun> run = java.util.concurrent.CompletableFuture.supplyAsync(
        () -> CliRun.run(Map.of(), args("new", "--wait", "30s", "--format", "json")));
    while (tpu.callCount(SimulatedTpu.NODES_GET) < 2 && !run.isDone()) {
      Thread.sleep(20);
    }
    tpu.update("new", b -> b.state(SimulatedTpuNode.State.READY).workers("10.160.0.9", "10.160.0.8"));
    CliRun done = run.get(30, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(done.code).as("%s", done).isZero();
    assertThat(texts(new ObjectMapper().readTree(done.out).at("/cluster/worker"))).isEqualTo(endpointsOf("new"));
  }

  @Test
  void aPreemptedNodeIsExit3NamingTheStateEvenWithItsOldEndpoints() {
    tpu.add(SimulatedTpuNode.builder("gone").acceleratorType("v5p-16").preemptible(true)
        .state(SimulatedTpuNode.State.PREEMPTED).workers("10.150.0.3", "10.150.0.2").build());
    CliRun run = CliRun.run(Map.of(), args("gone"));
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("PREEMPTED").contains("must be recreated").doesNotContain("10.150.0.3:8470");
  }

  @Test
  void waitOnAPreemptedNodeStopsAtOnceWithExit3SayingTheStateIsTerminal() {
    tpu.add(SimulatedTpuNode.builder("gone").acceleratorType("v5p-16").preemptible(true)
        .state(SimulatedTpuNode.State.PREEMPTED).workers("10.150.0.3", "10.150.0.2").build());
    tpu.resetCounts();
    long start = System.nanoTime();

    CliRun run = CliRun.run(Map.of(), args("gone", "--wait", "10m"));

    // Polling for ten minutes would take at least 10 polls (backoff up to 15 s): one asks.
    assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).isLessThan(java.time.Duration.ofSeconds(60));
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).as("polls of nodes.get").isEqualTo(1);
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("Stopped waiting").contains("terminal").contains("PREEMPTED")
        .contains("must be recreated").doesNotContain("10.150.0.3:8470");
  }

  @Test
  void anUnknownNodeIsExit2NamingIt() {
    CliRun run = CliRun.run(Map.of(), args("no-such-tpu"));
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("no-such-tpu").contains(tpu.zone()).contains("clusterresolver.tpu.name");
  }

  @Test
  void theSimulationResolvesTheDemoPodSlice() throws Exception {
    CliRun run = CliRun.run(Map.of(), "resolve", "--provider", "tpu", "--simulate", "--format", "json");
    assertThat(run.code).as("%s", run).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out);
    assertThat(texts(json.at("/cluster/worker")))
        .containsExactly("10.130.0.7:8470", "10.130.0.5:8470", "10.130.0.6:8470", "10.130.0.4:8470");
    assertThat(json.at("/accelerators/TPU").asInt()).isEqualTo(4);
    assertThat(run.err).contains("simulated Cloud TPU");
  }
}
