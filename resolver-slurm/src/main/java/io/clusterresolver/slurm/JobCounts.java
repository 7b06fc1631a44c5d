package io.clusterresolver.slurm;

import io.clusterresolver.ClusterResolverException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code jobs} property, such as {@code ps:1,worker:*}: job names with task counts, where
 * {@code *} (at most once) takes the tasks left over. Jobs take consecutive ranks in job-name
 * order (K8): with {@code worker:2,ps:1}, rank 0 is {@code ps} 0 and ranks 1-2 are {@code worker}.
 */
final class JobCounts {

  static final int REST = -1;

  /** Job name to count ({@link #REST} for {@code *}), sorted by name in code-point order. */
  private final Map<String, Integer> counts;
  private final String text;

  private JobCounts(Map<String, Integer> counts, String text) {
    this.counts = counts;
    this.text = text;
  }

  /**
   * Parses {@code name:count,...}.
   *
   * @param key the full property key, for messages
   * @throws IllegalArgumentException naming the key and the offending item
   */
  static JobCounts parse(String key, String text) {
    List<Map.Entry<String, Integer>> entries = new ArrayList<>();
    boolean rest = false;
    for (String rawItem : text.split(",", -1)) {
      String item = rawItem.trim();
      int colon = item.lastIndexOf(':');
      if (colon <= 0) {
        throw invalid(key, text, "item '" + item + "' is not name:count");
      }
      String name = item.substring(0, colon).trim();
      String count = item.substring(colon + 1).trim();
      int value;
      if (count.equals("*")) {
        if (rest) {
          throw invalid(key, text, "only one job may take the remaining tasks (*)");
        }
        rest = true;
        value = REST;
      } else {
        try {
          value = Integer.parseInt(count);
        } catch (NumberFormatException e) {
          throw invalid(key, text, "count '" + count + "' of job '" + name + "' is not a number or *");
        }
        if (value < 0) {
          throw invalid(key, text, "count of job '" + name + "' is negative");
        }
      }
      for (Map.Entry<String, Integer> entry : entries) {
        if (entry.getKey().equals(name)) {
          throw invalid(key, text, "job '" + name + "' is given twice");
        }
      }
      entries.add(Map.entry(name, value));
    }
    entries.sort(Map.Entry.comparingByKey(Comparator.naturalOrder()));
    Map<String, Integer> counts = new LinkedHashMap<>();
    entries.forEach(e -> counts.put(e.getKey(), e.getValue()));
    return new JobCounts(Collections.unmodifiableMap(counts), text);
  }

  private static IllegalArgumentException invalid(String key, String text, String problem) {
    return new IllegalArgumentException(key + ": '" + text + "' is not a list of jobs like ps:1,worker:* ("
        + problem + ")");
  }

  /**
   * Each job's task count for a step of {@code total} tasks, in job-name order.
   *
   * @throws ClusterResolverException when the jobs ask for more tasks than the step has
   */
  Map<String, Integer> resolve(int total, String source) {
    int explicit = 0;
    for (int count : counts.values()) {
      if (count != REST) {
        explicit += count;
      }
    }
    if (explicit > total) {
      throw new ClusterResolverException("Requested " + explicit + " tasks (clusterresolver.slurm.jobs="
          + text + ") but only " + total + " were assigned by Slurm (" + source + ")");
    }
    Map<String, Integer> resolved = new LinkedHashMap<>();
    for (Map.Entry<String, Integer> entry : counts.entrySet()) {
      resolved.put(entry.getKey(), entry.getValue() == REST ? total - explicit : entry.getValue());
    }
    return resolved;
  }

  @Override
  public String toString() {
    return text;
  }
}
