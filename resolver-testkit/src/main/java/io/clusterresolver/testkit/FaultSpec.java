package io.clusterresolver.testkit;

import java.time.Duration;
import java.util.Objects;

/**
 * What every simulation's fault description shares: a kind, the operation and page it targets, how
 * many calls it applies to and a delay. Immutable; the public fault classes ({@link Ec2Fault},
 * {@link GceFault}, {@link TpuFault}, {@link AzureFault}) keep their own public methods, with their
 * own names and return types, and delegate to the helpers here.
 *
 * @param <K> the fault's kind
 * @param <F> the concrete fault type, so the copy-with helpers return it
 */
abstract class FaultSpec<K extends Enum<K>, F extends FaultSpec<K, F>> {

  final K kind;
  /** {@code null}: any API operation (never the metadata service). */
  final String operation;
  /** 0: any page. */
  final int page;
  /** {@link Integer#MAX_VALUE}: until the simulation's faults are cleared. */
  final int times;
  final Duration delay;

  FaultSpec(K kind, String operation, int page, int times, Duration delay) {
    this.kind = kind;
    this.operation = operation;
    this.page = page;
    this.times = times;
    this.delay = delay;
  }

  /** A copy with these targeting fields; the subclass carries over its kind, delay and own fields. */
  abstract F copy(String operation, int page, int times);

  /**
   * The pseudo-operation of the simulation's metadata service. A fault hits it only when it names it:
   * a fault for any operation is meant for the API, not for the metadata service.
   */
  abstract String metadataOperation();

  final F withOperation(String operation) {
    return copy(Objects.requireNonNull(operation), page, times);
  }

  /** Page {@code k} of this fault's operation, or of {@code listing} when it has none yet. */
  final F withPage(int k, String listing) {
    if (k < 1) {
      throw new IllegalArgumentException("Pages count from 1, not " + k);
    }
    return copy(operation == null ? listing : operation, k, times);
  }

  final F withTimes(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("A fault must apply at least once, not " + n + " times");
    }
    return copy(operation, page, n);
  }

  final F withAlways() {
    return copy(operation, page, Integer.MAX_VALUE);
  }

  /** The page it applies to, or 0 for any. */
  public int page() {
    return page;
  }

  public int times() {
    return times;
  }

  public Duration delay() {
    return delay;
  }

  boolean matches(String operation, int page) {
    boolean operationMatches = this.operation == null
        ? !metadataOperation().equals(operation)
        : this.operation.equals(operation);
    return operationMatches && (this.page == 0 || this.page == page);
  }

  @Override
  public String toString() {
    return kind + (operation == null ? "" : " on " + operation) + (page == 0 ? "" : " page " + page)
        + (times == Integer.MAX_VALUE ? " always" : " x" + times);
  }
}
