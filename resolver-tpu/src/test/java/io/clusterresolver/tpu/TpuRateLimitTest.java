package io.clusterresolver.tpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.testkit.SimulatedTpu;
import io.clusterresolver.testkit.SimulatedTpuNode;
import io.clusterresolver.testkit.TokenBucket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider under the simulated Cloud TPU API's request quota ({@link SimulatedTpu#rateLimit}), through the
 * real client: a throttled {@code nodes.get} (429 {@code RESOURCE_EXHAUSTED}) is retried within the deadline, and
 * when the quota does not come back in time the resolve fails naming the 429 and the operation, never with a
 * partial cluster. The bucket runs on a test clock, so what it serves does not depend on the machine's speed.
 */
class TpuRateLimitTest {

  private SimulatedTpu tpu;

  @BeforeEach
  void start() {
    tpu = SimulatedTpu.start();
    tpu.add(SimulatedTpuNode.builder("pod").acceleratorType("v4-32")
        .workers("10.130.0.7", "10.130.0.5", "10.130.0.6", "10.130.0.4").build());
    tpu.resetCounts();
  }

  @AfterEach
  void stop() {
    tpu.close();
  }

  private List<String> expectedWorkers() {
    List<String> out = new ArrayList<>();
    for (SimulatedTpuNode.Endpoint e : tpu.node("pod").endpoints()) {
      out.add(e.ipAddress() + ":" + e.port());
    }
    return out;
  }

  @Test
  void throttledCallsAreRetriedUntilTheQuotaServesThem() {
    // One token, refilled at 1 a second, on a clock that moves 0.35 s at every request (no request lands on a
    // whole token, so no rounding decides). By hand, tokens before each request: resolve 1 at 0.70 s: 1, served;
    // resolve 2 at 1.05 s: 0.35, at 1.40 s: 0.70 (throttled), at 1.75 s: 1.05, served; resolve 3 at 2.10 s:
    // 0.40, at 2.45 s: 0.75 (throttled), at 2.80 s: 1.10, served. 3 served, 4 throttled, at most 3 attempts.
    AtomicLong clock = new AtomicLong();
    TokenBucket bucket = TokenBucket.of(1, 1, () -> clock.addAndGet(350_000_000L));
    tpu.rateLimit(bucket);
    ClusterResolver resolver = TpuTestSupport.resolver(tpu, "pod");

    for (int i = 0; i < 3; i++) {
      assertThat(resolver.clusterSpec().jobTasks("worker")).as("resolve %d", i + 1).isEqualTo(expectedWorkers());
    }

    assertThat(bucket.served()).isEqualTo(3);
    assertThat(bucket.throttled()).isEqualTo(4);
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).as("every request the bucket saw, and no other")
        .isEqualTo(3 + 4);
  }

  @Test
  void aQuotaThatDoesNotComeBackFailsNamingThe429AndTheOperationAfterEveryAttempt() {
    TokenBucket bucket = TokenBucket.of(1, 1, () -> 0L); // a clock that never moves: one call, then no more
    tpu.rateLimit(bucket);
    ClusterResolver resolver = TpuTestSupport.resolver(tpu, "pod");
    assertThat(resolver.clusterSpec().jobTasks("worker")).isEqualTo(expectedWorkers());

    Throwable t = catchThrowable(resolver::resolve);

    // The README: "after at most 4 attempts on 429/5xx/lost connections".
    assertThat(t).isExactlyInstanceOf(ClusterResolverException.class).hasMessageContaining("tpu")
        .hasMessageContaining("nodes.get").hasMessageContaining("HTTP 429").hasMessageContaining("RESOURCE_EXHAUSTED")
        .hasMessageContaining("4 attempts").hasMessageContaining("throttling");
    assertThat(((ClusterResolverException) t).isRetryable()).as("a wait may outlast the quota").isTrue();
    assertThat(bucket.served()).isEqualTo(1);
    assertThat(bucket.throttled()).isEqualTo(4);
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).isEqualTo(1 + 4);

    tpu.rateLimit(null);
    assertThat(resolver.clusterSpec().jobTasks("worker")).isEqualTo(expectedWorkers());
  }
}
