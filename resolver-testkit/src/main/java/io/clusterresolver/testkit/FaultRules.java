package io.clusterresolver.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The faults a simulation was asked to inject, in the order added, each with the number of calls it
 * still applies to ({@link Integer#MAX_VALUE}: until cleared). Thread-safe.
 *
 * @param <F> the simulation's fault type
 */
final class FaultRules<F> {

  private final ToIntFunction<F> times;
  private final List<Object[]> rules = new ArrayList<>();

  /** @param times how many calls a new fault applies to */
  FaultRules(ToIntFunction<F> times) {
    this.times = times;
  }

  synchronized void add(F fault) {
    rules.add(new Object[] {fault, times.applyAsInt(fault)});
  }

  synchronized void clear() {
    rules.clear();
  }

  /** The first fault that matches and still applies (counting this call against it), or {@code null}. */
  @SuppressWarnings("unchecked")
  synchronized F take(Predicate<F> matches) {
    for (Object[] rule : rules) {
      F fault = (F) rule[0];
      int remaining = (Integer) rule[1];
      if (remaining > 0 && matches.test(fault)) {
        if (remaining != Integer.MAX_VALUE) {
          rule[1] = remaining - 1;
        }
        return fault;
      }
    }
    return null;
  }
}
