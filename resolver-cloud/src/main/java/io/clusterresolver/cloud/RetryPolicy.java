package io.clusterresolver.cloud;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * How {@link CloudApi} retries a call whose failure {@linkplain ApiFailure#isRetryable() is retryable}:
 * at most {@link #maxAttempts()} attempts, waiting what the API asked for ({@code Retry-After}) or else
 * a jittered exponential backoff (attempt {@code n} waits between half and all of
 * {@code min(maxBackoff, base * 2^(n-1))}, where the base is {@link #throttlingBackoff()} when the API
 * is {@linkplain ApiFailure#isThrottling() throttling} and {@link #baseBackoff()} otherwise), and never past the resolve's {@link Deadline}: a wait
 * that would not leave 100 ms of it for the next attempt is not started, and the call fails at once with
 * the deadline's error naming its attempts and the last failure. Immutable.
 *
 * <pre>{@code
 * CloudApi.builder("gce", GceFailures::read)
 *     .retryPolicy(RetryPolicy.builder().throttlingBackoff(Duration.ofSeconds(1)).build())
 *     .build();
 * }</pre>
 *
 * <p>A cloud SDK that retries itself must not also be retried here (one retry loop inside another
 * multiplies the attempts): a provider either turns the SDK's retries off and lets this policy
 * retry, or keeps the SDK's and uses {@link #none()}. A provider that wants its SDK's retry algorithm
 * (such as a client-side rate limit) without its loop hands that algorithm to {@link #delegating}:
 * the SDK then only chooses the waits, and {@link CloudApi} still makes and counts every attempt.
 */
public final class RetryPolicy {

  private static final RetryPolicy DEFAULTS = new Builder().build();
  private static final RetryPolicy NONE = new Builder().maxAttempts(1).build();

  private final int maxAttempts;
  private final Duration baseBackoff;
  private final Duration throttlingBackoff;
  private final Duration maxBackoff;
  /** What chooses the waits; {@code null}: this policy's own backoff. */
  private final Strategy strategy;

  private RetryPolicy(Builder b, Strategy strategy) {
    this.maxAttempts = b.maxAttempts;
    this.baseBackoff = b.baseBackoff;
    this.throttlingBackoff = b.throttlingBackoff == null ? b.baseBackoff : b.throttlingBackoff;
    this.maxBackoff = b.maxBackoff;
    this.strategy = strategy;
  }

  /** 4 attempts, backoff from 200 ms doubling up to 8 s: what most cloud SDKs default to. */
  public static RetryPolicy defaults() {
    return DEFAULTS;
  }

  /**
   * One attempt: for a provider whose SDK retries itself and reports its attempts in {@link
   * ApiFailure#attempts()} (to keep only the SDK's retry algorithm, not its loop, see {@link #delegating}).
   */
  public static RetryPolicy none() {
    return NONE;
  }

  /**
   * At most {@code maxAttempts} attempts, waiting what {@code strategy} chooses: for a provider that keeps its SDK's
   * retry algorithm (its backoff, retry quota or client-side rate limit) but not the SDK's loop. {@link CloudApi}
   * still decides what is retried ({@link ApiFailure#isRetryable()}), counts the attempts, waits at least the API's
   * {@code Retry-After} and never past the {@link Deadline}, as for every policy; the backoff settings of this policy
   * are the {@linkplain #defaults() defaults'} and unused.
   *
   * <p>aws's {@code retry-mode=adaptive} is one: its strategy adapts the AWS SDK's adaptive {@code RetryStrategy},
   * whose {@code begin()} acquires the SDK's initial token ({@code first()} is the token's delay), {@code next}
   * refreshes it (empty when the SDK refuses) and {@code succeeded()} records the success.
   *
   * <pre>{@code
   * CloudApi.builder("aws", reader)
   *     .retryPolicy(RetryPolicy.delegating(maxAttempts, new AdaptiveEc2(maxAttempts)))
   *     .build();
   * }</pre>
   *
   * @throws IllegalArgumentException when {@code maxAttempts} is less than 1
   */
  public static RetryPolicy delegating(int maxAttempts, Strategy strategy) {
    return new RetryPolicy(new Builder().maxAttempts(maxAttempts), Objects.requireNonNull(strategy, "strategy"));
  }

  /**
   * Chooses the waits of a {@linkplain #delegating delegating} policy's calls: typically an adapter of a cloud SDK's
   * retry strategy. One instance serves every call of its {@link CloudApi}, from any thread, so what it keeps across
   * calls (a client-side rate limit that slows later calls after throttling, a retry quota) is shared by them.
   */
  @FunctionalInterface
  public interface Strategy {
    /** Begins one call, before its first attempt: the waits of its attempts. */
    Waits begin();
  }

  /** The waits of one call's attempts (none negative), asked in order on the thread that makes them. */
  public interface Waits {
    /** The wait before the first attempt (a client-side rate limit's), or zero. */
    Duration first();

    /**
     * The wait before the next attempt after one that failed with {@code failure}, which {@link CloudApi} found
     * {@linkplain ApiFailure#isRetryable() retryable} with attempts left; empty when the strategy will not retry
     * (its retry quota is spent), and the call fails with {@code failure}. {@code CloudApi} waits at least
     * {@code failure}'s {@link ApiFailure#retryAfter() Retry-After}.
     */
    Optional<Duration> next(ApiFailure failure);

    /** The last attempt succeeded (a rate limit may speed up again). */
    void succeeded();
  }

  /** A builder starting from {@link #defaults()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** The most attempts of one call, the first included; at least 1. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** The backoff before the second attempt (before jitter). */
  public Duration baseBackoff() {
    return baseBackoff;
  }

  /** The backoff before the second attempt when the API is throttling (before jitter); the base backoff unless set. */
  public Duration throttlingBackoff() {
    return throttlingBackoff;
  }

  /** The longest backoff (before jitter); a {@code Retry-After} may ask for longer. */
  public Duration maxBackoff() {
    return maxBackoff;
  }

  /** The waits of one call: the strategy's, or this policy's own backoff ({@link #waitAfter}). */
  Waits begin(DoubleSupplier random) {
    if (strategy != null) {
      return strategy.begin();
    }
    return new Waits() {
      private int failed;

      @Override
      public Duration first() {
        return Duration.ZERO;
      }

      @Override
      public Optional<Duration> next(ApiFailure failure) {
        return Optional.of(waitAfter(++failed, failure, random));
      }

      @Override
      public void succeeded() {}
    };
  }

  /**
   * The wait after failed attempt {@code attempt} (1 for the first): the API's {@code Retry-After}
   * when it sent one, else the jittered backoff.
   *
   * @param random a number in [0, 1) for the jitter
   */
  Duration waitAfter(int attempt, ApiFailure failure, DoubleSupplier random) {
    if (failure.retryAfter() != null) {
      return failure.retryAfter();
    }
    long ceiling = (failure.isThrottling() ? throttlingBackoff : baseBackoff).toNanos();
    for (int i = 1; i < attempt && ceiling < maxBackoff.toNanos(); i++) {
      ceiling *= 2;
    }
    ceiling = Math.min(ceiling, maxBackoff.toNanos());
    return Duration.ofNanos(ceiling / 2 + (long) (ceiling / 2 * random.getAsDouble()));
  }

  @Override
  public String toString() {
    if (strategy != null) {
      return "RetryPolicy{" + maxAttempts + " attempts, waits of " + strategy + "}";
    }
    return "RetryPolicy{" + maxAttempts + " attempts, backoff " + baseBackoff.toMillis() + " ms (throttled "
        + throttlingBackoff.toMillis() + " ms) to " + maxBackoff.toMillis() + " ms}";
  }

  /** Builds a {@link RetryPolicy}. */
  public static final class Builder {
    private int maxAttempts = 4;
    private Duration baseBackoff = Duration.ofMillis(200);
    private Duration throttlingBackoff;
    private Duration maxBackoff = Duration.ofSeconds(8);

    private Builder() {}

    /** The most attempts of one call, the first included (1: no retry). */
    public Builder maxAttempts(int attempts) {
      if (attempts < 1) {
        throw new IllegalArgumentException("maxAttempts must be at least 1, not " + attempts);
      }
      this.maxAttempts = attempts;
      return this;
    }

    /** The backoff before the second attempt, doubled for each next one. */
    public Builder baseBackoff(Duration backoff) {
      this.baseBackoff = positive(backoff, "baseBackoff");
      return this;
    }

    /**
     * The backoff before the second attempt when the API is throttling, doubled for each next one: a
     * quota that refills each minute is not helped by a quick retry.
     */
    public Builder throttlingBackoff(Duration backoff) {
      this.throttlingBackoff = positive(backoff, "throttlingBackoff");
      return this;
    }

    /** The longest backoff. */
    public Builder maxBackoff(Duration backoff) {
      this.maxBackoff = positive(backoff, "maxBackoff");
      return this;
    }

    /** @throws IllegalArgumentException when the longest backoff is shorter than the first */
    public RetryPolicy build() {
      for (Duration first : new Duration[] {baseBackoff, throttlingBackoff}) {
        if (first != null && maxBackoff.compareTo(first) < 0) {
          throw new IllegalArgumentException("maxBackoff " + maxBackoff + " is shorter than the first backoff " + first);
        }
      }
      return new RetryPolicy(this, null);
    }

    private static Duration positive(Duration d, String name) {
      Objects.requireNonNull(d, name);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, not " + d);
      }
      return d;
    }
  }
}
