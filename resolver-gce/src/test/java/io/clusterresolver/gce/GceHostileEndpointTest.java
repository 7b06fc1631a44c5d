package io.clusterresolver.gce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.SimulatedGce;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gce provider against an endpoint that is not Compute Engine: one that trickles its answer, one
 * whose answer does not end, and one that answers 200 with something else (issue 20, attacks 4 and 7).
 * The metadata server is the simulation's; the API endpoint is the hostile one.
 */
class GceHostileEndpointTest {

  SimulatedGce gce;

  @BeforeEach
  void start() {
    gce = SimulatedGce.start();
  }

  @AfterEach
  void stop() {
    gce.close();
  }

  private ClusterResolverException resolveAgainst(HostileEndpoint api, String... keyValues) {
    Map<String, String> p = new java.util.LinkedHashMap<>(gce.providerProperties());
    p.put("clusterresolver.gce.endpoint", api.uri().toString());
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put("clusterresolver.gce." + keyValues[i], keyValues[i + 1]);
    }
    return catchThrowableOfType(() -> ClusterResolvers.create("gce", p, Map.of()).resolve(),
        ClusterResolverException.class);
  }

  @Test
  void anAnswerTrickledOneByteEveryHalfSecondEndsAtTheTimeout() {
    // 40 bytes at 2 per second: 20 s for the whole answer, every single read well within any read timeout.
    String body = "{\"kind\": \"compute#instanceAggregatedList\"" + " ".repeat(38) + "}";
    try (HostileEndpoint api = HostileEndpoint.trickle(body, Duration.ofMillis(500))) {
      long start = System.nanoTime();
      ClusterResolverException e = resolveAgainst(api, "timeout", "2s");
      long millis = (System.nanoTime() - start) / 1_000_000;

      assertThat(e).as("a trickled answer is an error, not a cluster").isNotNull();
      assertThat(millis).as("the timeout of 2 s covers the body too").isLessThan(6_000);
      assertThat(e.getMessage()).contains("instances.aggregatedList").contains("2000 ms")
          .contains("clusterresolver.gce.timeout");
      assertThat(api.bytesSent()).isLessThan(body.length());
    }
  }

  @Test
  void anAnswerThatDoesNotEndStopsAtTheSizeLimitNamingTheEndpointAndTheLimit() {
    try (HostileEndpoint api = HostileEndpoint.endless(
        "{\"kind\":\"compute#instanceAggregatedList\",\"items\":{\"zones/a\":{\"instances\":[",
        "{\"name\":\"i\",\"status\":\"RUNNING\"},", 64L << 20)) {
      ClusterResolverException e = resolveAgainst(api, "max-answer-mib", "1", "timeout", "20s");

      assertThat(e).isNotNull();
      assertThat(e.getMessage()).contains(api.uri().toString())
          .contains("larger than the limit of 1 MiB").contains("clusterresolver.gce.max-answer-mib");
      // What the socket buffers held besides the 1 MiB read: far from the 64 MiB the endpoint would send.
      assertThat(api.bytesSent()).isLessThan(16L << 20);
    }
  }

  @Test
  void aSuccessfulAnswerThatIsNotComputeEnginesIsAnErrorNotAnEmptyCluster() {
    try (HostileEndpoint api = HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"),
        "{\"message\": \"Welcome to the proxy\"}")) {
      ClusterResolverException e = resolveAgainst(api);

      assertThat(e).as("not an empty cluster").isNotNull();
      assertThat(e.getMessage()).contains("not a Compute Engine answer").contains("instances.aggregatedList")
          .contains("clusterresolver.gce.endpoint");
      assertThat(e.isRetryable()).as("waiting does not fix an endpoint").isFalse();
    }
  }
}
