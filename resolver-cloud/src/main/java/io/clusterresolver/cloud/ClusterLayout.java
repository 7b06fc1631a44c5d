package io.clusterresolver.cloud;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.TaskAddress;
import io.clusterresolver.cloud.internal.TaskPorts;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The one rule every cloud provider uses to turn the members it found into a {@link ClusterSpec}:
 * members are sorted by a {@link MemberOrder}, each runs {@link TasksPerMember} tasks listening on
 * {@code port + local index}, and tasks get job names by a {@link JobAssignment}. The result is a
 * pure function of the member set, so every process computes the same cluster. Immutable and
 * thread-safe.
 *
 * <pre>{@code
 * ClusterLayout layout = ClusterLayout.builder()
 *     .jobs(JobAssignment.parseCounts("chief:1,worker:*"))
 *     .port(2222)
 *     .build();
 * Placement placement = layout.place(members);
 * ClusterSpec spec = placement.spec();
 * }</pre>
 *
 * <p>Accelerators of a member are shared by its tasks: each task gets {@code count / tasks} of each
 * device type (one each with {@link TasksPerMember#perAccelerator()}).
 *
 * <p>Members that have an {@linkplain Member#ordinal() ordinal} come first, by ordinal, then the
 * others in the configured order. A member that says its own {@linkplain Member#port() port} has its
 * tasks listen there instead of on the layout's. With {@link Builder#indexByOrdinal()} and one fixed
 * job, a member's ordinal is its task index and a missing member leaves a gap (a sparse job, as
 * TensorFlow's {@code ClusterSpec({"worker": {0: ..., 2: ...}})}) instead of renumbering every member
 * after it: a StatefulSet whose pod 1 is not ready is tasks 0 and 2.
 */
public final class ClusterLayout {

  /** The default first port, as in TensorFlow's Slurm resolver. */
  public static final int DEFAULT_PORT = 8888;
  /** The default job name. */
  public static final String DEFAULT_JOB = "worker";

  private final MemberOrder order;
  private final JobAssignment jobs;
  private final TasksPerMember tasksPerMember;
  private final int port;
  private final boolean indexByOrdinal;

  private ClusterLayout(Builder b) {
    this.order = b.order;
    this.jobs = b.jobs;
    this.tasksPerMember = b.tasksPerMember;
    this.port = b.port;
    this.indexByOrdinal = b.indexByOrdinal;
  }

  /** The defaults: creation-time order, one job {@code worker}, one task per member, port 8888. */
  public static ClusterLayout defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The layout a provider's configuration asks for, from the shared properties of
   * {@link CloudProperties}: {@code order}, {@code job}, {@code job-tag}, {@code jobs}, the
   * tasks-per-member property, and {@code port}. Each problem is added to {@code problems} (so a
   * provider reports them together with its own), naming its full key.
   *
   * @return the layout, or {@code null} when there is any problem
   */
  public static ClusterLayout fromConfig(
      ResolverConfig config, ConfigProperty<String> tasksPerMember, List<String> problems) {
    Builder read = read(config, p -> true, tasksPerMember, CloudProperties.JOB_TAG, CloudProperties.JOB, problems);
    return read == null ? null : read.build();
  }

  /**
   * {@link #fromConfig(ResolverConfig, ConfigProperty, List)} under a provider's own words, as a builder
   * the provider may still change: only the layout properties it declares are read ({@code declared}),
   * its job tag property ({@code job-tag}, or a {@code job-label}), its tasks-per-member property
   * ({@code null}: one task per member) and its fixed-job property ({@code null} when it declares none:
   * then every member is in {@value #DEFAULT_JOB} unless the tag or {@code jobs} is set).
   *
   * @return the builder, or {@code null} when there is any problem
   */
  static Builder read(ResolverConfig config, Predicate<ConfigProperty<?>> declared,
      ConfigProperty<String> tasksPerMember, ConfigProperty<String> jobTag, ConfigProperty<String> fixedJob,
      List<String> problems) {
    int before = problems.size();
    Builder b = builder();
    if (declared.test(CloudProperties.ORDER)) {
      try {
        b.order(MemberOrder.parse(config.get(CloudProperties.ORDER)));
      } catch (IllegalArgumentException e) {
        problems.add(config.key(CloudProperties.ORDER) + ": " + e.getMessage());
      }
    }
    if (tasksPerMember != null) {
      TaskPorts.readTasksPerMember(config, tasksPerMember, b, problems);
    }
    boolean tagSet = declared.test(jobTag) && config.isSet(jobTag);
    boolean countsSet = declared.test(CloudProperties.JOBS) && config.isSet(CloudProperties.JOBS);
    boolean jobSet = fixedJob != null && config.isSet(fixedJob);
    if ((tagSet ? 1 : 0) + (countsSet ? 1 : 0) + (jobSet ? 1 : 0) > 1) {
      problems.add("Set only one of " + (fixedJob != null ? config.key(fixedJob) + ", " : "")
          + config.key(jobTag) + " and " + config.key(CloudProperties.JOBS));
    }
    ConfigProperty<String> which = countsSet ? CloudProperties.JOBS : tagSet ? jobTag : fixedJob;
    try {
      if (countsSet) {
        b.jobs(JobAssignment.parseCounts(config.get(CloudProperties.JOBS)));
      } else if (tagSet && config.get(jobTag).isBlank()) {
        // job-tag: "name a tag", job-label: "name a label"
        problems.add(config.key(jobTag) + " is empty: name a " + jobTag.name().replaceFirst("^job-", "")
            + ", like role");
      } else if (tagSet) {
        b.jobs(JobAssignment.fromTag(config.get(jobTag).trim()));
      } else {
        b.jobs(JobAssignment.fixed(fixedJob != null ? config.get(fixedJob) : DEFAULT_JOB));
      }
    } catch (IllegalArgumentException e) {
      problems.add(config.key(which) + ": " + e.getMessage());
    }
    if (declared.test(CloudProperties.PORT)) {
      b.port(config.get(CloudProperties.PORT));
    }
    return problems.size() > before ? null : b;
  }

  public MemberOrder order() {
    return order;
  }

  public JobAssignment jobs() {
    return jobs;
  }

  public TasksPerMember tasksPerMember() {
    return tasksPerMember;
  }

  public int port() {
    return port;
  }

  /** Whether a member's ordinal is its task index (with one fixed job); see {@link Builder#indexByOrdinal()}. */
  public boolean indexesByOrdinal() {
    return indexByOrdinal;
  }

  /**
   * Places tasks on members.
   *
   * @param members the members found, in any order; ids must be unique
   * @throws ClusterResolverException when the members cannot be laid out as configured (a missing
   *     or non-integer order tag, fewer tasks than fixed job counts need, a duplicate id)
   */
  public Placement place(Collection<Member> members) {
    List<Member> sorted = new ArrayList<>(members);
    Set<String> ids = new HashSet<>();
    for (Member m : sorted) {
      if (!ids.add(m.id())) {
        throw new ClusterResolverException("Member id " + m.id() + " was listed twice");
      }
    }
    sorted.sort(BY_ORDINAL.thenComparing(order.comparator()));

    List<Member> leftOut = new ArrayList<>();
    List<Slot> slots = new ArrayList<>();
    for (Member m : sorted) {
      String job = null;
      if (jobs.tag().isPresent()) {
        job = m.labels().get(jobs.tag().get());
        if (job == null || job.isBlank()) {
          leftOut.add(m);
          continue;
        }
      }
      int n = tasksPerMember.tasksOn(m);
      for (int local = 0; local < n; local++) {
        slots.add(new Slot(m, local, n, job));
      }
    }

    List<Placement.Task> tasks = new ArrayList<>();
    boolean byOrdinal = indexByOrdinal && jobs.fixedJob().isPresent() && ordinalsAreDistinct(sorted);
    boolean renumbered = indexByOrdinal && jobs.fixedJob().isPresent() && !byOrdinal
        && sorted.stream().anyMatch(m -> m.ordinal().isPresent());
    if (byOrdinal) {
      for (Slot s : slots) {
        tasks.add(s.toTask(jobs.fixedJob().get(), s.member.ordinal().getAsInt() * s.tasksOnMember + s.localIndex, port));
      }
    } else if (jobs.fixedJob().isPresent() || jobs.tag().isPresent()) {
      Map<String, Integer> next = new TreeMap<>();
      for (Slot s : slots) {
        String job = s.job != null ? s.job : jobs.fixedJob().get();
        int index = next.merge(job, 1, Integer::sum) - 1;
        tasks.add(s.toTask(job, index, port));
      }
    } else {
      int fixedTotal = jobs.fixedTotal();
      if (slots.size() < fixedTotal) {
        throw new ClusterResolverException("The jobs " + jobs + " need at least " + fixedTotal
            + " tasks, but the " + sorted.size() + " members found provide " + slots.size()
            + ": wait for the fleet to grow or lower the counts");
      }
      int cursor = 0;
      for (Map.Entry<String, Integer> e : jobs.countsFor(slots.size()).entrySet()) {
        int n = e.getValue();
        for (int i = 0; i < n; i++) {
          tasks.add(slots.get(cursor++).toTask(e.getKey(), i, port));
        }
      }
    }

    ClusterSpec.Builder spec = ClusterSpec.builder();
    if (jobs.counts().isEmpty() && jobs.fixedJob().isPresent()) {
      spec.addEmptyJob(jobs.fixedJob().get());
    }
    for (String job : jobs.counts().keySet()) {
      spec.addEmptyJob(job);
    }
    for (Placement.Task t : tasks) {
      spec.addTask(t.job(), t.index(), t.address());
    }
    return new Placement(spec.build(), tasks, leftOut, renumbered);
  }

  /** Members with an ordinal first, by ordinal; the others keep their (equal) rank for the configured order. */
  private static final Comparator<Member> BY_ORDINAL = Comparator.comparingLong(
      m -> m.ordinal().isPresent() ? m.ordinal().getAsInt() : Long.MAX_VALUE);

  /** Whether every member has an ordinal and no two share one (then ordinals can be task indices). */
  private static boolean ordinalsAreDistinct(List<Member> members) {
    Set<Integer> seen = new HashSet<>();
    for (Member m : members) {
      if (m.ordinal().isEmpty() || !seen.add(m.ordinal().getAsInt())) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return "ClusterLayout{order=" + order + ", jobs=" + jobs + ", tasksPerMember=" + tasksPerMember
        + ", port=" + port + (indexByOrdinal ? ", index by ordinal" : "") + "}";
  }

  /** One task's place before its job and index are known. */
  private static final class Slot {
    final Member member;
    final int localIndex;
    final int tasksOnMember;
    final String job;

    Slot(Member member, int localIndex, int tasksOnMember, String job) {
      this.member = member;
      this.localIndex = localIndex;
      this.tasksOnMember = tasksOnMember;
      this.job = job;
    }

    Placement.Task toTask(String job, int index, int port) {
      Map<String, Integer> accelerators = new LinkedHashMap<>();
      member.accelerators().forEach((type, count) -> {
        int share = count / tasksOnMember;
        if (share > 0) {
          accelerators.put(type, share);
        }
      });
      int taskPort = member.port().orElse(port) + localIndex;
      if (taskPort > TaskAddress.MAX_PORT) {
        throw new ConfigurationException("Task " + localIndex + " on member " + member.id() + " would listen on port "
            + taskPort + ", past " + TaskAddress.MAX_PORT + ": lower the port or the tasks per member");
      }
      TaskAddress address;
      try {
        address = TaskAddress.of(member.address(), taskPort);
      } catch (IllegalArgumentException e) {
        throw new ClusterResolverException("Member " + member.id() + " has an address no task can listen on: "
            + e.getMessage(), e);
      }
      return new Placement.Task(job, index, address.toString(), member, localIndex, accelerators);
    }
  }

  /** Builds a {@link ClusterLayout}; unset parts keep their defaults. */
  public static final class Builder {
    private MemberOrder order = MemberOrder.CREATION_TIME;
    private JobAssignment jobs = JobAssignment.fixed(DEFAULT_JOB);
    private TasksPerMember tasksPerMember = TasksPerMember.one();
    private int port = DEFAULT_PORT;
    private boolean indexByOrdinal;

    private Builder() {}

    public Builder order(MemberOrder order) {
      this.order = Objects.requireNonNull(order, "order");
      return this;
    }

    public Builder jobs(JobAssignment jobs) {
      this.jobs = Objects.requireNonNull(jobs, "jobs");
      return this;
    }

    public Builder tasksPerMember(TasksPerMember tasksPerMember) {
      this.tasksPerMember = Objects.requireNonNull(tasksPerMember, "tasksPerMember");
      return this;
    }

    /** The port of each member's first task; task {@code i} on a member listens on {@code port + i}. */
    public Builder port(int port) {
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("Port " + port + " is not between 1 and 65535");
      }
      this.port = port;
      return this;
    }

    /**
     * With one fixed job, a member's {@linkplain Member#ordinal() ordinal} is its task index (times
     * the tasks per member, plus the local index): a missing member leaves a gap, a sparse job. When
     * a member has no ordinal or two share one, tasks are numbered in member order instead and
     * {@link Placement#renumbered()} says so. With a job tag or job counts, ordinals only order.
     */
    public Builder indexByOrdinal() {
      this.indexByOrdinal = true;
      return this;
    }

    /**
     * Builds the layout.
     *
     * @throws IllegalArgumentException for {@link #indexByOrdinal()} with one task per accelerator
     *     (members with different task counts would share indices)
     */
    public ClusterLayout build() {
      if (indexByOrdinal && tasksPerMember.isPerAccelerator()) {
        throw new IllegalArgumentException("Tasks cannot be indexed by ordinal with one task per accelerator:"
            + " give a fixed number of tasks per member");
      }
      return new ClusterLayout(this);
    }
  }
}
