package io.clusterresolver.testkit;

import java.util.function.LongSupplier;

/**
 * A token bucket, the way clouds meter API requests: it holds at most {@code capacity} tokens, gains
 * {@code refillPerSecond} tokens a second (continuously, up to the capacity), and a request is served
 * only when it can take a token; otherwise it is throttled (and takes none). EC2 meters
 * non-mutating actions ({@code Describe*}) per account and region with a bucket of 100 tokens
 * refilled at 20 a second ({@link #ec2NonMutating()}); a simulation shares one bucket among all
 * its API calls. Thread-safe.
 *
 * <pre>{@code
 * TokenBucket bucket = TokenBucket.ec2NonMutating();
 * if (!bucket.tryTake()) { ... answer the cloud's throttling error ... }
 * }</pre>
 */
public final class TokenBucket {

  private final double capacity;
  private final double refillPerNano;
  private final LongSupplier nanoTime;
  private double tokens;
  private long last;
  private long served;
  private long throttled;

  private TokenBucket(double capacity, double refillPerSecond, LongSupplier nanoTime) {
    if (!(capacity >= 1) || !(refillPerSecond > 0)) {
      throw new IllegalArgumentException("A bucket needs a capacity of at least 1 and a positive refill rate, not "
          + capacity + " and " + refillPerSecond + "/s");
    }
    this.capacity = capacity;
    this.refillPerNano = refillPerSecond / 1e9;
    this.nanoTime = nanoTime;
    this.tokens = capacity;
    this.last = nanoTime.getAsLong();
  }

  /** A full bucket of {@code capacity} tokens refilled at {@code refillPerSecond}, on the system's clock. */
  public static TokenBucket of(double capacity, double refillPerSecond) {
    return new TokenBucket(capacity, refillPerSecond, System::nanoTime);
  }

  /** The same on another clock (nanoseconds, like {@link System#nanoTime()}): for simulated time. */
  public static TokenBucket of(double capacity, double refillPerSecond, LongSupplier nanoTime) {
    return new TokenBucket(capacity, refillPerSecond, nanoTime);
  }

  /** EC2's published bucket for non-mutating actions: 100 tokens, 20 a second. */
  public static TokenBucket ec2NonMutating() {
    return of(100, 20);
  }

  /** Takes a token if there is one: true when the request is served, false when it is throttled. */
  public synchronized boolean tryTake() {
    long now = nanoTime.getAsLong();
    tokens = Math.min(capacity, tokens + (now - last) * refillPerNano);
    last = now;
    if (tokens >= 1) {
      tokens -= 1;
      served++;
      return true;
    }
    throttled++;
    return false;
  }

  /** Requests served so far. */
  public synchronized long served() {
    return served;
  }

  /** Requests throttled so far. */
  public synchronized long throttled() {
    return throttled;
  }

  public double capacity() {
    return capacity;
  }

  public double refillPerSecond() {
    return refillPerNano * 1e9;
  }

  @Override
  public String toString() {
    return "TokenBucket{" + capacity + " tokens, " + refillPerSecond() + "/s}";
  }
}
