package io.clusterresolver.testkit;

import java.time.Duration;
import java.util.Objects;

/**
 * A fault {@link SimulatedGce} injects into its Compute Engine API answers — the same kinds as
 * {@link Ec2Fault}, in Compute Engine's own shape. Immutable: {@link #onOperation}, {@link #onPage}
 * and {@link #times} return changed copies.
 *
 * <pre>{@code
 * gce.inject(GceFault.rateLimitExceeded().times(2));                 // the next two calls get 429
 * gce.inject(GceFault.rateQuotaExceeded());                          // 403 rateLimitExceeded, Compute Engine's quota answer
 * gce.inject(GceFault.backendError().onPage(3).always());            // page 3 of the listing always fails
 * gce.inject(GceFault.connectionReset().onOperation("machineTypes.get"));
 * gce.inject(GceFault.malformedJson().onOperation(GceFault.METADATA).always());  // the metadata server talks garbage
 * }</pre>
 */
public final class GceFault extends FaultSpec<GceFault.Kind, GceFault> {

  /** What goes wrong. */
  public enum Kind {
    /** HTTP 429 with reason {@code rateLimitExceeded} (status {@code RESOURCE_EXHAUSTED}): throttling. */
    RATE_LIMIT_EXCEEDED,
    /**
     * HTTP 403 with reason {@code rateLimitExceeded} (domain {@code usageLimits}, status
     * {@code PERMISSION_DENIED}): how Compute Engine answers a project over a per-minute rate quota
     * ("Compute Engine rate quotas", cloud.google.com/compute/api-quota). Throttling, not a permission.
     */
    RATE_QUOTA_EXCEEDED,
    /** HTTP 500 with reason {@code backendError} (status {@code INTERNAL}). */
    BACKEND_ERROR,
    /** The connection is reset before any response. */
    CONNECTION_RESET,
    /** A 200 answer whose JSON is cut off halfway. */
    TRUNCATED_JSON,
    /** A 200 answer whose body is not JSON at all. */
    MALFORMED_JSON,
    /** The right answer, after a delay. */
    SLOW,
    /** HTTP 401 with reason {@code authError} (status {@code UNAUTHENTICATED}): credentials rejected. */
    AUTH_FAILURE
  }

  /** The listing operations a page number applies to. */
  static final String LISTING = "instances.aggregatedList";

  /**
   * The pseudo-operation of the metadata server: a fault {@linkplain #onOperation on} it hits every
   * metadata request (a fault for any operation never does). Reset, slow, and (truncated or malformed)
   * a 200 page that is not the metadata server's.
   */
  public static final String METADATA = "metadata";

  private GceFault(Kind kind, String operation, int page, int times, Duration delay) {
    super(kind, operation, page, times, delay);
  }

  public static GceFault rateLimitExceeded() {
    return new GceFault(Kind.RATE_LIMIT_EXCEEDED, null, 0, 1, Duration.ZERO);
  }

  /** Compute Engine's answer to a project over its rate quota: 403 {@code rateLimitExceeded} (see {@link Kind}). */
  public static GceFault rateQuotaExceeded() {
    return new GceFault(Kind.RATE_QUOTA_EXCEEDED, null, 0, 1, Duration.ZERO);
  }

  public static GceFault backendError() {
    return new GceFault(Kind.BACKEND_ERROR, null, 0, 1, Duration.ZERO);
  }

  public static GceFault connectionReset() {
    return new GceFault(Kind.CONNECTION_RESET, null, 0, 1, Duration.ZERO);
  }

  public static GceFault truncatedJson() {
    return new GceFault(Kind.TRUNCATED_JSON, null, 0, 1, Duration.ZERO);
  }

  public static GceFault malformedJson() {
    return new GceFault(Kind.MALFORMED_JSON, null, 0, 1, Duration.ZERO);
  }

  public static GceFault authFailure() {
    return new GceFault(Kind.AUTH_FAILURE, null, 0, 1, Duration.ZERO);
  }

  /** A correct answer that arrives after {@code delay}. */
  public static GceFault slow(Duration delay) {
    return new GceFault(Kind.SLOW, null, 0, 1, Objects.requireNonNull(delay));
  }

  /**
   * Only for calls of this operation: {@code instances.aggregatedList}, {@code instances.list},
   * {@code instances.get}, {@code instanceGroups.listInstances} or {@code machineTypes.get}; any by default.
   */
  public GceFault onOperation(String operation) {
    return withOperation(operation);
  }

  /** Only for page {@code k} (1 = the first) of a listing ({@code instances.aggregatedList} unless another is named). */
  public GceFault onPage(int k) {
    return withPage(k, LISTING);
  }

  /** For the next {@code n} matching calls (1 by default). */
  public GceFault times(int n) {
    return withTimes(n);
  }

  /** For every matching call until {@link SimulatedGce#clearFaults()}. */
  public GceFault always() {
    return withAlways();
  }

  public Kind kind() {
    return kind;
  }

  /** The operation it applies to, or {@code null} for any. */
  public String operation() {
    return operation;
  }

  @Override
  GceFault copy(String operation, int page, int times) {
    return new GceFault(kind, operation, page, times, delay);
  }

  @Override
  String metadataOperation() {
    return METADATA;
  }
}
