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
 * {@link ApiErrorException}: an error answer's facts, read where the answer is, taken by {@link CloudApi} as they are
 * (the provider's reader is never asked), explained and retried as any other error answer. On a test clock, as
 * {@link CloudApiRetryTest}; the waits expected are the {@code Retry-After} the answers carry (RFC 9110 §10.2.3).
 */
class ApiErrorExceptionTest {

  private long now = 1_000_000_000L;
  private final List<Duration> sleeps = new ArrayList<>();
  private final AtomicInteger calls = new AtomicInteger();

  /** A CloudApi whose reader fails the test: an error answer must not need it. */
  private CloudApi api() {
    return CloudApi.builder("demo", e -> {
      throw new AssertionError("the reader was asked about " + e);
    })
        .permissions("pods.list")
        .time(() -> now, wait -> {
          sleeps.add(wait);
          now += wait.toNanos();
        }, () -> 0.5)
        .build();
  }

  /** A call answered by {@code answers} in turn, then "ok". */
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
    ApiFailure forbidden = ApiFailure.http(403, "Forbidden", "pods is forbidden", "audit-7", 1);

    assertThatThrownBy(() -> api().session(Duration.ofSeconds(10)).call("List pods", answering(forbidden)))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessage("demo: List pods failed with HTTP 403 Forbidden (pods is forbidden), request id audit-7, after 1"
            + " attempt; check the credentials and that they allow pods.list")
        .hasCauseInstanceOf(ApiErrorException.class);
    assertThat(calls).as("a refused caller is not asked again").hasValue(1);
  }

  @Test
  void aThrottledAnswerIsRetriedAfterTheWaitItAskedFor() {
    ApiFailure throttled = ApiFailure.http(429, "TooManyRequests", "slow down", "audit-8", 1)
        .withRetryAfter(RetryAfter.parse("2", Instant.EPOCH));

    String answer = api().session(Duration.ofSeconds(10)).call("List pods", answering(throttled, throttled));

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
