package io.clusterresolver.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The faults a simulation was asked to inject, in the order added, each with the number of calls it
 * still applies to ({@link Integer#MAX_VALUE}: until cleared). Thread-safe. Every simulation keeps
 * its faults here; what "matches a call" means is the simulation's, given to {@link #take}.
 *
 * @param <F> the simulation's fault type
 */
final class FaultRules<F> {

  private static final class Rule<F> {
    final F fault;
    int remaining;

    Rule(F fault, int remaining) {
      this.fault = fault;
      this.remaining = remaining;
    }
  }

  private final List<Rule<F>> rules = new ArrayList<>();

  /** Adds a fault for the next {@code times} matching calls ({@link Integer#MAX_VALUE}: until cleared). */
  synchronized void add(F fault, int times) {
    rules.add(new Rule<>(fault, times));
  }

  synchronized void clear() {
    rules.clear();
  }

  /** The first fault that matches and still applies (counting this call against it), or {@code null}. */
  synchronized F take(Predicate<F> matches) {
    for (Rule<F> rule : rules) {
      if (rule.remaining > 0 && matches.test(rule.fault)) {
        if (rule.remaining != Integer.MAX_VALUE) {
          rule.remaining--;
        }
        return rule.fault;
      }
    }
    return null;
  }
}
