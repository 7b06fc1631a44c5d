package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolverException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link RetryPolicy#delegating}: a strategy chooses the waits, {@link CloudApi} makes and counts the attempts, on a
 * test clock (a sleep moves it). The strategy here is a script of waits, as an SDK's retry strategy would answer
 * them; what is expected follows from the policy's contract: attempts within {@code maxAttempts}, only retryable
 * failures asked about, {@code Retry-After} as the least wait, the deadline never passed, one {@code begin} per call.
 */
class RetryPolicyDelegatingTest {

  private long now = 1_000_000_000L;
  private final List<Duration> sleeps = new ArrayList<>();
  private final List<String> events = new ArrayList<>();
  private final AtomicInteger calls = new AtomicInteger();

  /** A strategy answering {@code first} before each call's first attempt and then {@code next} in turn. */
  private RetryPolicy.Strategy scripted(Duration first, Duration... next) {
    Deque<Duration> waits = new ArrayDeque<>(List.of(next));
    return () -> {
      events.add("begin");
      return new RetryPolicy.Waits() {
        @Override
        public Duration first() {
          return first;
        }

        @Override
        public Optional<Duration> next(ApiFailure failure) {
          events.add("next " + failure.httpStatus() + " after " + failure.attempts());
          return Optional.ofNullable(waits.poll());
        }

        @Override
        public void succeeded() {
          events.add("succeeded");
        }
      };
    };
  }

  private CloudApi api(RetryPolicy policy) {
    return CloudApi.builder("demo", e -> {
      throw new AssertionError("error answers carry their facts", e);
    }).retryPolicy(policy).time(() -> now, wait -> {
      sleeps.add(wait);
      now += wait.toNanos();
    }, () -> 0.5).build();
  }

  /** A call answering {@code failures} in turn as error answers, then "ok". */
  private CloudApi.Call<String> failing(ApiFailure... failures) {
    return remaining -> {
      int n = calls.getAndIncrement();
      if (n < failures.length) {
        throw new ApiErrorException("HTTP " + failures[n].httpStatus(), failures[n]);
      }
      return "ok";
    };
  }

  private static ApiFailure http(int status, String code) {
    return ApiFailure.http(status, code, "detail", "req-1", 1);
  }

  @Test
  void theStrategysWaitsAreWaitedAndEachAttemptIsCountedOnce() {
    RetryPolicy policy = RetryPolicy.delegating(3, scripted(Duration.ofMillis(40), Duration.ofMillis(300),
        Duration.ofMillis(500)));
    assertThat(api(policy).session(Duration.ofSeconds(10)).call("List",
        failing(http(503, "Unavailable"), http(503, "RequestLimitExceeded")))).isEqualTo("ok");
    assertThat(calls).hasValue(3);
    assertThat(sleeps).containsExactly(Duration.ofMillis(40), Duration.ofMillis(300), Duration.ofMillis(500));
    assertThat(events).containsExactly("begin", "next 503 after 1", "next 503 after 2", "succeeded");
  }

