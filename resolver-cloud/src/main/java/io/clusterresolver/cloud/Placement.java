package io.clusterresolver.cloud;

import io.clusterresolver.ClusterSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of {@link ClusterLayout#place}: the {@link ClusterSpec}, every task with the member it
 * runs on and its share of accelerators, and the members left out (for a log line). Immutable.
 */
public final class Placement {

  private final ClusterSpec spec;
  private final List<Task> tasks;
  private final List<Member> leftOut;
  private final boolean renumbered;

  Placement(ClusterSpec spec, List<Task> tasks, List<Member> leftOut, boolean renumbered) {
    this.spec = spec;
    this.tasks = Collections.unmodifiableList(new ArrayList<>(tasks));
    this.leftOut = Collections.unmodifiableList(new ArrayList<>(leftOut));
    this.renumbered = renumbered;
  }

  /** The cluster. */
  public ClusterSpec spec() {
    return spec;
  }

  /** Every task in member order. */
  public List<Task> tasks() {
    return tasks;
  }

  /** Members that have no task, such as members without the job tag. */
  public List<Member> leftOut() {
    return leftOut;
  }

  /**
   * Whether the layout was asked to {@linkplain ClusterLayout.Builder#indexByOrdinal() index tasks by
   * ordinal} but could not (a member without an ordinal, or two with the same one), so the tasks are
   * numbered 0, 1, … in member order instead: every process still computes the same cluster, but a
   * gap no longer stays a gap (worth a warning).
   */
  public boolean renumbered() {
    return renumbered;
  }

  /** The task with this job and index, if it exists. */
  public Optional<Task> task(String job, int index) {
    return tasks.stream().filter(t -> t.job.equals(job) && t.index == index).findFirst();
  }

  /** The tasks on one member, by local index. */
  public List<Task> tasksOn(String memberId) {
    List<Task> found = new ArrayList<>();
    for (Task t : tasks) {
      if (t.member.id().equals(memberId)) {
        found.add(t);
      }
    }
    return found;
  }

  /**
   * This process's own task: the first task (local index 0) of the member whose id, name or
   * address equals {@code identity} (an instance id from the metadata server, a host name, an IP).
   * Id matches win over name and address matches.
   */
  public Optional<Task> self(String identity) {
    if (identity == null) {
      return Optional.empty();
    }
    for (Task t : tasks) {
      if (t.member.id().equals(identity)) {
        return Optional.of(t);
      }
    }
    for (Task t : tasks) {
      if (identity.equals(t.member.name().orElse(null)) || identity.equals(t.member.address())) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return "Placement{" + spec + (leftOut.isEmpty() ? "" : ", left out " + leftOut.size()) + "}";
  }

  /** One task: its job, index and {@code host:port}, the member it runs on, and its accelerators. */
  public static final class Task {
    private final String job;
    private final int index;
    private final String address;
    private final Member member;
    private final int localIndex;
    private final Map<String, Integer> accelerators;

    Task(String job, int index, String address, Member member, int localIndex, Map<String, Integer> accelerators) {
      this.job = job;
      this.index = index;
      this.address = address;
      this.member = member;
      this.localIndex = localIndex;
      this.accelerators = Collections.unmodifiableMap(accelerators);
    }

    public String job() {
      return job;
    }

    public int index() {
      return index;
    }

    /** {@code host:port}. */
    public String address() {
      return address;
    }

    public Member member() {
      return member;
    }

    /** The task's position on its member; its port is the member's (else the layout's) port plus this. */
    public int localIndex() {
      return localIndex;
    }

    /** This task's share of the member's accelerators; empty when none. */
    public Map<String, Integer> accelerators() {
      return accelerators;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Task)) {
        return false;
      }
      Task t = (Task) o;
      return job.equals(t.job) && index == t.index && address.equals(t.address) && member.equals(t.member)
          && localIndex == t.localIndex && accelerators.equals(t.accelerators);
    }

    @Override
    public int hashCode() {
      return Objects.hash(job, index, address, member.id(), localIndex);
    }

    @Override
    public String toString() {
      return job + "/" + index + " at " + address + " on " + member.id();
    }
  }
}
