package io.clusterresolver.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Slurm's node lists, tasks-per-node lists and {@code CUDA_VISIBLE_DEVICES}, read by code of the
 * oracle's own: it shares nothing with {@code resolver-slurm} (no {@code Hostlist}, no
 * {@code TasksPerNode}), so a bug there cannot hide in the expectation. It reads only the forms
 * Slurm writes ({@code node[1,3-4]}, {@code 2(x3),1}) and refuses anything else.
 */
final class SlurmText {

  private static final Pattern BRACKETED = Pattern.compile("([^\\[\\]]*)\\[([0-9,\\-]+)\\]");
  private static final Pattern PLAIN = Pattern.compile("[^\\[\\],]+");
  private static final Pattern COUNT = Pattern.compile("([0-9]+)(?:\\(x([0-9]+)\\))?");

  private SlurmText() {}

  /** {@code n[1-3],gpu-01} to n1, n2, n3, gpu-01: one bracket group per item, zero padding as written. */
  static List<String> hosts(String list) {
    List<String> hosts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i <= list.length(); i++) {
      char c = i < list.length() ? list.charAt(i) : ',';
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth--;
      } else if (c == ',' && depth == 0) {
        item(list.substring(start, i), hosts);
        start = i + 1;
      }
    }
    return hosts;
  }

  private static void item(String item, List<String> hosts) {
    Matcher bracketed = BRACKETED.matcher(item);
    if (bracketed.matches()) {
      for (String range : bracketed.group(2).split(",")) {
        String[] bounds = range.split("-");
        int lo = Integer.parseInt(bounds[0]);
        int hi = bounds.length == 2 ? Integer.parseInt(bounds[1]) : lo;
        for (int n = lo; n <= hi; n++) {
          String digits = Integer.toString(n);
          while (digits.length() < bounds[0].length()) {
            digits = "0" + digits;
          }
          hosts.add(bracketed.group(1) + digits);
        }
      }
    } else if (PLAIN.matcher(item).matches()) {
      hosts.add(item);
    } else {
      throw new IllegalArgumentException("the oracle reads no node list item '" + item + "'");
    }
  }

  /** {@code 2(x3),1} to 2, 2, 2, 1. */
  static List<Integer> counts(String list) {
    List<Integer> counts = new ArrayList<>();
    for (String item : list.split(",")) {
      Matcher m = COUNT.matcher(item);
      if (!m.matches()) {
        throw new IllegalArgumentException("the oracle reads no tasks-per-node item '" + item + "'");
      }
      int repeat = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
      for (int r = 0; r < repeat; r++) {
        counts.add(Integer.parseInt(m.group(1)));
      }
    }
    return counts;
  }

  /** The ids CUDA shows for a {@code CUDA_VISIBLE_DEVICES} value: none for "" or from a "-1" on. */
  static List<String> cudaIds(String value) {
    List<String> ids = new ArrayList<>();
    for (String id : value.split(",")) {
      if (id.trim().equals("-1")) {
        break;
      }
      if (!id.isBlank()) {
        ids.add(id.trim());
      }
    }
    return ids;
  }
}
