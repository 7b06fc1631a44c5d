package io.clusterresolver.kubernetes;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.TaskAddress;
import io.clusterresolver.cloud.JobAssignment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns the member pods into a {@link ClusterSpec}: a pure function of the pod set, so every pod
 * computes the same cluster. Immutable.
 *
 * <p>Pod order: StatefulSet ordinal or Indexed Job completion index, then creation time, then name.
 * With one job ({@code worker}) and every member from one StatefulSet or Indexed Job, the ordinal
 * <em>is</em> the task index: a missing or unready pod leaves a gap (a sparse job) instead of
 * renumbering every pod after it. Otherwise tasks are numbered 0, 1, … in pod order — per job with
 * a job label, and in consecutive runs in job-name order with job counts (as every provider does).
 */
final class PodLayout {

  /** The job of every task when neither a job label nor job counts are configured. */
  static final String DEFAULT_JOB = "worker";

  /** Ordinal (or completion index), then creation time, then name; pods without one after those with one. */
  static final Comparator<PodMember> ORDER = Comparator
      .comparing(PodMember::ordinal, Comparator.nullsLast(Comparator.naturalOrder()))
      .thenComparing(PodMember::creationTime, Comparator.nullsLast(Comparator.naturalOrder()))
      .thenComparing(PodMember::name);

  private final String jobLabel;
  private final JobAssignment counts;

  private PodLayout(String jobLabel, JobAssignment counts) {
    this.jobLabel = jobLabel;
    this.counts = counts;
  }

  /** Every task in job {@code worker}. */
  static PodLayout oneJob() {
    return new PodLayout(null, null);
  }

  /** The job is the value of this label. */
  static PodLayout byLabel(String label) {
    return new PodLayout(label, null);
  }

  /** Job counts, like {@code chief:1,worker:*}. */
  static PodLayout byCounts(JobAssignment counts) {
    return new PodLayout(null, counts);
  }

  /** One task of the cluster and the pod it runs on. */
  record Task(String job, int index, String address, PodMember pod) {}

  /** The cluster, its tasks, and the pods left out of it with the reason. */
  record Placement(ClusterSpec spec, List<Task> tasks, List<String> leftOut, boolean renumbered) {

    /** The task with this job and index. */
    Optional<Task> task(String job, int index) {
      return tasks.stream().filter(t -> t.job().equals(job) && t.index() == index).findFirst();
    }

    /** The task of the pod with this name. */
    Optional<Task> taskOf(String podName) {
      return tasks.stream().filter(t -> t.pod().name().equals(podName)).findFirst();
    }
  }

  /**
   * Places the member pods.
   *
   * @throws ClusterResolverException when job counts need more pods than there are
   */
  Placement place(List<PodMember> members) {
    List<PodMember> sorted = new ArrayList<>(members);
    sorted.sort(ORDER);
    List<Task> tasks = new ArrayList<>();
    List<String> leftOut = new ArrayList<>();
    ClusterSpec.Builder spec = ClusterSpec.builder();
    boolean renumbered = false;
    if (jobLabel != null) {
      Map<String, Integer> next = new TreeMap<>();
      for (PodMember pod : sorted) {
        String job = pod.labels().get(jobLabel);
        if (job == null || job.isBlank()) {
          leftOut.add(pod.name() + " (no label " + jobLabel + ")");
          continue;
        }
        tasks.add(task(job, next.merge(job, 1, Integer::sum) - 1, pod));
      }
    } else if (counts != null) {
      if (sorted.size() < counts.fixedTotal()) {
        throw new ClusterResolverException("kubernetes: the jobs " + counts + " need at least " + counts.fixedTotal()
            + " pods, but " + sorted.size() + " are Running and Ready: wait for them or lower the counts");
      }
      int cursor = 0;
      for (Map.Entry<String, Integer> e : counts.countsFor(sorted.size()).entrySet()) {
        spec.addEmptyJob(e.getKey());
        for (int i = 0; i < e.getValue(); i++) {
          tasks.add(task(e.getKey(), i, sorted.get(cursor++)));
        }
      }
    } else {
      spec.addEmptyJob(DEFAULT_JOB);
      boolean byOrdinal = ordinalsAreIndices(sorted);
      renumbered = !byOrdinal && sorted.stream().anyMatch(p -> p.ordinal() != null);
      for (int i = 0; i < sorted.size(); i++) {
        PodMember pod = sorted.get(i);
        tasks.add(task(DEFAULT_JOB, byOrdinal ? pod.ordinal() : i, pod));
      }
    }
    for (Task t : tasks) {
      spec.addTask(t.job(), t.index(), t.address());
    }
    return new Placement(spec.build(), List.copyOf(tasks), List.copyOf(leftOut), renumbered);
  }

  /** Whether every pod has an ordinal, all from one controller, no two alike. */
  private static boolean ordinalsAreIndices(List<PodMember> pods) {
    if (pods.isEmpty()) {
      return false;
    }
    String owner = pods.get(0).owner();
    Set<Integer> seen = new HashSet<>();
    for (PodMember p : pods) {
      if (p.ordinal() == null || owner == null || !owner.equals(p.owner()) || !seen.add(p.ordinal())) {
        return false;
      }
    }
    return true;
  }

  private static Task task(String job, int index, PodMember pod) {
    try {
      return new Task(job, index, TaskAddress.of(pod.address(), pod.port()).toString(), pod);
    } catch (IllegalArgumentException e) {
      throw new ClusterResolverException("kubernetes: pod " + pod.name() + " has an address no task can listen on: "
          + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return jobLabel != null ? "job-label " + jobLabel : counts != null ? "jobs " + counts : "job " + DEFAULT_JOB;
  }
}
