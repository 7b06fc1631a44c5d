package io.clusterresolver.testkit;

import java.time.Duration;
import java.util.Objects;

/**
 * A fault {@link SimulatedTpu} injects into its Cloud TPU API answers: the same kinds as
 * {@link Ec2Fault}, in Google's shapes. Immutable: {@link #onOperation}, {@link #onPage} and
 * {@link #times} return changed copies.
 *
 * <pre>{@code
 * tpu.inject(TpuFault.resourceExhausted().times(2));       // the next two calls are throttled (429)
 * tpu.inject(TpuFault.internalError().always());           // every call fails with 500 INTERNAL
 * tpu.inject(TpuFault.connectionReset().onOperation(SimulatedTpu.NODES_LIST).onPage(2));
 * }</pre>
 */
public final class TpuFault extends FaultSpec<TpuFault.Kind, TpuFault> {

  /** What goes wrong. */
  public enum Kind {
    /** HTTP 429 with Google's JSON error {@code RESOURCE_EXHAUSTED} (throttling, quota). */
    RESOURCE_EXHAUSTED,
    /** HTTP 500 with Google's JSON error {@code INTERNAL}. */
    INTERNAL_ERROR,
    /** HTTP 503 with Google's JSON error {@code UNAVAILABLE}. */
    UNAVAILABLE,
    /** HTTP 403 with Google's JSON error {@code PERMISSION_DENIED} (credentials without the permission). */
    PERMISSION_DENIED,
    /** The connection is reset before any response. */
    CONNECTION_RESET,
    /** A 200 answer whose JSON is cut off halfway. */
    TRUNCATED_JSON,
    /** A 200 answer whose body is not JSON at all. */
    MALFORMED_JSON,
    /** The right answer, after a delay. */
    SLOW
  }

  private TpuFault(Kind kind, String operation, int page, int times, Duration delay) {
    super(kind, operation, page, times, delay);
  }

  public static TpuFault resourceExhausted() {
    return new TpuFault(Kind.RESOURCE_EXHAUSTED, null, 0, 1, Duration.ZERO);
  }

  public static TpuFault internalError() {
    return new TpuFault(Kind.INTERNAL_ERROR, null, 0, 1, Duration.ZERO);
  }

  public static TpuFault unavailable() {
    return new TpuFault(Kind.UNAVAILABLE, null, 0, 1, Duration.ZERO);
  }

  public static TpuFault permissionDenied() {
    return new TpuFault(Kind.PERMISSION_DENIED, null, 0, 1, Duration.ZERO);
  }

  public static TpuFault connectionReset() {
    return new TpuFault(Kind.CONNECTION_RESET, null, 0, 1, Duration.ZERO);
  }

  public static TpuFault truncatedJson() {
    return new TpuFault(Kind.TRUNCATED_JSON, null, 0, 1, Duration.ZERO);
  }

  public static TpuFault malformedJson() {
    return new TpuFault(Kind.MALFORMED_JSON, null, 0, 1, Duration.ZERO);
  }

  /** A correct answer that arrives after {@code delay}. */
  public static TpuFault slow(Duration delay) {
    return new TpuFault(Kind.SLOW, null, 0, 1, Objects.requireNonNull(delay));
  }

  /**
   * Only for this operation: {@link SimulatedTpu#NODES_GET}, {@link SimulatedTpu#NODES_LIST}, or
   * {@link SimulatedTpu#METADATA} (the metadata server: {@link #connectionReset()}, {@link #slow} and
   * {@link #malformedJson()} as a 200 answer that is not a metadata value); any API call by default.
   */
  public TpuFault onOperation(String operation) {
    return withOperation(operation);
  }

  /** Only for page {@code k} (1 = the first) of {@code nodes.list}. */
  public TpuFault onPage(int k) {
    return withPage(k, SimulatedTpu.NODES_LIST);
  }

  /** For the next {@code n} matching calls (1 by default). */
  public TpuFault times(int n) {
    return withTimes(n);
  }

  /** For every matching call until {@link SimulatedTpu#clearFaults()}. */
  public TpuFault always() {
    return withAlways();
  }

  public Kind kind() {
    return kind;
  }

  /** The operation it applies to, or {@code null} for any API call. */
  public String operation() {
    return operation;
  }

  @Override
  TpuFault copy(String operation, int page, int times) {
    return new TpuFault(kind, operation, page, times, delay);
  }

  @Override
  String metadataOperation() {
    return SimulatedTpu.METADATA;
  }
}
