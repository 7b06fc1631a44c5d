package io.clusterresolver.testkit;

import java.time.Duration;
import java.util.Objects;

/**
 * A fault a simulation injects, in terms every cloud shares: each simulation answers it in its own
 * cloud's shape (EC2's {@code RequestLimitExceeded}, Compute Engine's 403 {@code rateLimitExceeded},
 * ARM's 429 with {@code Retry-After}, …). The TCK's fault matrix hands these to
 * {@link ProviderContractTest#inject(Fault)}; a simulation takes them with its {@code inject(Fault)}.
 * Immutable: {@link #onOperation}, {@link #onPage}, {@link #times}, {@link #always},
 * {@link #retryAfter} and {@link #status} return changed copies.
 *
 * <pre>{@code
 * ec2.inject(Fault.throttled().times(2));                          // the next two API calls are throttled
 * gce.inject(Fault.serverError().onPage(3).always());              // page 3 of the member listing always fails
 * azure.inject(Fault.throttled().retryAfter(Duration.ofSeconds(7)).onOperation("ListNetworkInterfaces"));
 * tpu.inject(Fault.metadataGarbage().always());                    // the metadata server talks garbage
 * }</pre>
 *
 * <p>Which calls it hits: a fault without an operation hits every API call (never the metadata
 * server), or with a page, that page of the simulation's member listing; a metadata kind (or an API
 * kind {@linkplain #onOperation on} the simulation's metadata operation) hits the metadata server.
 *
 * @param kind what goes wrong
 * @param operation the operation it applies to, or {@code null} for any (see above)
 * @param page the page it applies to (1 = the first), or 0 for any
 * @param times how many matching calls it applies to; {@link Integer#MAX_VALUE}: until cleared
 * @param delay for {@link Kind#SLOW} and {@link Kind#METADATA_SLOW}: how late the answer comes
 * @param retryAfter the {@code Retry-After} of a throttling answer, where the cloud sends one
 * @param status the HTTP status asked for, or 0 for the cloud's usual one
 */