  @Test
  void aRetryAfterLongerThanTheStrategysWaitIsWaitedAndAShorterOneIsNot() {
    ApiFailure slowDown = http(503, "RequestLimitExceeded").withRetryAfter(Duration.ofSeconds(2));
    RetryPolicy policy = RetryPolicy.delegating(3, scripted(Duration.ZERO, Duration.ofMillis(100),
        Duration.ofSeconds(5)));
    assertThat(api(policy).session(Duration.ofSeconds(30)).call("List", failing(slowDown, slowDown)))
        .isEqualTo("ok");
    assertThat(sleeps).as("no wait before the first attempt; then Retry-After over 100 ms, the strategy's 5 s over it")
        .containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(5));
  }

  @Test
  void attemptsEndAtMaxAttemptsWithoutAskingTheStrategyAgain() {
    RetryPolicy policy = RetryPolicy.delegating(2, scripted(Duration.ZERO, Duration.ofMillis(10),
        Duration.ofMillis(10), Duration.ofMillis(10)));
    ApiFailure unavailable = http(503, "Unavailable");
    assertThatThrownBy(() -> api(policy).session(Duration.ofSeconds(10)).call("List",
        failing(unavailable, unavailable, unavailable)))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessage("demo: List failed with HTTP 503 Unavailable (detail), request id req-1, after 2 attempts");
    assertThat(calls).hasValue(2);
    assertThat(events).containsExactly("begin", "next 503 after 1");
  }

  @Test
  void aStrategyThatWillNotRetryEndsTheCallWithItsFailure() {
    RetryPolicy policy = RetryPolicy.delegating(5, scripted(Duration.ZERO)); // its retry quota is spent
    assertThatThrownBy(() -> api(policy).session(Duration.ofSeconds(10)).call("List",
        failing(http(500, "InternalError"))))
        .hasMessage("demo: List failed with HTTP 500 InternalError (detail), request id req-1, after 1 attempt");
    assertThat(calls).hasValue(1);
    assertThat(sleeps).isEmpty();
  }

  @Test
  void whatIsNotRetryableIsNeverAskedAbout() {
    RetryPolicy policy = RetryPolicy.delegating(5, scripted(Duration.ZERO, Duration.ofMillis(10)));
    assertThatThrownBy(() -> api(policy).session(Duration.ofSeconds(10)).call("List",
        failing(http(401, "AuthFailure")))).hasMessageContaining("after 1 attempt");
    assertThat(events).containsExactly("begin");
  }

  @Test
  void aFirstWaitPastTheDeadlineSendsNothing() {
    RetryPolicy policy = RetryPolicy.delegating(3, scripted(Duration.ofSeconds(3)));
    assertThatThrownBy(() -> api(policy).session(Duration.ofSeconds(2)).call("List", failing()))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessage("demo: List did not complete within the timeout of 2000 ms (raise clusterresolver.demo.timeout"
            + " if the API is slow)");
    assertThat(calls).hasValue(0);
    assertThat(sleeps).isEmpty();
  }

  @Test
  void aRetryWaitPastTheDeadlineGivesUpNamingTheWaitAndTheLastAttempt() {
    RetryPolicy policy = RetryPolicy.delegating(3, scripted(Duration.ZERO, Duration.ofSeconds(4)));
    assertThatThrownBy(() -> api(policy).session(Duration.ofSeconds(2)).call("List",
        failing(http(503, "RequestLimitExceeded"))))
        .hasMessageStartingWith("demo: List did not complete within the timeout of 2000 ms")
        .hasMessageContaining("the next backoff is 4000 ms and 2000 ms are left, so it gave up")
        .hasMessageContaining("HTTP 503 RequestLimitExceeded").hasMessageContaining("after 1 attempt");
    assertThat(calls).hasValue(1);
  }

  @Test
  void everyPageIsACallOfItsOwn() {
    RetryPolicy policy = RetryPolicy.delegating(2, scripted(Duration.ZERO, Duration.ofMillis(10)));
    List<String> pages = new ArrayList<>();
    int fetched = api(policy).session(Duration.ofSeconds(10)).forEachPage("List",
        (token, remaining) -> {
          if (calls.getAndIncrement() == 1) {
            throw new ApiErrorException("throttled", http(429, null));
          }
          return token == null ? "a" : token + "a";
        },
        page -> page.length() < 3 ? page : null, pages::add);
    assertThat(fetched).isEqualTo(3);
    assertThat(pages).containsExactly("a", "aa", "aaa");
    assertThat(events).containsExactly("begin", "succeeded", "begin", "next 429 after 1", "succeeded", "begin",
        "succeeded");
  }

  @Test
  void maxAttemptsAndTheStrategyAreRequired() {
    assertThatThrownBy(() -> RetryPolicy.delegating(0, scripted(Duration.ZERO)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    assertThatThrownBy(() -> RetryPolicy.delegating(3, null)).isInstanceOf(NullPointerException.class);
    assertThat(RetryPolicy.delegating(3, scripted(Duration.ZERO)).maxAttempts()).isEqualTo(3);
  }
}
