package io.clusterresolver.cloud;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How tasks get their job name. One of:
 * <ul>
 *   <li>{@link #fixed(String)}: every task in one job (default {@code worker});
 *   <li>{@link #fromTag(String)}: the job is the value of a member's tag or label; members without
 *       it are left out of the cluster (and the resolver logs them);
 *   <li>{@link #counts(Map)}: counts like {@code chief:1,worker:*}. Jobs take consecutive tasks in
 *       <em>job-name order</em> (code points), whatever order they are written in — TensorFlow's
 *       Slurm rule (K8), the same for every provider: with {@code worker:2,ps:1} task 0 is
 *       {@code ps} 0 and tasks 1-2 are {@code worker}. A {@code *} (at most one) takes whatever the
 *       fixed counts leave; without it, tasks beyond the sum are not in the cluster. Fewer tasks
 *       than the fixed counts need is an error, never a smaller cluster.
 * </ul>
 */
public final class JobAssignment {

  /** The count meaning "all remaining tasks". */
  public static final int REST = -1;

  /** The grammar of job counts in one sentence, for property descriptions. */
  public static final String GRAMMAR = "Job counts like chief:1,worker:* (* = the remaining tasks);"
      + " jobs take consecutive tasks in job-name order";

  private static final Pattern JOB_NAME = Pattern.compile("[A-Za-z0-9_.\\-/]+");

  private final String fixedJob;
  private final String tag;
  private final Map<String, Integer> counts;

  private JobAssignment(String fixedJob, String tag, Map<String, Integer> counts) {
    this.fixedJob = fixedJob;
    this.tag = tag;
    this.counts = counts;
  }

  /** Every task in the one job {@code job}. */
  public static JobAssignment fixed(String job) {
    return new JobAssignment(requireJobName(job, "job"), null, null);
  }

  /** The job is the value of this tag or label on each member. */
  public static JobAssignment fromTag(String tagKey) {
    if (tagKey == null || tagKey.isBlank()) {
      throw new IllegalArgumentException("Job tag key must not be empty");
    }
    return new JobAssignment(null, tagKey, null);
  }

  /**
   * Tasks in member order fill jobs in the map's order; a count of {@link #REST} takes the rest.
   *
   * @throws IllegalArgumentException for an empty map, a negative count other than {@code REST},
   *     or more than one {@code REST}
   */
  public static JobAssignment counts(Map<String, Integer> counts) {
    if (counts == null || counts.isEmpty()) {
      throw new IllegalArgumentException("Job counts must name at least one job, like chief:1,worker:*");
    }
    int rest = 0;
    Map<String, Integer> copy = new TreeMap<>(); // job-name order (K8)
    for (Map.Entry<String, Integer> e : counts.entrySet()) {
      int n = Objects.requireNonNull(e.getValue(), "count");
      if (n < 0 && n != REST) {
        throw new IllegalArgumentException("Job " + e.getKey() + " has a negative count " + n);
      }
      if (n == REST && ++rest > 1) {
        throw new IllegalArgumentException("Only one job may take the remaining tasks ('*'): " + counts.keySet());
      }
      copy.put(requireJobName(e.getKey(), "job"), n);
    }
    return new JobAssignment(null, null, Collections.unmodifiableMap(copy));
  }

  /**
   * Parses counts written as {@code chief:1,worker:*} ({@code *} = the remaining tasks).
   *
   * @throws IllegalArgumentException naming the offending item
   */
  public static JobAssignment parseCounts(String text) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String item : Objects.requireNonNull(text, "jobs").split(",")) {
      String t = item.trim();
      if (t.isEmpty()) {
        continue;
      }
      int colon = t.lastIndexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException("Job count '" + t + "' must be NAME:COUNT or NAME:*, like chief:1,worker:*");
      }
      String job = t.substring(0, colon).trim();
      String count = t.substring(colon + 1).trim();
      int n;
      if (count.equals("*")) {
        n = REST;
      } else {
        try {
          n = Integer.parseInt(count);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("Job count '" + t + "' has no valid count: use a number or *");
        }
        if (n < 0) {
          throw new IllegalArgumentException("Job count '" + t + "' is negative");
        }
      }
      if (counts.put(job, n) != null) {
        throw new IllegalArgumentException("Job '" + job + "' is given twice in '" + text + "'");
      }
    }
    return counts(counts);
  }

  /** The single job name, when every task is in one job. */
  public java.util.Optional<String> fixedJob() {
    return java.util.Optional.ofNullable(fixedJob);
  }

  /** The tag naming each member's job, when jobs come from tags. */
  public java.util.Optional<String> tag() {
    return java.util.Optional.ofNullable(tag);
  }

  /** The job counts in job-name order ({@link #REST} for {@code *}), empty unless jobs come from counts. */
  public Map<String, Integer> counts() {
    return counts == null ? Map.of() : counts;
  }

  /** The tasks the fixed counts need (every count but {@code *}); 0 unless jobs come from counts. */
  public int fixedTotal() {
    long total = 0;
    for (int n : counts().values()) {
      total += n == REST ? 0 : n;
    }
    return (int) Math.min(Integer.MAX_VALUE, total);
  }

  /**
   * Each job's number of tasks out of {@code total}, in job-name order: the fixed counts, and the
   * rest for the {@code *} job.
   *
   * @throws IllegalArgumentException if {@code total} is below {@link #fixedTotal()} (callers say
   *     why in their own terms first) or jobs do not come from counts
   */
  public Map<String, Integer> countsFor(int total) {
    if (counts == null) {
      throw new IllegalArgumentException("Jobs " + this + " do not come from counts");
    }
    int fixed = fixedTotal();
    if (total < fixed) {
      throw new IllegalArgumentException("The jobs " + this + " need " + fixed + " tasks, not " + total);
    }
    Map<String, Integer> resolved = new LinkedHashMap<>();
    counts.forEach((job, n) -> resolved.put(job, n == REST ? total - fixed : n));
    return resolved;
  }

  private static String requireJobName(String job, String what) {
    if (job == null || !JOB_NAME.matcher(job).matches()) {
      throw new IllegalArgumentException("Invalid " + what + " name '" + job
          + "': use letters, digits, '_', '-', '.' or '/'");
    }
    return job;
  }

  @Override
  public String toString() {
    if (fixedJob != null) {
      return fixedJob;
    }
    if (tag != null) {
      return "tag:" + tag;
    }
    StringBuilder s = new StringBuilder();
    counts.forEach((job, n) -> s.append(s.length() == 0 ? "" : ",").append(job).append(':').append(n == REST ? "*" : n));
    return s.toString();
  }
}
