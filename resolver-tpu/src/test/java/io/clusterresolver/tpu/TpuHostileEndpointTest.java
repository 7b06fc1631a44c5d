package io.clusterresolver.tpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.SimulatedTpu;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The tpu provider against an endpoint that is not the Cloud TPU API (issue 20, attacks 4 and 7). */
class TpuHostileEndpointTest {

  SimulatedTpu tpu;

  @BeforeEach
  void start() {
    tpu = SimulatedTpu.start();
  }

  @AfterEach
  void stop() {
    tpu.close();
  }

  @Test
  void anAnswerTrickledOneByteEveryHalfSecondEndsAtTheTimeout() {
    String body = "{\"name\": \"projects/p/locations/z/nodes/n\", \"state\": \"READY\"" + " ".repeat(40) + "}";
    try (HostileEndpoint api = HostileEndpoint.trickle(body, Duration.ofMillis(500))) {
      ClusterResolver resolver = TpuTestSupport.resolver(tpu, "n", "endpoint", api.uri().toString(), "timeout", "2s");
      long start = System.nanoTime();
      ClusterResolverException e = catchThrowableOfType(resolver::resolve, ClusterResolverException.class);
      long millis = (System.nanoTime() - start) / 1_000_000;

      assertThat(e).isNotNull();
      // The whole answer takes 50 s; 2 s plus a cold JVM's first client on a loaded machine is far below.
      assertThat(millis).as("the timeout of 2 s covers the body too").isLessThan(12_000);
      assertThat(e.getMessage()).contains("nodes.get").contains("2000 ms");
    }
  }

  @Test
  void aSuccessfulAnswerThatIsNotANodeIsATerminalErrorNotNotReadyYet() {
    try (HostileEndpoint api = HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"), "{}")) {
      ClusterResolverException e = catchThrowableOfType(() -> TpuTestSupport.resolver(tpu, "n",
          "endpoint", api.uri().toString()).resolve(), ClusterResolverException.class);

      assertThat(e).isNotNull();
      assertThat(e.getMessage()).contains("not a Cloud TPU API answer").contains("clusterresolver.tpu.endpoint")
          .doesNotContain("STATE_UNSPECIFIED");
      assertThat(e.isRetryable()).as("resolve --wait must stop, not poll a wrong endpoint").isFalse();
    }
  }
}
