package io.clusterresolver.testkit;

import java.time.Duration;
import java.util.Objects;

/**
 * A fault of the TCK's fault matrix, in terms every cloud shares: the provider's test suite turns it
 * into its simulation's own shape (EC2's {@code RequestLimitExceeded}, Google's 429
 * {@code rateLimitExceeded}, ARM's 429 with {@code Retry-After}, …) in
 * {@link ProviderContractTest#inject(Fault)}.
 *
 * @param kind what goes wrong
 * @param page the page of the member listing it hits (1 = the first), or 0 for every call of the
 *     source of truth (listing, catalog and metadata calls alike, as the kind says)
 * @param persistent whether it lasts until {@link ProviderContractTest#heal()}; otherwise it hits once
 * @param delay for {@link Kind#SLOW} and {@link Kind#METADATA_SLOW}: how late the answer comes
 */
public record Fault(Kind kind, int page, boolean persistent, Duration delay) {

  /** What goes wrong. */
  public enum Kind {
    /** The API's own throttling answer (HTTP 429 or 503 with the API's error body). */
    THROTTLED,
    /** HTTP 500 with the API's error body. */
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

  public Fault {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(delay, "delay");
    if (page < 0) {
      throw new IllegalArgumentException("Pages count from 1 (0 = every call), not " + page);
    }
  }

  @Override
  public String toString() {
    return kind + (page == 0 ? "" : " on page " + page) + (persistent ? ", persistent" : ", once")
        + (delay.isZero() ? "" : " (" + delay.toMillis() + " ms late)");
  }
}
