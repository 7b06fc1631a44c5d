package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.RetryPolicy;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link AdaptiveEc2}, the SDK's adaptive retry strategy choosing the waits of the kit's attempts. What is expected is
 * the AWS SDKs' documented retry behaviour (AWS SDKs and Tools Reference Guide, "Retry behavior"): the standard
 * mode's backoff (base 100 ms, full jitter, doubled per attempt), its retry quota (500 tokens, 5 per retry, given back
 * when a retried call succeeds), a server's suggested wait as the least one, and the adaptive mode's client-side rate
 * limit, which only throttling engages.
 */
class AdaptiveEc2Test {

  private static final ApiFailure THROTTLED = ApiFailure.http(503, "RequestLimitExceeded", "slow down", "r-1", 1);
  private static final ApiFailure SERVER_ERROR = ApiFailure.http(500, "InternalError", "oops", "r-2", 1);

  @Test
  void serverErrorsBackOffAsTheStandardModeAndLeaveLaterCallsUnslowed() {
    AdaptiveEc2 adaptive = new AdaptiveEc2(10);
    for (int call = 0; call < 5; call++) {
      RetryPolicy.Waits waits = adaptive.begin();
      assertThat(waits.first()).as("call %s", call).isZero();
      for (int attempt = 1; attempt <= 3; attempt++) {
        Duration ceiling = Duration.ofMillis(100L << (attempt - 1));
        assertThat(waits.next(SERVER_ERROR)).get().satisfies(wait -> assertThat(wait).isBetween(Duration.ZERO, ceiling));
      }
      waits.succeeded();
    }
  }

  @Test
  void throttlingSlowsTheNextCallsDown() {
    AdaptiveEc2 adaptive = new AdaptiveEc2(10);
    RetryPolicy.Waits waits = adaptive.begin();
    assertThat(waits.first()).isZero();
    waits.next(THROTTLED);
    waits.next(THROTTLED);
    waits.succeeded();
    assertThat(adaptive.begin().first()).as("the client-side rate limit's wait").isPositive();
  }

  @Test
  void aSuggestedWaitIsTheLeastWait() {
    RetryPolicy.Waits waits = new AdaptiveEc2(10).begin();
    assertThat(waits.next(SERVER_ERROR.withRetryAfter(Duration.ofSeconds(30)))).get()
        .satisfies(wait -> assertThat(wait).isGreaterThanOrEqualTo(Duration.ofSeconds(30)));
  }

  @Test
  void theRetryQuotaRunsOutAfter100RetriesThatNeverSucceed() {
    AdaptiveEc2 adaptive = new AdaptiveEc2(10);
    for (int retry = 0; retry < 100; retry++) {
      assertThat(adaptive.begin().next(SERVER_ERROR)).as("retry %s", retry).isPresent();
    }
    assertThat(adaptive.begin().next(SERVER_ERROR)).isEqualTo(Optional.empty());
  }

  @Test
  void aRetriedCallThatSucceedsGivesItsQuotaBack() {
    AdaptiveEc2 adaptive = new AdaptiveEc2(10);
    for (int call = 0; call < 150; call++) {
      RetryPolicy.Waits waits = adaptive.begin();
      assertThat(waits.next(SERVER_ERROR)).as("call %s", call).isPresent();
      waits.succeeded();
    }
  }
}
