package io.clusterresolver.internal;

import java.util.Collection;
import java.util.Optional;

/**
 * "Did you mean …?" for names users type: property keys, environment variables, provider names.
 * A typo must never be ignored silently, and the fix should be one glance away.
 */
public final class Suggestions {

  private Suggestions() {}

  /**
   * The candidate closest to {@code input} by edit distance, when it is close enough to be a typo
   * of it (at most two edits, or a quarter of the candidate's length for long names).
   */
  public static Optional<String> closest(String input, Collection<String> candidates) {
    String closest = null;
    int best = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int distance = editDistance(input, candidate);
      if (distance < best) {
        best = distance;
        closest = candidate;
      }
    }
    return closest != null && best <= Math.max(2, closest.length() / 4) && isEdit(input, closest, best)
        ? Optional.of(closest) : Optional.empty();
  }

  /**
   * Whether {@code distance} edits are a typo rather than another word: past the shared prefix (a
   * key's {@code clusterresolver.local.} part), the edits must leave something of the name, so
   * {@code xyz} does not suggest {@code job} while {@code regoin} suggests {@code region}.
   */
  private static boolean isEdit(String input, String candidate, int distance) {
    if (distance <= 1 || isTransposition(input, candidate)) {
      return true;
    }
    int common = 0;
    while (common < input.length() && common < candidate.length() && input.charAt(common) == candidate.charAt(common)) {
      common++;
    }
    return distance < Math.max(input.length(), candidate.length()) - common;
  }

  /** Whether the two differ only by two neighbouring letters swapped ({@code locla}, {@code local}). */
  private static boolean isTransposition(String a, String b) {
    if (a.length() != b.length()) {
      return false;
    }
    int first = 0;
    while (first < a.length() && a.charAt(first) == b.charAt(first)) {
      first++;
    }
    return first + 1 < a.length() && a.charAt(first) == b.charAt(first + 1) && a.charAt(first + 1) == b.charAt(first)
        && a.substring(first + 2).equals(b.substring(first + 2));
  }

  /** Levenshtein distance. */
  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
