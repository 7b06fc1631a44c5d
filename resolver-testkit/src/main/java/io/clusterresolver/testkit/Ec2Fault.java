package io.clusterresolver.testkit;

import java.time.Duration;
import java.util.Objects;

/**
 * A fault {@link SimulatedEc2} injects into its EC2 API answers. Immutable: {@link #onAction},
 * {@link #onPage} and {@link #times} return changed copies.
 *
 * <pre>{@code
 * ec2.inject(Ec2Fault.requestLimitExceeded().times(2));          // the next two calls are throttled
 * ec2.inject(Ec2Fault.internalError().onPage(3).always());       // page 3 of DescribeInstances always fails
 * ec2.inject(Ec2Fault.connectionReset().onAction("DescribeInstanceTypes"));
 * ec2.inject(Ec2Fault.malformedXml().onAction(Ec2Fault.IMDS).always());   // the metadata service talks garbage
 * }</pre>
 */
public final class Ec2Fault extends FaultSpec<Ec2Fault.Kind, Ec2Fault> {

  /**
   * The pseudo-action of the instance metadata service: a fault {@linkplain #onAction on} it hits
   * every IMDS request (a fault for any action never does).
   */
  public static final String IMDS = "IMDS";

  /** What goes wrong. */
  public enum Kind {
    /** HTTP 503 with EC2's {@code RequestLimitExceeded} error XML (throttling). */
    REQUEST_LIMIT_EXCEEDED,
    /** HTTP 500 with EC2's {@code InternalError} error XML. */
    INTERNAL_ERROR,
    /** The connection is reset before any response. */
    CONNECTION_RESET,
    /** A 200 answer whose XML is cut off halfway. */
    TRUNCATED_XML,
    /** A 200 answer whose body is not XML at all. */
    MALFORMED_XML,
    /** The right answer, after a delay. */
    SLOW,
    /** HTTP 401 with EC2's {@code AuthFailure} error XML (credentials rejected). */
    AUTH_FAILURE
  }

  private Ec2Fault(Kind kind, String action, int page, int times, Duration delay) {
    super(kind, action, page, times, delay);
  }

  public static Ec2Fault requestLimitExceeded() {
    return new Ec2Fault(Kind.REQUEST_LIMIT_EXCEEDED, null, 0, 1, Duration.ZERO);
  }

  public static Ec2Fault internalError() {
    return new Ec2Fault(Kind.INTERNAL_ERROR, null, 0, 1, Duration.ZERO);
  }

  public static Ec2Fault connectionReset() {
    return new Ec2Fault(Kind.CONNECTION_RESET, null, 0, 1, Duration.ZERO);
  }

  public static Ec2Fault truncatedXml() {
    return new Ec2Fault(Kind.TRUNCATED_XML, null, 0, 1, Duration.ZERO);
  }

  public static Ec2Fault malformedXml() {
    return new Ec2Fault(Kind.MALFORMED_XML, null, 0, 1, Duration.ZERO);
  }

  public static Ec2Fault authFailure() {
    return new Ec2Fault(Kind.AUTH_FAILURE, null, 0, 1, Duration.ZERO);
  }

  /** A correct answer that arrives after {@code delay}. */
  public static Ec2Fault slow(Duration delay) {
    return new Ec2Fault(Kind.SLOW, null, 0, 1, Objects.requireNonNull(delay));
  }

  /** Only for calls of this action ({@code DescribeInstances}, …); any action by default. */
  public Ec2Fault onAction(String action) {
    return withOperation(action);
  }

  /** Only for page {@code k} (1 = the first) of {@code DescribeInstances}. */
  public Ec2Fault onPage(int k) {
    return withPage(k, "DescribeInstances");
  }

  /** For the next {@code n} matching calls (1 by default). */
  public Ec2Fault times(int n) {
    return withTimes(n);
  }

  /** For every matching call until {@link SimulatedEc2#clearFaults()}. */
  public Ec2Fault always() {
    return withAlways();
  }

  public Kind kind() {
    return kind;
  }

  /** The action it applies to, or {@code null} for any. */
  public String action() {
    return operation;
  }

  @Override
  Ec2Fault copy(String action, int page, int times) {
    return new Ec2Fault(kind, action, page, times, delay);
  }

  @Override
  String metadataOperation() {
    return IMDS;
  }
}
