package io.clusterresolver.aws;

import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.retries.api.AcquireInitialTokenRequest;
import software.amazon.awssdk.retries.api.AcquireInitialTokenResponse;
import software.amazon.awssdk.retries.api.RecordSuccessRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenRequest;
import software.amazon.awssdk.retries.api.RefreshRetryTokenResponse;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.retries.api.RetryToken;
import software.amazon.awssdk.retries.api.TokenAcquisitionFailedException;

/**
 * {@code retry-mode=adaptive}: the EC2 calls retried by the SDK's own adaptive strategy
 * ({@link AwsRetryStrategy#adaptiveRetryStrategy()}), as its {@code Ec2Client} retried them: the standard strategy's
 * backoff and retry quota, and a client-side rate limit that slows every later call of this resolver down once EC2
 * throttled one. What is retried and what is throttling is the kit's reading of the failure ({@code ApiFailure}), as
 * for the standard mode; a call never waits past the time it was given.
 */
final class AdaptiveEc2 implements Ec2Api {

  private final Ec2Api calls;
  private final RetryStrategy strategy;

  AdaptiveEc2(Ec2Api calls, int maxAttempts) {
    this.calls = calls;
    this.strategy = AwsRetryStrategy.adaptiveRetryStrategy().toBuilder()
        .maxAttempts(maxAttempts)
        .retryOnException(e -> e instanceof RuntimeException r && Ec2MemberSource.readFailure(r).isRetryable())
        .treatAsThrottling(e -> e instanceof RuntimeException r && Ec2MemberSource.readFailure(r).isThrottling())
        .build();
  }

  @Override
  public InstancePage describeInstances(List<Ec2Filter> filters, int pageSize, String token, Duration remaining,
      Consumer<InstancePage> read) {
    return retried(remaining, left -> calls.describeInstances(filters, pageSize, token, left, read));
  }

  @Override
  public InstanceTypeAccelerators describeInstanceTypes(List<String> types, Duration remaining) {
    return retried(remaining, left -> calls.describeInstanceTypes(types, left));
  }

  @Override
  public boolean retriesItself() {
    return true;
  }

  /**
   * Each attempt after the delay the strategy asks for, within {@code remaining}; a failure the strategy does not
   * retry, or whose wait would pass that time, as it was thrown (after more than one attempt, in an
   * {@link Exhausted} that counts them).
   */
  private <T> T retried(Duration remaining, Function<Duration, T> attempt) {
    long end = System.nanoTime() + remaining.toNanos();
    AcquireInitialTokenResponse first = strategy.acquireInitialToken(AcquireInitialTokenRequest.create("ec2"));
    RetryToken token = first.token();
    Duration delay = first.delay();
    RuntimeException last = null;
    for (int attempts = 0; ; attempts++) {
      Duration left = Duration.ofNanos(end - System.nanoTime()).minus(delay);
      if (left.isNegative() || left.isZero()) {
        throw last != null ? Exhausted.after(attempts, last) : new UncheckedIOException(new SocketTimeoutException(
            "EC2: the adaptive retry strategy's wait of " + delay.toMillis() + " ms is past the call's time"));
      }
      try {
        Thread.sleep(delay.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw last != null ? Exhausted.after(attempts, last)
            : new UncheckedIOException(new InterruptedIOException("EC2: interrupted"));
      }
      try {
        T answer = attempt.apply(left);
        strategy.recordSuccess(RecordSuccessRequest.create(token));
        return answer;
      } catch (RuntimeException failure) {
        last = failure;
        try {
          RefreshRetryTokenRequest.Builder refresh = RefreshRetryTokenRequest.builder().token(token).failure(failure);
          if (failure instanceof Ec2Calls.Failure f && f.retryAfter != null) {
            refresh.suggestedDelay(f.retryAfter); // EC2's Retry-After
          }
          RefreshRetryTokenResponse next = strategy.refreshRetryToken(refresh.build());
          token = next.token();
          delay = next.delay();
        } catch (TokenAcquisitionFailedException notRetried) {
          throw Exhausted.after(attempts + 1, failure);
        }
      }
    }
  }

  /** The last failure of a call the strategy tried more than once, and how many times: for the error's count. */
  static final class Exhausted extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int attempts;

    private Exhausted(int attempts, RuntimeException last) {
      super(last.getMessage(), last);
      this.attempts = attempts;
    }

    /** {@code last} itself after one attempt, else {@code last} with the count. */
    static RuntimeException after(int attempts, RuntimeException last) {
      return attempts <= 1 ? last : new Exhausted(attempts, last);
    }

    /** The failure of the last attempt. */
    RuntimeException last() {
      return (RuntimeException) getCause();
    }
  }
}
