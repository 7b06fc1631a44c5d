package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolverException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A catalog prefetch: keys neither kept nor asked are loaded once on another thread, awaited within the deadline,
 * failures reach the caller as thrown, what is unfinished is cancelled. Expected values are the keys' facts as the
 * test's lookup defines them (a key's fact is its length), never read back from the prefetch.
 */
class CatalogPrefetchTest {

  private static final CloudApi API = CloudApi.builder("demo", e -> ApiFailure.of(ApiFailure.Kind.NO_RESPONSE,
      String.valueOf(e.getMessage()), 1)).build();

  private final CountDownLatch release = new CountDownLatch(1);
  /** Each lookup's keys and the thread it ran on, in the order asked. */
  private final List<String> asked = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void releaseTheWork() {
    release.countDown();
  }

  /** A key's fact is its length; each call is recorded as "thread:keys". */
  private Map<String, Integer> lengths(List<String> keys) {
    asked.add(Thread.currentThread().getName() + ":" + keys);
    Map<String, Integer> facts = new LinkedHashMap<>();
    keys.forEach(k -> facts.put(k, k.length()));
    return facts;
  }

  @Test
  void eachKeyIsAskedOnceInTheBackgroundAndWhatIsStillMissingOnTheCallersThread() {
    CatalogCache<Integer> cache = CatalogCache.create();
    cache.put("ec2.us-east-1", "c5.xlarge", 99); // kept by an earlier resolve: never asked
    CatalogCache.Prefetch<Integer> prefetch = cache.prefetch(API.session(Duration.ofSeconds(10)), "ec2.us-east-1",
        "cluster-resolver-test-catalog", this::lengths);

    prefetch.start(List.of("p4d.24xlarge", "c5.xlarge", "inf1.xlarge"));
    prefetch.start(Set.of("inf1.xlarge", "c5.xlarge")); // asked or kept already: no load
    Map<String, Integer> facts = prefetch.await(List.of("trn1.32xlarge", "p4d.24xlarge", "c5.xlarge", "inf1.xlarge"));

    assertThat(asked).containsExactly("cluster-resolver-test-catalog:[inf1.xlarge, p4d.24xlarge]",
        Thread.currentThread().getName() + ":[trn1.32xlarge]");
    assertThat(facts).containsExactly(Map.entry("trn1.32xlarge", 13), Map.entry("p4d.24xlarge", 12),
        Map.entry("c5.xlarge", 99), Map.entry("inf1.xlarge", 11));
    assertThat(cache.get("ec2.us-east-1", "trn1.32xlarge")).as("kept for the next resolve").contains(13);

    CatalogCache.Prefetch<Integer> next = cache.prefetch(API.session(Duration.ofSeconds(10)), "ec2.us-east-1",
        "cluster-resolver-test-catalog", this::lengths);
    next.start(List.of("p4d.24xlarge", "trn1.32xlarge"));
    assertThat(next.await(List.of("p4d.24xlarge"))).containsExactly(Map.entry("p4d.24xlarge", 12));
    assertThat(asked).as("the next resolve asks nothing").hasSize(2);
  }

  @Test
  void aKeyTheLookupDoesNotAnswerHasNoFactAndIsNotAskedAgain() {
    CatalogCache<Integer> cache = CatalogCache.create();
    CatalogCache.Prefetch<Integer> prefetch = cache.prefetch(API.session(Duration.ofSeconds(10)), "s",
        "cluster-resolver-test-catalog", keys -> {
          asked.add(String.valueOf(keys));
          return Map.of("a", 1);
        });
    prefetch.start(List.of("a", "gone"));
    assertThat(prefetch.await(List.of("a", "gone"))).containsExactly(Map.entry("a", 1));
    assertThat(asked).containsExactly("[a, gone]");
    assertThat(cache.contains("s", "gone")).isFalse();
  }

  @Test
  void aFullCacheStillAnswersEveryFactThisResolveLoaded() {
    CatalogCache<Integer> cache = CatalogCache.create(1);
    CatalogCache.Prefetch<Integer> prefetch = cache.prefetch(API.session(Duration.ofSeconds(10)), "s",
        "cluster-resolver-test-catalog", this::lengths);
    prefetch.start(List.of("ab", "abc", "abcd"));
    assertThat(prefetch.await(List.of("ab", "abc", "abcd")))
        .containsExactly(Map.entry("ab", 2), Map.entry("abc", 3), Map.entry("abcd", 4));
    assertThat(cache.size()).isEqualTo(1);
  }

  @Test
  void aFailedBackgroundLoadIsTheCallersAsThrownAndKeepsNothing() {
    CatalogCache<Integer> cache = CatalogCache.create();
    ClusterResolverException refused = new ClusterResolverException("demo: DescribeInstanceTypes failed: 403");
    CatalogCache.Prefetch<Integer> prefetch = cache.prefetch(API.session(Duration.ofSeconds(10)), "s",
        "cluster-resolver-test-catalog", keys -> {
          throw refused;
        });
    prefetch.start(List.of("a"));
    assertThat(catchThrowable(() -> prefetch.await(List.of("a")))).isSameAs(refused);
    assertThat(cache.contains("s", "a")).isFalse();
  }

  @Test
  void aLoadOnAPoolRunsOnItsThreads() {
    ExecutorService pool = InBackground.daemonThreads("cluster-resolver-test-pool", 2);
    try {
      CatalogCache.Prefetch<Integer> prefetch = CatalogCache.<Integer>create().prefetch(
          API.session(Duration.ofSeconds(10)), "s", pool, "catalog", this::lengths);
      prefetch.start(List.of("xyz"));
      assertThat(prefetch.await(List.of("xyz"))).containsExactly(Map.entry("xyz", 3));
      assertThat(asked).containsExactly("cluster-resolver-test-pool:[xyz]");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aLoadPastTheDeadlineFailsTheAwaitNamingItAndTheBudget() {
    CatalogCache.Prefetch<Integer> prefetch = CatalogCache.<Integer>create().prefetch(
        API.session(Duration.ofMillis(300)), "s", "cluster-resolver-test-slow", keys -> {
          await(release);
          return Map.of();
        });
    prefetch.start(List.of("a"));
    Throwable e = catchThrowable(() -> prefetch.await(List.of("a")));
    assertThat(e).isInstanceOf(ClusterResolverException.class).hasMessage("demo: cluster-resolver-test-slow did not"
        + " complete within the timeout of 300 ms (raise clusterresolver.demo.timeout if the API is slow)");
  }

  @Test
  void cancelStopsALoadThatHasNotEnded() throws InterruptedException {
    CountDownLatch running = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    CatalogCache<Integer> cache = CatalogCache.create();
    CatalogCache.Prefetch<Integer> prefetch = cache.prefetch(API.session(Duration.ofSeconds(10)), "s",
        "cluster-resolver-test-cancel", keys -> {
          running.countDown();
          try {
            release.await();
          } catch (InterruptedException e) {
            interrupted.set(true);
            throw new ClusterResolverException("interrupted");
          }
          return Map.of("a", 1);
        });
    prefetch.start(List.of("a"));
    assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
    prefetch.cancel();
    assertThat(interrupted).as("the load was interrupted and had ended when cancel returned").isTrue();
    assertThat(cache.contains("s", "a")).isFalse();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
