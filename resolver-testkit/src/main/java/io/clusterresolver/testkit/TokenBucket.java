package io.clusterresolver.testkit;

import java.util.function.LongSupplier;

/**
 * A token bucket, the way clouds meter API requests: it holds at most {@code capacity} tokens, gains
 * {@code refillPerSecond} tokens a second (continuously, up to the capacity), and a request is served
 * only when it can take a token; otherwise it is throttled (and takes none). EC2 meters
 * non-mutating actions ({@code Describe*}) per account and region with a bucket of 100 tokens
 * refilled at 20 a second ({@link #ec2NonMutating()}); Google per project and minute
 * ({@link #googlePerMinute}); Kubernetes clients by default at 5 a second after a burst of 10
 * ({@link #kubernetesClientDefault()}). A simulation shares one bucket among all its API calls. Thread-safe.
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

  /**
   * A Google Cloud request quota of {@code requestsPerMinute} per project, such as the Cloud TPU API's
   * read requests ({@code nodes.get}, {@code nodes.list}) for {@link SimulatedTpu#rateLimit}: the whole
   * minute's quota at once, refilled at a sixtieth of it a second. Google states its request quotas per
   * minute per project and enforces them per 60-second interval ("Compute Engine rate quotas",
   * cloud.google.com/compute/docs/api-rate-limits); the Cloud TPU API answers the excess with HTTP 429
   * {@code RESOURCE_EXHAUSTED}.
   * The Cloud TPU quotas page (cloud.google.com/tpu/docs/quota) publishes resource quotas (TensorCores
   * and chips per TPU version) but no request rate: the project's value is in the console (IAM &amp;
   * Admin &gt; Quotas, service {@code tpu.googleapis.com}), so it is an argument here, not a constant.
   * A continuous refill is slightly kinder than a fixed window; the burst is the same.
   */
  public static TokenBucket googlePerMinute(double requestsPerMinute) {
    return of(requestsPerMinute, requestsPerMinute / 60);
  }

  /**
   * client-go's default client-side limit, the one token bucket Kubernetes publishes: 10 requests at
   * once, then 5 a second ({@code DefaultQPS = 5.0}, {@code DefaultBurst = 10} in
   * {@code k8s.io/client-go/rest/config.go}, a {@code flowcontrol.NewTokenBucketRateLimiter}), what
   * {@code kubectl} and a controller get unless they raise it. The API server's own overload
   * protection, API Priority and Fairness (kubernetes.io/docs/concepts/cluster-administration/flow-control),
   * limits concurrency, not rate (seats per priority level from {@code --max-requests-inflight} and
   * {@code --max-mutating-requests-inflight}, plus queues), so it has no requests-per-second figure to
   * model; {@link SimulatedKubernetes#rateLimit} applies this bucket to every authenticated request and
   * rejects the excess the way APF does: 429 {@code TooManyRequests} with {@code Retry-After: 1}.
   */
  public static TokenBucket kubernetesClientDefault() {
    return of(10, 5);
  }

  /** Whether a simulation metered by {@code bucket} ({@code null}: not metered) throttles this request. */
  static boolean throttles(TokenBucket bucket) {
    return bucket != null && !bucket.tryTake();
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
