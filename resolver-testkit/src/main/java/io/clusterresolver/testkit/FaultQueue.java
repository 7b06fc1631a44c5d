package io.clusterresolver.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * A simulation's injected faults, checked in the order added, each used up after its number of
 * times ({@link Integer#MAX_VALUE}: until cleared). Thread-safe.
 *
 * @param <F> the simulation's fault type
 */
final class FaultQueue<F> {

  /** Whether a fault applies to a call of an operation on a page. */
  interface Matcher<F> {
    boolean matches(F fault, String operation, int page);
  }

  private final Matcher<F> matcher;
  private final ToIntFunction<F> times;
  private final List<Rule<F>> rules = new ArrayList<>();

  FaultQueue(Matcher<F> matcher, ToIntFunction<F> times) {
    this.matcher = matcher;
    this.times = times;
  }

  private static final class Rule<F> {
    final F fault;
    int remaining;

    Rule(F fault, int remaining) {
      this.fault = fault;
      this.remaining = remaining;
    }
  }

  synchronized void add(F fault) {
    rules.add(new Rule<>(fault, times.applyAsInt(fault)));
  }

  synchronized void clear() {
    rules.clear();
  }

  /** The first fault for this call, used once; {@code null} when none applies. */
  synchronized F take(String operation, int page) {
    for (Rule<F> rule : rules) {
      if (rule.remaining > 0 && matcher.matches(rule.fault, operation, page)) {
        if (rule.remaining != Integer.MAX_VALUE) {
          rule.remaining--;
        }
        return rule.fault;
      }
    }
    return null;
  }
}
