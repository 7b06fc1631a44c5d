package io.clusterresolver.slurm;

import io.clusterresolver.ConfigurationException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Slurm's compact tasks-per-node lists, as in {@code SLURM_STEP_TASKS_PER_NODE} and
 * {@code SLURM_TASKS_PER_NODE}: {@code 2(x3),1} means 2, 2, 2, 1 tasks on four nodes.
 */
public final class TasksPerNode {

  /** The largest total a list may expand to: more nodes than any Slurm cluster has. */
  public static final int MAX_NODES = 1 << 20;

  private TasksPerNode() {}

  /**
   * Expands a tasks-per-node list: comma-separated items {@code count} or {@code count(xrepeat)},
   * without blanks. Counts may be zero; a repeat is at least 1.
   *
   * @throws IllegalArgumentException naming the list and the offending item when it is malformed
   */
  public static List<Integer> expand(String list) {
    Objects.requireNonNull(list, "list");
    List<Integer> counts = new ArrayList<>();
    for (String item : list.split(",", -1)) {
      int paren = item.indexOf('(');
      int count;
      int repeat = 1;
      if (paren < 0) {
        count = parseNumber(list, item, item);
      } else {
        count = parseNumber(list, item, item.substring(0, paren));
        if (!item.startsWith("(x", paren) || !item.endsWith(")")) {
          throw invalid(list, item);
        }
        repeat = parseNumber(list, item, item.substring(paren + 2, item.length() - 1));
        if (repeat < 1) {
          throw invalid(list, item);
        }
      }
      if (counts.size() + (long) repeat > MAX_NODES) {
        throw new ConfigurationException(
            "Tasks-per-node list '" + list + "' describes more than " + MAX_NODES + " nodes");
      }
      for (int r = 0; r < repeat; r++) {
        counts.add(count);
      }
    }
    return Collections.unmodifiableList(counts);
  }

  /**
   * A non-negative decimal number of ASCII digits, no sign, no blanks: what Slurm writes (D3:
   * Python's {@code int()} also takes other scripts' digits, which no Slurm produces).
   */
  private static int parseNumber(String list, String item, String text) {
    if (text.isEmpty()) {
      throw invalid(list, item);
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        throw invalid(list, item);
      }
    }
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw invalid(list, item);
    }
  }

  private static IllegalArgumentException invalid(String list, String item) {
    return new ConfigurationException("Invalid tasks-per-node list '" + list + "': item '" + item
        + "' is not a count or count(xrepeat), like 2(x3),1");
  }
}
