package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.Fault;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import io.clusterresolver.testkit.TokenBucket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider under a rate-limited API server ({@link SimulatedKubernetes#rateLimit}: 429 {@code TooManyRequests}
 * with {@code Retry-After: 1}, as API Priority and Fairness rejects), through the real fabric8 client: a 429 is
 * retried after the second the header asks for (not the kit's 100 ms backoff), the listing of three pages completes
 * within the deadline, or, when the limit does not lift, fails naming the 429 and the page's operation, never with
 * a partial cluster; a wait that would end after the deadline is not waited for. The bucket runs on a test clock,
 * so what it serves does not depend on the machine's speed.
 */
class KubernetesRateLimitTest {

  /** 1,001 pods at 500 a page: three list calls when none is throttled. */
  static final int PODS = 1001;

  static SimulatedKubernetes k8s;
  static KubernetesTestSupport support;

  @BeforeAll
  static void start() {
    k8s = SimulatedKubernetes.start();
    support = new KubernetesTestSupport(k8s, "ml", "trainer");
    List<SimulatedPod> pods = new ArrayList<>();
    for (int i = 0; i < PODS; i++) {
      pods.add(SimulatedPod.builder("ml", String.format("trainer-%04d", i)).label("app", "trainer")
          .created(Instant.parse("2025-01-01T00:00:00Z").plusSeconds(i))
          .podIps("10.1." + (i / 250) + "." + (i % 250 + 1)).build());
    }
    k8s.addAll(pods);
  }

  @AfterAll
  static void stop() {
    k8s.close();
  }

  @BeforeEach
  void reset() {
    k8s.rateLimit(null).clearFaults().resetCounts();
  }

  /** The cluster from the pods' own fields: their IPs in creation order, at the documented default port 8888. */
  private static List<String> expectedWorkers() {
    List<String> out = new ArrayList<>();
    for (SimulatedPod p : k8s.pods()) {
      out.add(p.podIps().get(0) + ":8888");
    }
    return out;
  }

  private static ClusterResolver resolver() {
    return ClusterResolvers.create("kubernetes", support.properties(k8s, Map.of()), Map.of());
  }

  @Test
  void throttledPagesAreRetriedAfterRetryAfterAndTheListingCompletes() {
    // One token, refilled at 1 a second, on a clock that moves 0.35 s at every request. By hand, tokens before
    // each request: page 1 at 0.70 s: 1, served; page 2 at 1.05 s: 0.35, at 1.40 s: 0.70 (throttled), at 1.75 s:
    // 1.05, served; page 3 at 2.10 s: 0.40, at 2.45 s: 0.75 (throttled), at 2.80 s: 1.10, served.
    // 3 served, 4 throttled.
    AtomicLong clock = new AtomicLong();
    TokenBucket bucket = TokenBucket.of(1, 1, () -> clock.addAndGet(350_000_000L));
    k8s.rateLimit(bucket);

    List<String> workers = resolver().clusterSpec().jobTasks("worker");

    assertThat(workers).hasSize(PODS).isEqualTo(expectedWorkers());
    assertThat(bucket.served()).isEqualTo(3);
    assertThat(bucket.throttled()).isEqualTo(4);
    assertThat(k8s.listCalls()).as("every request the bucket saw, and no other").isEqualTo(3 + 4);
  }

  @Test
  void aLimitThatDoesNotLiftFailsNamingThe429AndThePageNeverAPartialCluster() {
    TokenBucket bucket = TokenBucket.of(1, 1, () -> 0L); // a clock that never moves: the first page, then nothing
    k8s.rateLimit(bucket);

    Throwable t = catchThrowable(() -> resolver().clusterSpec());

    // Page 2 is tried 4 times: the first attempt and the provider's 3 retries.
    assertThat(t).isExactlyInstanceOf(ClusterResolverException.class).hasMessageContaining("kubernetes")
        .hasMessageContaining("list pods in namespace ml").hasMessageContaining("HTTP 429")
        .hasMessageContaining("TooManyRequests").hasMessageContaining("4 attempts").hasMessageContaining("throttling");
    assertThat(((ClusterResolverException) t).isRetryable()).isTrue();
    assertThat(bucket.served()).isEqualTo(1);
    assertThat(bucket.throttled()).isEqualTo(4);
    assertThat(k8s.listCalls()).isEqualTo(1 + 4);

    k8s.rateLimit(null);
    assertThat(resolver().clusterSpec().jobTasks("worker")).isEqualTo(expectedWorkers());
  }

  @Test
  void aThrottledPageIsRetriedAfterTheRetryAfterTheApiServerSent() {
    k8s.inject(Fault.throttled().onPage(2).times(2)); // each answered 429 with Retry-After: 1

    long start = System.nanoTime();
    List<String> workers = resolver().clusterSpec().jobTasks("worker");
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(workers).isEqualTo(expectedWorkers());
    assertThat(k8s.listCalls()).isEqualTo(3 + 2);
    // Two waits of the header's 1 s; the kit's own backoff for two retries is at most 100 + 200 ms.
    assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(2)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void aRetryAfterPastTheDeadlineIsNotWaitedForAndTheErrorSaysSo() {
    k8s.inject(Fault.throttled().always());

    Throwable t = catchThrowable(() -> ClusterResolvers.create("kubernetes",
        support.properties(k8s, Map.of("clusterresolver.kubernetes.timeout", "2s")), Map.of()).clusterSpec());

    // 1 s waits while one still fits the 2 s deadline, then the API server's answer with the reason it gave up.
    assertThat(t).isExactlyInstanceOf(ClusterResolverException.class).hasMessageContaining("list pods in namespace ml")
        .hasMessageContaining("asked to wait 1000 ms (Retry-After)").hasMessageContaining("HTTP 429")
        .hasMessageContaining("TooManyRequests").hasMessageNotContaining(support.token);
    assertThat(k8s.listCalls()).isBetween(1, 2);
  }
}
