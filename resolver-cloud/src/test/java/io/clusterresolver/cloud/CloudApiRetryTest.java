package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolverException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link CloudApi}'s retries on a test clock: a sleep moves the clock instead of waiting, so the waits
 * asked for are exact and the deadline runs out when the test says. Expected waits come from the HTTP
 * spec (RFC 9110 §10.2.3 {@code Retry-After}) and the clouds' documented error shapes.
 */
class CloudApiRetryTest {

  /** An SDK exception carrying the facts an SDK exception would. */
  static final class SdkFailure extends RuntimeException {
    final ApiFailure failure;

    SdkFailure(ApiFailure failure) {
      super("sdk says no");
      this.failure = failure;
    }
  }

  /** The test's clock and every wait CloudApi asked for. */
  private long now = 1_000_000_000L;
  private final List<Duration> sleeps = new ArrayList<>();
  private final AtomicInteger calls = new AtomicInteger();

  private CloudApi api(RetryPolicy policy) {
    return CloudApi.builder("demo", e -> ((SdkFailure) e).failure).retryPolicy(policy)
        .time(() -> now, wait -> {
          sleeps.add(wait);
          now += wait.toNanos();
        }, () -> 0.5)
        .build();
  }

  /** A call failing with {@code failures} in turn, then answering "ok". */
  private CloudApi.Call<String> failing(ApiFailure... failures) {
    return remaining -> {
      int n = calls.getAndIncrement();
      if (n < failures.length) {
        throw new SdkFailure(failures[n]);
      }
      return "ok";
    };
  }

  private static ApiFailure http(int status, String code) {
    return ApiFailure.http(status, code, "detail", "req-1", 1);
  }

  @Test
  void retryAfterInSecondsIsWaitedExactlyThenTheCallSucceeds() {
    ApiFailure throttled = http(429, "TooManyRequests").withRetryAfter(RetryAfter.parse("3", Instant.EPOCH));
    String answer = api(RetryPolicy.defaults()).session(Duration.ofSeconds(10)).call("List", failing(throttled));
    assertThat(answer).isEqualTo("ok");
    assertThat(calls).hasValue(2);
    assertThat(sleeps).containsExactly(Duration.ofSeconds(3));
  }

  @Test
  void retryAfterAsAnHttpDateIsTheTimeUntilThatDate() {
    // RFC 9110 §10.2.3's example date; read one minute and a half before it.
    Instant before = Instant.parse("1999-12-31T23:58:29Z");
    assertThat(RetryAfter.parse("Fri, 31 Dec 1999 23:59:59 GMT", before)).isEqualTo(Duration.ofSeconds(90));
    assertThat(RetryAfter.parse("Fri, 31 Dec 1999 23:59:59 GMT", Instant.parse("2000-01-01T00:00:00Z")))
        .as("a date already past: retry now").isEqualTo(Duration.ZERO);
    assertThat(RetryAfter.parse("120", before)).isEqualTo(Duration.ofMinutes(2));
    assertThat(RetryAfter.parse("soon", before)).isNull();
    assertThat(RetryAfter.parse(null, before)).isNull();
  }

  @Test
  void aRetryAfterPastTheDeadlineGivesUpAtOnceWithTheTimeoutNamingTheAttempts() {
    ApiFailure slowDown = http(429, "TooManyRequests").withRetryAfter(Duration.ofSeconds(60));
    assertThatThrownBy(() -> api(RetryPolicy.defaults()).session(Duration.ofSeconds(3)).call("List",
        failing(http(503, "ServiceUnavailable"), slowDown, slowDown)))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessageStartingWith("demo: List did not complete within the timeout of 3000 ms")
        .hasMessageContaining("the API asked to wait 60000 ms (Retry-After)")
        .hasMessageContaining("HTTP 429 TooManyRequests")
        .hasMessageContaining("request id req-1")
        .hasMessageContaining("after 2 attempts")
        .hasMessageContaining("clusterresolver.demo.timeout");
    assertThat(calls).as("a 503, then the 429 whose wait does not fit").hasValue(2);
    assertThat(sleeps).as("only the backoff after the 503: 200 ms halved and half jittered back")
        .containsExactly(Duration.ofMillis(150));
  }

