package io.clusterresolver.testkit;

import java.time.Duration;
import java.util.Objects;

/**
 * A fault {@link SimulatedAzure} injects into its Resource Manager answers, like {@link Ec2Fault}.
 * Immutable: {@link #onOperation}, {@link #onPage} and {@link #times} return changed copies.
 *
 * <pre>{@code
 * azure.inject(AzureFault.throttled(2).times(3));                         // 429, Retry-After: 2, three times
 * azure.inject(AzureFault.internalError().onOperation("ListNetworkInterfaces").onPage(2).always());
 * azure.inject(AzureFault.malformedJson().onOperation(AzureFault.IMDS).always());   // IMDS talks garbage
 * }</pre>
 *
 * <p>A fault without an operation hits every Resource Manager call, never IMDS; IMDS faults name
 * {@link #IMDS} (connection reset, slow, malformed JSON).
 */
public final class AzureFault extends FaultSpec<AzureFault.Kind, AzureFault> {

  /** What goes wrong. */
  public enum Kind {
    /** HTTP 429 {@code TooManyRequests} with {@code Retry-After} and {@code x-ms-ratelimit-remaining-subscription-reads: 0}. */
    THROTTLED,
    /** HTTP 500 with ARM's {@code InternalServerError} body. */
    INTERNAL_ERROR,
    /** The connection is reset before any response. */
    CONNECTION_RESET,
    /** HTTP 403 {@code AuthorizationFailed}: the caller's identity may not read the resources. */
    AUTHORIZATION_FAILED,
    /** A 200 answer whose JSON is cut off halfway. */
    TRUNCATED_JSON,
    /** A 200 answer whose body is not JSON at all. */
    MALFORMED_JSON,
    /** The right answer, after a delay. */
    SLOW
  }

  /** The operation name of every Instance Metadata Service request. */
  public static final String IMDS = "IMDS";

  private final int retryAfterSeconds;

  private AzureFault(Kind kind, String operation, int page, int times, Duration delay, int retryAfterSeconds) {
    super(kind, operation, page, times, delay);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** 429 with {@code Retry-After: seconds}. */
  public static AzureFault throttled(int retryAfterSeconds) {
    if (retryAfterSeconds < 0) {
      throw new IllegalArgumentException("Retry-After must not be negative");
    }
    return new AzureFault(Kind.THROTTLED, null, 0, 1, Duration.ZERO, retryAfterSeconds);
  }

  public static AzureFault internalError() {
    return new AzureFault(Kind.INTERNAL_ERROR, null, 0, 1, Duration.ZERO, 0);
  }

  /** 403 {@code AuthorizationFailed}, as ARM answers an identity without the Reader role. */
  public static AzureFault authorizationFailed() {
    return new AzureFault(Kind.AUTHORIZATION_FAILED, null, 0, 1, Duration.ZERO, 0);
  }

  public static AzureFault connectionReset() {
    return new AzureFault(Kind.CONNECTION_RESET, null, 0, 1, Duration.ZERO, 0);
  }

  public static AzureFault truncatedJson() {
    return new AzureFault(Kind.TRUNCATED_JSON, null, 0, 1, Duration.ZERO, 0);
  }

  public static AzureFault malformedJson() {
    return new AzureFault(Kind.MALFORMED_JSON, null, 0, 1, Duration.ZERO, 0);
  }

  /** A correct answer that arrives after {@code delay}. */
  public static AzureFault slow(Duration delay) {
    return new AzureFault(Kind.SLOW, null, 0, 1, Objects.requireNonNull(delay), 0);
  }

  /** Only for this operation ({@code ListVirtualMachines}, {@code ListNetworkInterfaces}, …); any by default. */
  public AzureFault onOperation(String operation) {
    return withOperation(operation);
  }

  /** Only for page {@code k} (1 = the first) of a listing ({@code ListVirtualMachines} unless an operation is set). */
  public AzureFault onPage(int k) {
    return withPage(k, "ListVirtualMachines");
  }

  /** For the next {@code n} matching calls (1 by default). */
  public AzureFault times(int n) {
    return withTimes(n);
  }

  /** For every matching call until {@link SimulatedAzure#clearFaults()}. */
  public AzureFault always() {
    return withAlways();
  }

  public Kind kind() {
    return kind;
  }

  /** The operation it applies to, or {@code null} for any. */
  public String operation() {
    return operation;
  }

  /** The {@code Retry-After} of a {@link Kind#THROTTLED} answer, in seconds. */
  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }

  @Override
  AzureFault copy(String operation, int page, int times) {
    return new AzureFault(kind, operation, page, times, delay, retryAfterSeconds);
  }

  @Override
  String metadataOperation() {
    return IMDS;
  }
}
