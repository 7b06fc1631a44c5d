package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clusterresolver.testkit.GceScenarios;
import io.clusterresolver.testkit.SimulatedGce;
import io.clusterresolver.testkit.SimulatedGceInstance;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code resolve --provider gce} against a simulated Compute Engine project: one listing per resolve, and exit codes. */
class GceResolveCommandTest {

  private SimulatedGce gce;

  @BeforeEach
  void start() {
    gce = SimulatedGce.start();
  }

  @AfterEach
  void stop() {
    gce.close();
  }

  private List<String> args(String... more) {
    List<String> args = new ArrayList<>(List.of("resolve", "--provider", "gce"));
    gce.providerProperties().forEach((key, value) -> args.addAll(List.of("-D", key + "=" + value)));
    args.addAll(List.of(more));
    return args;
  }

  @Test
  void a1200InstanceProjectIsTwoAggregatedListCallsAndTheExactCluster() throws Exception {
    GceScenarios.largeProject(gce, 1200);
    // The cluster, from the fixture's own fields: labelled cluster=train, RUNNING, no TPU VM host,
    // with an internal IPv4 (the IPv6-only member is left out); by creation instant, then numeric id.
    List<SimulatedGceInstance> expected = gce.instances().stream()
        .filter(i -> "train".equals(i.labels().get("cluster")) && i.status().equals("RUNNING"))
        .filter(i -> !i.labels().containsKey("tpu_name") && !i.labels().containsKey("tpu_cores"))
        .filter(i -> i.networkIp().isPresent())
        .sorted(Comparator.comparing((SimulatedGceInstance i) -> i.creationTimestamp().toInstant())
            .thenComparing(i -> new BigInteger(i.idText())))
        .collect(Collectors.toList());
    // An a2-highgpu-1g (one bundled A100), to check accelerators from machineTypes.get.
    int own = 0;
    while (!expected.get(own).machineType().equals("a2-highgpu-1g")) {
      own++;
    }
    gce.identifyAs(expected.get(own).name());
    gce.resetCounts();

    CliRun run = CliRun.run(Map.of(), args("-D", "clusterresolver.gce.labels=cluster=train", "--format", "json")
        .toArray(new String[0]));

    assertThat(run.code).as("%s", run).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out);
    List<String> cluster = new ArrayList<>();
    json.at("/cluster/worker").forEach(a -> cluster.add(a.asText()));
    assertThat(cluster).containsExactlyElementsOf(
        expected.stream().map(i -> i.networkIp().get() + ":8888").collect(Collectors.toList()));
    assertThat(json.at("/task/index").asInt()).isEqualTo(own);
    assertThat(json.at("/accelerators/GPU").asInt()).isEqualTo(1);
    assertThat(gce.callCount("instances.aggregatedList")).isEqualTo(2);
    assertThat(gce.callCount("instances.get")).isZero();
    List<String> types = gce.requests().stream().filter(r -> r.operation().equals("machineTypes.get"))
        .map(SimulatedGce.RecordedRequest::path).collect(Collectors.toList());
    // At most once per zone and type: 4 zones x {a2-highgpu-1g, g2-standard-24} (fewer when this JVM knows some).
    assertThat(types).doesNotHaveDuplicates().hasSizeLessThanOrEqualTo(8);
    assertThat(gce.requests()).filteredOn(r -> r.operation().startsWith("instances."))
        .allSatisfy(r -> assertThat(r.header("Authorization")).as("credentials=none sends no token").isNull());
  }

  @Test
  void simulateResolvesTheDemoProject() throws Exception {
    CliRun run = CliRun.run(Map.of(), "resolve", "--provider", "gce", "--simulate");
    assertThat(run.code).as("%s", run).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out);
    assertThat(json.at("/cluster/worker")).hasSize(4);
    assertThat(json.at("/cluster/worker/0").asText()).isEqualTo("10.128.0.0:8888");
    assertThat(json.at("/task/index").asInt()).isZero();
    assertThat(json.at("/accelerators/GPU").asInt()).isEqualTo(8);
    assertThat(run.err).contains("simulated Compute Engine");
  }

  @Test
  void anUnreachableZoneIsExit3NamingItAndABadStateExit2NamingTheKey() {
    gce.addTypical(0, 2, b -> b.zone("us-east1-b"));
    gce.unreachable("us-east1-c");
    CliRun unreachable = CliRun.run(Map.of(), args().toArray(new String[0]));
    assertThat(unreachable.code).as("%s", unreachable).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
    assertThat(unreachable.out).isEmpty();
    assertThat(unreachable.err).contains("zones/us-east1-c");

    CliRun state = CliRun.run(Map.of(), args("-D", "clusterresolver.gce.states=RUNING").toArray(new String[0]));
    assertThat(state.code).as("%s", state).isEqualTo(ExitCodes.USAGE);
    assertThat(state.err).contains("clusterresolver.gce.states").contains("RUNING");
  }
}
