package io.clusterresolver.cli;

import io.clusterresolver.ClusterSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One deterministic global order of a cluster's tasks, for launchers that number processes
 * 0..n-1 (PyTorch's {@code RANK}, MPI ranks): the {@code chief} job first, then the other jobs by
 * name (code-point order), and within a job the tasks by ascending index. Every process computes
 * the same order from the same cluster.
 */
final class GlobalRanks {

  /** The job that, as in TensorFlow, coordinates the others; it gets rank 0. */
  static final String CHIEF = "chief";

  private final List<Task> tasks;

  private GlobalRanks(List<Task> tasks) {
    this.tasks = tasks;
  }

  static GlobalRanks of(ClusterSpec spec) {
    List<String> jobs = new ArrayList<>(spec.jobs()); // already sorted by name
    if (jobs.remove(CHIEF)) {
      jobs.add(0, CHIEF);
    }
    List<Task> tasks = new ArrayList<>(spec.totalTasks());
    for (String job : jobs) {
      for (int index : spec.taskIndices(job)) {
        tasks.add(new Task(job, index, spec.taskAddress(job, index)));
      }
    }
    return new GlobalRanks(Collections.unmodifiableList(tasks));
  }

  /** The tasks in rank order: element i has rank i. */
  List<Task> tasks() {
    return tasks;
  }

  /** The rank of a task, or -1 when it is not in the cluster. */
  int rankOf(String job, Integer index) {
    for (int rank = 0; rank < tasks.size(); rank++) {
      Task task = tasks.get(rank);
      if (task.job().equals(job) && Objects.equals(task.index(), index)) {
        return rank;
      }
    }
    return -1;
  }

  /** One task: its job, index and {@code host:port} address. */
  record Task(String job, int index, String address) {

    /** The host part of the address: without the port, and without brackets for IPv6. */
    String host() {
      return HostPort.host(address);
    }
  }
}