  @Test
  void computeEnginesRateQuota403IsRetriedAndAForbidden403IsNot() {
    // cloud.google.com/compute/api-quota: 403, reason rateLimitExceeded, domain usageLimits.
    ApiFailure quota = http(403, "rateLimitExceeded");
    assertThat(api(RetryPolicy.defaults()).session(Duration.ofSeconds(10)).call("instances.list",
        failing(quota, quota))).isEqualTo("ok");
    assertThat(calls).hasValue(3);

    calls.set(0);
    assertThatThrownBy(() -> api(RetryPolicy.defaults()).session(Duration.ofSeconds(10)).call("instances.list",
        failing(http(403, "forbidden"))))
        .hasMessageContaining("HTTP 403 forbidden").hasMessageContaining("after 1 attempt;")
        .hasMessageContaining("check the credentials");
    assertThat(calls).hasValue(1);
  }

  @Test
  void attemptsAreCountedOnceAndNamedWhenTheyRunOut() {
    RetryPolicy three = RetryPolicy.builder().maxAttempts(3).baseBackoff(Duration.ofMillis(100))
        .maxBackoff(Duration.ofMillis(150)).build();
    ApiFailure unavailable = http(503, "UNAVAILABLE");
    assertThatThrownBy(() -> api(three).session(Duration.ofSeconds(10)).call("nodes.get",
        failing(unavailable, unavailable, unavailable, unavailable)))
        .hasMessageContaining("demo: nodes.get failed with HTTP 503 UNAVAILABLE")
        .hasMessageContaining("after 3 attempts");
    assertThat(calls).hasValue(3);
    // Jitter 0.5 of [b/2, b]: 100 ms -> 75 ms, then 200 ms capped at 150 ms -> 112.5 ms.
    assertThat(sleeps).containsExactly(Duration.ofMillis(75), Duration.ofNanos(112_500_000));
  }

  @Test
  void throttlingBacksOffFromItsOwnSlowerBase() {
    RetryPolicy policy = RetryPolicy.builder().baseBackoff(Duration.ofMillis(100)).throttlingBackoff(Duration.ofSeconds(1))
        .build();
    assertThat(api(policy).session(Duration.ofSeconds(10)).call("instances.list",
        failing(http(403, "rateLimitExceeded"), http(503, null)))).isEqualTo("ok");
    // Jitter 0.5 of [b/2, b]: attempt 1 throttled, 1 s -> 750 ms; attempt 2 a 503, 200 ms -> 150 ms.
    assertThat(sleeps).containsExactly(Duration.ofMillis(750), Duration.ofMillis(150));
  }

