package io.clusterresolver.aws;

import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.RetryPolicy;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.AcquireInitialTokenResponse;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.retries.api.RetryToken;
import software.amazon.awssdk.retries.api.TokenAcquisitionFailedException;

/**
 * {@code retry-mode=adaptive}: the waits of the kit's attempts chosen by the SDK's own adaptive strategy
 * ({@link AwsRetryStrategy#adaptiveRetryStrategy()}), as its {@code Ec2Client}'s: the standard strategy's backoff and
 * retry quota, and a client-side rate limit that slows every later call of this resolver down once EC2 throttled
 * one. The kit's {@code CloudApi} makes and counts the attempts and decides what is retried; the strategy is told
 * which failure was throttling as the kit reads it ({@link ApiFailure#isThrottling()}).
 */
final class AdaptiveEc2 implements RetryPolicy.Strategy {

  private final RetryStrategy strategy;

  AdaptiveEc2(int maxAttempts) {
    this.strategy = AwsRetryStrategy.adaptiveRetryStrategy().toBuilder()
        .maxAttempts(maxAttempts)
        .retryOnException(e -> e instanceof Failed) // what the kit retries: it asks only about those
        .treatAsThrottling(e -> e instanceof Failed f && f.failure.isThrottling())
        .build();
  }

  /** {@code maxAttempts} attempts paced by one adaptive strategy: one per resolver, so its rate limit is shared. */
  static RetryPolicy retries(int maxAttempts) {
    return RetryPolicy.delegating(maxAttempts, new AdaptiveEc2(maxAttempts));
  }

  @Override
  public RetryPolicy.Waits begin() {
    AcquireInitialTokenResponse first = strategy.acquireInitialToken(AcquireInitialTokenRequest.create("ec2"));
    return new RetryPolicy.Waits() {
      private RetryToken token = first.token();

      @Override
      public Duration first() {
        return first.delay();
      }

      @Override
      public Optional<Duration> next(ApiFailure failure) {
        RefreshRetryTokenRequest.Builder refresh = RefreshRetryTokenRequest.builder().token(token)
            .failure(new Failed(failure));
        if (failure.retryAfter() != null) {
          refresh.suggestedDelay(failure.retryAfter()); // EC2's Retry-After
        }
        try {
          var next = strategy.refreshRetryToken(refresh.build());
          token = next.token();
          return Optional.of(next.delay());
        } catch (TokenAcquisitionFailedException quotaSpent) {
          return Optional.empty();
        }
      }

      @Override
      public void succeeded() {
        strategy.recordSuccess(RecordSuccessRequest.create(token));
      }
    };
  }

  @Override
  public String toString() {
    return "the AWS SDK's adaptive retry strategy";
  }

  /** A failure the kit retries, as the strategy takes it: a throwable. */
  private static final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient ApiFailure failure;

    Failed(ApiFailure failure) {
      super(failure.message(), null, false, false);
      this.failure = failure;
    }
  }
}
