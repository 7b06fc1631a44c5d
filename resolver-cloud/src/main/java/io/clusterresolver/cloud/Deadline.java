package io.clusterresolver.cloud;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.spi.ConfigProperty;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * An overall time limit for one resolve, across pages and retries: {@link CloudApi} retries within it
 * ({@link RetryPolicy}) and never starts a wait that would end after it, so a resolve never hangs past
 * it. Immutable.
 *
 * <pre>{@code
 * Deadline deadline = Deadline.after(config.duration("timeout"));
 * for (page : pages) {
 *   deadline.check(provider, "DescribeInstances");     // throws once time is up
 *   callWithTimeout(deadline.remaining());
 * }
 * }</pre>
 */
public final class Deadline {

  private final long endNanos;
  private final Duration budget;
  private final LongSupplier nanoTime;

  private Deadline(long endNanos, Duration budget, LongSupplier nanoTime) {
    this.endNanos = endNanos;
    this.budget = budget;
    this.nanoTime = nanoTime;
  }

  /** A deadline {@code budget} from now. */
  public static Deadline after(Duration budget) {
    return after(budget, System::nanoTime);
  }

  /** A deadline {@code budget} from now on {@code nanoTime} (a test's clock; {@link System#nanoTime} otherwise). */
  static Deadline after(Duration budget, LongSupplier nanoTime) {
    Objects.requireNonNull(budget, "budget");
    if (budget.isNegative() || budget.isZero()) {
      throw new IllegalArgumentException("A deadline needs a positive time budget, not " + budget);
    }
    return new Deadline(nanoTime.getAsLong() + budget.toNanos(), budget, nanoTime);
  }

  /** The total budget this deadline was made with. */
  public Duration budget() {
    return budget;
  }

  /** The time left, zero once expired. */
  public Duration remaining() {
    long left = endNanos - nanoTime.getAsLong();
    return left <= 0 ? Duration.ZERO : Duration.ofNanos(left);
  }

  /** Whether the time is up. */
  public boolean expired() {
    return endNanos - nanoTime.getAsLong() <= 0;
  }

  /**
   * Throws when the time is up.
   *
   * @throws ClusterResolverException naming the provider, the operation and the budget
   */
  public void check(String provider, String operation) {
    if (expired()) {
      throw timedOut(provider, operation, null);
    }
  }

  /** The error for an operation that ran out of time, naming the budget and how to raise it. */
  public ClusterResolverException timedOut(String provider, String operation, Throwable cause) {
    return new ClusterResolverException(provider + ": " + operation + " did not complete within the timeout of "
        + budget.toMillis() + " ms (raise " + ConfigProperty.PREFIX + provider + ".timeout if the API is slow)",
        cause);
  }

  @Override
  public String toString() {
    return "Deadline{" + remaining().toMillis() + " ms of " + budget.toMillis() + " ms left}";
  }
}