  @Test
  void notTheApisAnswerIsNeverRetried() {
    CloudApi api = api(RetryPolicy.defaults());
    assertThatThrownBy(() -> api.session(Duration.ofSeconds(10)).call("List", remaining -> {
      calls.incrementAndGet();
      throw new NotTheApiException("no \"kind\"");
    })).isInstanceOf(ClusterResolverException.class).hasMessageContaining("not the API's format");
    assertThat(calls).hasValue(1);
    assertThat(ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, "truncated", 1).isRetryable()).isFalse();
    assertThat(sleeps).isEmpty();
  }

  @Test
  void whatIsRetryableFollowsTheCloudsErrorShapes() {
    assertThat(http(429, null).isRetryable()).as("RFC 6585 Too Many Requests").isTrue();
    assertThat(http(400, "Throttling").isRetryable()).as("AWS query APIs: 400 Throttling").isTrue();
    assertThat(http(503, "RequestLimitExceeded").isRetryable()).as("EC2").isTrue();
    assertThat(http(429, "RESOURCE_EXHAUSTED").isRetryable()).as("Google APIs").isTrue();
    assertThat(http(500, "InternalError").isRetryable()).isTrue();
    assertThat(http(502, null).isRetryable()).isTrue();
    assertThat(ApiFailure.of(ApiFailure.Kind.NO_RESPONSE, "SocketException: Connection reset", 1).isRetryable())
        .isTrue();
    assertThat(http(501, null).isRetryable()).as("Not Implemented does not go away").isFalse();
    assertThat(http(401, "Unauthorized").isRetryable()).isFalse();
    assertThat(http(403, "AuthorizationFailed").isRetryable()).isFalse();
    assertThat(http(404, "NotFound").isRetryable()).isFalse();
    assertThat(ApiFailure.of(ApiFailure.Kind.CREDENTIALS, "no key", 1).isRetryable()).isFalse();
    assertThat(ApiFailure.of(ApiFailure.Kind.TIMEOUT, "timed out", 1).isRetryable()).isFalse();
  }

  @Test
  void aCallTheSdkAlreadyRetriedIsNotRetriedAgain() {
    // An SDK that retries itself reports its attempts: CloudApi adds none of its own.
    ApiFailure afterSdkRetries = ApiFailure.http(503, "RequestLimitExceeded", "slow down", "req-2", 3);
    assertThatThrownBy(() -> api(RetryPolicy.defaults()).session(Duration.ofSeconds(10)).call("DescribeInstances",
        failing(afterSdkRetries))).hasMessageContaining("after 3 attempts");
    assertThat(calls).hasValue(1);

    calls.set(0);
    assertThatThrownBy(() -> api(RetryPolicy.none()).session(Duration.ofSeconds(10)).call("DescribeInstances",
        failing(http(503, "RequestLimitExceeded")))).hasMessageContaining("after 1 attempt;");
    assertThat(calls).hasValue(1);
    assertThat(sleeps).isEmpty();
  }

  @Test
  void everyPageHasItsOwnAttempts() {
    ApiFailure reset = ApiFailure.of(ApiFailure.Kind.NO_RESPONSE, "SocketException: Connection reset", 1);
    List<String> tokens = new ArrayList<>();
    int pages = api(RetryPolicy.defaults()).session(Duration.ofSeconds(10)).forEachPage("List",
        (token, remaining) -> {
          tokens.add(String.valueOf(token));
          if (tokens.size() == 2) {
            throw new SdkFailure(reset);
          }
          return token == null ? "t1" : "";
        },
        page -> page, page -> { });
    assertThat(pages).isEqualTo(2);
    assertThat(tokens).as("page 2 fetched again with its own token").containsExactly("null", "t1", "t1");
  }

  /** A call answered by the error answers {@code answers} in turn ({@link ApiErrorException}), then "ok". */
  private CloudApi.Call<String> answering(ApiFailure... answers) {
    return remaining -> {
      int n = calls.getAndIncrement();
      if (n < answers.length) {
        throw new ApiErrorException("list: HTTP " + answers[n].httpStatus(), answers[n]);
      }
      return "ok";
    };
  }

  @Test
  void anErrorAnswerIsExplainedFromItsOwnFactsWithoutTheReader() {
    // The reader of api() casts to SdkFailure: asked about an ApiErrorException, it would throw ClassCastException.
    ApiFailure forbidden = ApiFailure.http(403, "Forbidden", "pods is forbidden", "audit-7", 1);

    assertThatThrownBy(() -> api(RetryPolicy.defaults()).session(Duration.ofSeconds(10)).call("List pods",
        answering(forbidden)))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessage("demo: List pods failed with HTTP 403 Forbidden (pods is forbidden), request id audit-7, after 1"
            + " attempt; check the credentials")
        .hasCauseInstanceOf(ApiErrorException.class);
    assertThat(calls).as("a refused caller is not asked again").hasValue(1);
  }

  @Test
  void aThrottledErrorAnswerIsRetriedAfterTheWaitItAskedFor() {
    ApiFailure throttled = ApiFailure.http(429, "TooManyRequests", "slow down", "audit-8", 1)
        .withRetryAfter(RetryAfter.parse("2", Instant.EPOCH));

    String answer = api(RetryPolicy.defaults()).session(Duration.ofSeconds(10)).call("List pods",
        answering(throttled, throttled));

    assertThat(answer).isEqualTo("ok");
    assertThat(calls).hasValue(3);
    assertThat(sleeps).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(2));
  }

  @Test
  void onlyAnErrorStatusIsAnErrorAnswer() {
    assertThatThrownBy(() -> new ApiErrorException("no answer", ApiFailure.of(ApiFailure.Kind.NO_RESPONSE, "reset", 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NO_RESPONSE");
  }
}