public record Fault(Kind kind, String operation, int page, int times, Duration delay, Duration retryAfter,
    int status) {

  /** What goes wrong. */
  public enum Kind {
    /** The API's own throttling answer (HTTP 429, 403 or 503 with the API's error body). */
    THROTTLED,
    /** HTTP 500 (or {@linkplain #status(int) 503}) with the API's error body. */
    SERVER_ERROR,
    /** The connection is reset before any response. */
    CONNECTION_RESET,
    /** A 200 answer whose body is cut off halfway. */
    TRUNCATED_BODY,
    /** A 200 answer whose body is not in the API's format at all. */
    MALFORMED_BODY,
    /** The right answer, after {@link Fault#delay()}. */
    SLOW,
    /** The API rejects the credentials (HTTP 401 or 403 with the API's error body). */
    CREDENTIALS_REJECTED,
    /** The metadata server does not answer (connection reset or refused). */
    METADATA_ABSENT,
    /** The metadata server answers after {@link Fault#delay()}. */
    METADATA_SLOW,
    /** The metadata server answers 200 with a body that is not what it serves. */
    METADATA_GARBAGE;

    /** Whether this fault hits the metadata server rather than the API. */
    public boolean metadata() {
      return this == METADATA_ABSENT || this == METADATA_SLOW || this == METADATA_GARBAGE;
    }
  }

  /**
   * A fault of the TCK's fault matrix.
   *
   * @param kind what goes wrong
   * @param page the page of the member listing it hits (1 = the first), or 0 for every call of the
   *     source of truth (listing, catalog and metadata calls alike, as the kind says)
   * @param persistent whether it lasts until the simulation's faults are cleared; otherwise it hits once
   * @param delay for {@link Kind#SLOW} and {@link Kind#METADATA_SLOW}: how late the answer comes
   */
  public Fault(Kind kind, int page, boolean persistent, Duration delay) {
    this(kind, null, page, persistent ? Integer.MAX_VALUE : 1, delay, Duration.ofSeconds(1), 0);
  }

  /** Validates the values. */
  public Fault {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(retryAfter, "retryAfter");
    if (page < 0) {
      throw new IllegalArgumentException("Pages count from 1 (0 = every call), not " + page);
    }
    if (times < 1) {
      throw new IllegalArgumentException("A fault must apply at least once, not " + times + " times");
    }
  }

  private static Fault of(Kind kind) {
    return new Fault(kind, 0, false, Duration.ZERO);
  }

  /** The API's throttling answer. */
  public static Fault throttled() {
    return of(Kind.THROTTLED);
  }

  /** The API's internal server error. */
  public static Fault serverError() {
    return of(Kind.SERVER_ERROR);
  }

  /** The connection is reset before any response (on the metadata server too, when {@linkplain #onOperation on} it). */
  public static Fault connectionReset() {
    return of(Kind.CONNECTION_RESET);
  }

  /** A 200 answer cut off halfway. */
  public static Fault truncatedBody() {
    return of(Kind.TRUNCATED_BODY);
  }

  /** A 200 answer that is not in the API's format (on the metadata server: a page that is not its). */
  public static Fault malformedBody() {
    return of(Kind.MALFORMED_BODY);
  }

  /** The right answer, {@code delay} late. */
  public static Fault slow(Duration delay) {
    return new Fault(Kind.SLOW, 0, false, delay);
  }

  /** The API rejects the credentials. */
  public static Fault credentialsRejected() {
    return of(Kind.CREDENTIALS_REJECTED);
  }

  /** The metadata server does not answer. */
  public static Fault metadataAbsent() {
    return of(Kind.METADATA_ABSENT);
  }

  /** The metadata server answers {@code delay} late. */
  public static Fault metadataSlow(Duration delay) {
    return new Fault(Kind.METADATA_SLOW, 0, false, delay);
  }

  /** The metadata server answers 200 with something that is not a metadata value. */
  public static Fault metadataGarbage() {
    return of(Kind.METADATA_GARBAGE);
  }

  /** Only for calls of this operation (the simulation's names: {@code DescribeInstances}, {@code nodes.get}, …). */
  public Fault onOperation(String operation) {
    return new Fault(kind, Objects.requireNonNull(operation, "operation"), page, times, delay, retryAfter, status);
  }

  /** Only for page {@code k} (1 = the first) of its operation, or of the simulation's member listing. */
  public Fault onPage(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("Pages count from 1, not " + k);
    }
    return new Fault(kind, operation, k, times, delay, retryAfter, status);
  }

  /** For the next {@code n} matching calls (1 by default). */
  public Fault times(int n) {
    return new Fault(kind, operation, page, n, delay, retryAfter, status);
  }

  /** For every matching call until the simulation's faults are cleared. */
  public Fault always() {
    return times(Integer.MAX_VALUE);
  }

  /** The {@code Retry-After} of a throttling answer, where the cloud sends one (1 second by default). */
  public Fault retryAfter(Duration retryAfter) {
    if (retryAfter.isNegative()) {
      throw new IllegalArgumentException("Retry-After must not be negative");
    }
    return new Fault(kind, operation, page, times, delay, retryAfter, status);
  }

  /**
   * The HTTP status, where the cloud answers this kind in more than one ({@code 0}: its usual one),
   * such as Compute Engine's throttling as 429 rather than 403, or an API's 503 rather than 500.
   */
  public Fault status(int status) {
    return new Fault(kind, operation, page, times, delay, retryAfter, status);
  }

  /** Whether it lasts until the simulation's faults are cleared. */
  public boolean persistent() {
    return times == Integer.MAX_VALUE;
  }

  /**
   * Whether it hits a call of {@code operation} on {@code page} in a simulation whose metadata
   * server is {@code metadataOperation} and whose member listing is {@code listing} ({@code null}: the
   * simulation has no paged member listing, so an unnamed fault hits every page).
   */
  boolean hits(String operation, int page, String metadataOperation, String listing) {
    String target = this.operation;
    if (target == null && kind.metadata()) {
      target = metadataOperation;
    } else if (target == null && this.page > 0) {
      target = listing;
    }
    boolean operationMatches = target == null
        ? !operation.equals(metadataOperation)
        : target.equals(operation);
    return operationMatches && (this.page == 0 || this.page == page || target == null);
  }

  @Override
  public String toString() {
    return kind + (operation == null ? "" : " on " + operation) + (page == 0 ? "" : " on page " + page)
        + (persistent() ? ", persistent" : times == 1 ? ", once" : ", " + times + " times")
        + (delay.isZero() ? "" : " (" + delay.toMillis() + " ms late)");
  }
}
