package io.clusterresolver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An immutable description of a cluster: job name to (task index to {@code host:port}).
 *
 * <p>The semantics are those of TensorFlow's {@code tf.train.ClusterSpec}: a job is <em>dense</em>
 * when its task indices are exactly {@code 0..n-1} and <em>sparse</em> otherwise; equality is by
 * content, so a list job equals the same tasks given as a map, and the order in which jobs were
 * given does not matter. Unlike TensorFlow, {@link #jobs()} is always sorted (code-point order), so
 * every process sees the same order, and {@link #jobTasks(String)} of an empty job is an empty list.
 *
 * <p>Instances are built with {@link #of(Map)} or {@link #builder()}, and are safe to share between
 * threads.
 */
public final class ClusterSpec {

  /**
   * Job order: by Unicode code point, as Python sorts strings ({@link String#compareTo} compares
   * UTF-16 units, which differs for characters outside the Basic Multilingual Plane).
   */
  private static final Comparator<String> CODE_POINT_ORDER = (a, b) -> {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  };

  private static final ClusterSpec EMPTY = new ClusterSpec(new TreeMap<>(CODE_POINT_ORDER));

  /** Sorted by job name; each job holds its tasks sorted by index. */
  private final TreeMap<String, Job> jobs;

  private ClusterSpec(TreeMap<String, Job> jobs) {
    this.jobs = jobs;
  }

  /** The spec with no jobs. */
  public static ClusterSpec empty() {
    return EMPTY;
  }

  /** A builder for a spec assembled task by task or job by job. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A spec from a map of job name to tasks. Each value is a {@code List<String>} (dense: the index
   * of a task is its position) or a {@code Map<Integer, String>} (sparse: index to address).
   *
   * @throws IllegalArgumentException if a job name is null, a value is of another type, an index is
   *     null, or an address is null or not a string; the message names the job
   */
  public static ClusterSpec of(Map<String, ?> jobs) {
    Objects.requireNonNull(jobs, "jobs");
    Builder builder = new Builder();
    for (Map.Entry<String, ?> entry : jobs.entrySet()) {
      Object job = entry.getKey();
      if (!(job instanceof String)) {
        throw new IllegalArgumentException("Job name " + job + " must be a string");
      }
      String name = (String) job;
      Object tasks = entry.getValue();
      if (tasks instanceof List) {
        List<?> list = (List<?>) tasks;
        builder.declareJob(name);
        for (int i = 0; i < list.size(); i++) {
          builder.addTask(name, i, requireAddress(name, list.get(i)));
        }
      } else if (tasks instanceof Map) {
        builder.declareJob(name);
        for (Map.Entry<?, ?> task : ((Map<?, ?>) tasks).entrySet()) {
          Object index = task.getKey();
          if (!(index instanceof Integer)) {
            throw new IllegalArgumentException(
                "Task index " + index + " in job '" + name + "' must be an Integer");
          }
          builder.addTask(name, (Integer) index, requireAddress(name, task.getValue()));
        }
      } else {
        throw new IllegalArgumentException(
            "The tasks for job '" + name + "' must be a List<String> or a Map<Integer, String>, not "
                + (tasks == null ? "null" : tasks.getClass().getName()));
      }
    }
    return builder.build();
  }

  private static String requireAddress(String job, Object address) {
    if (!(address instanceof String)) {
      throw new IllegalArgumentException(
          "Task address " + address + " in job '" + job + "' must be a string");
    }
    return (String) address;
  }

  /**
   * The order of {@link #jobs()}: by Unicode code point, as Python and TensorFlow sort job names.
   * Protocol encoders (a ClusterDef, device filters) use it so that every process writes the same
   * bytes.
   */
  public static Comparator<String> jobOrder() {
    return CODE_POINT_ORDER;
  }

  /** The job names, sorted in code-point order. */
  public List<String> jobs() {
    return List.copyOf(jobs.keySet());
  }

  /** Whether the spec has a job of that name. */
  public boolean hasJob(String job) {
    return jobs.containsKey(job);
  }

  /** The number of tasks of a job. */
  public int numTasks(String job) {
    return job(job).size();
  }

  /** The task indices of a job, ascending. */
  public List<Integer> taskIndices(String job) {
    Job j = job(job);
    Integer[] boxed = new Integer[j.size()];
    for (int i = 0; i < boxed.length; i++) {
      boxed[i] = j.indexAt(i);
    }
    return List.of(boxed);
  }

  /**
   * The address of one task.
   *
   * @throws IllegalArgumentException if there is no such job or no such task in it
   */
  public String taskAddress(String job, int taskIndex) {
    String address = job(job).address(taskIndex);
    if (address == null) {
      throw new IllegalArgumentException(
          "No task with index " + taskIndex + " in job '" + job + "'");
    }
    return address;
  }

  /**
   * The addresses of a job's tasks, where element {@code i} is task {@code i}'s address and
   * {@code null} stands in a sparse job's gaps. An empty job gives an empty list.
   *
   * @throws IllegalArgumentException for an unknown job, or a job with a negative task index
   */
  public List<String> jobTasks(String job) {
    Job j = job(job);
    if (j.size() == 0) {
      return List.of();
    }
    if (j.indexAt(0) < 0) {
      throw new IllegalArgumentException(
          "Job '" + job + "' has a negative task index (" + j.indexAt(0)
              + "): it cannot be listed by position");
    }
    if (j.dense) {
      return Collections.unmodifiableList(Arrays.asList(j.addresses));
    }
    String[] positional = new String[j.indexAt(j.size() - 1) + 1];
    for (int i = 0; i < j.size(); i++) {
      positional[j.indexAt(i)] = j.addresses[i];
    }
    return Collections.unmodifiableList(Arrays.asList(positional));
  }

  /**
   * The spec as a map (TensorFlow's {@code as_dict}): a dense job as a {@code List<String>}, any
   * other job (an empty one included) as a {@code SortedMap<Integer, String>}. Jobs are in sorted
   * order; the result is unmodifiable.
   */
  public Map<String, Object> asMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    for (Map.Entry<String, Job> entry : jobs.entrySet()) {
      Job j = entry.getValue();
      if (j.dense && j.size() > 0) {
        map.put(entry.getKey(), Collections.unmodifiableList(Arrays.asList(j.addresses)));
      } else {
        SortedMap<Integer, String> tasks = new TreeMap<>();
        for (int i = 0; i < j.size(); i++) {
          tasks.put(j.indexAt(i), j.addresses[i]);
        }
        map.put(entry.getKey(), Collections.unmodifiableSortedMap(tasks));
      }
    }
    return Collections.unmodifiableMap(map);
  }

  /** True when there are no jobs (a job without tasks still counts as a job). */
  public boolean isEmpty() {
    return jobs.isEmpty();
  }

  /** The total number of tasks over all jobs. */
  public int totalTasks() {
    int total = 0;
    for (Job j : jobs.values()) {
      total += j.size();
    }
    return total;
  }

  private Job job(String job) {
    Job j = jobs.get(job);
    if (j == null) {
      throw new IllegalArgumentException("No such job in cluster: '" + job + "'");
    }
    return j;
  }

  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof ClusterSpec && jobs.equals(((ClusterSpec) o).jobs));
  }

  @Override
  public int hashCode() {
    return jobs.hashCode();
  }

  @Override
  public String toString() {
    return "ClusterSpec" + asMap();
  }

  /** The tasks of one job, sorted by index; {@code indices == null} means dense (0..n-1). */
  private static final class Job {
    private final int[] indices;
    private final String[] addresses;
    private final boolean dense;

    Job(int[] indices, String[] addresses) {
      this.dense = indices == null;
      this.indices = indices;
      this.addresses = addresses;
    }

    int size() {
      return addresses.length;
    }

    int indexAt(int position) {
      return dense ? position : indices[position];
    }

    String address(int taskIndex) {
      if (dense) {
        return taskIndex >= 0 && taskIndex < addresses.length ? addresses[taskIndex] : null;
      }
      int position = Arrays.binarySearch(indices, taskIndex);
      return position >= 0 ? addresses[position] : null;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Job)) {
        return false;
      }
      Job other = (Job) o;
      if (size() != other.size() || !Arrays.equals(addresses, other.addresses)) {
        return false;
      }
      for (int i = 0; i < size(); i++) {
        if (indexAt(i) != other.indexAt(i)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public int hashCode() {
      int hash = Arrays.hashCode(addresses);
      for (int i = 0; i < size(); i++) {
        hash = 31 * hash + indexAt(i);
      }
      return hash;
    }
  }

  /**
   * Assembles a {@link ClusterSpec}. Tasks may be added in any order; giving the same task of a job
   * twice is an error. Not thread-safe.
   */
  public static final class Builder {
    private final Map<String, JobBuilder> jobs = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Adds one task.
     *
     * @throws IllegalArgumentException if the job or address is null, or the task was already added
     */
    public Builder addTask(String job, int index, String address) {
      requireJobName(job);
      if (address == null) {
        throw new IllegalArgumentException(
            "Task address of task " + index + " in job '" + job + "' must not be null");
      }
      declareJob(job).add(job, index, address);
      return this;
    }

    /**
     * Adds the tasks of a dense job: the address at position {@code i} is task {@code i}. Adding to
     * a job that already has tasks continues its indices after the highest one.
     */
    public Builder addJob(String job, List<String> addresses) {
      requireJobName(job);
      Objects.requireNonNull(addresses, "addresses");
      JobBuilder builder = declareJob(job);
      int next = builder.nextIndex();
      for (String address : addresses) {
        addTask(job, next++, address);
      }
      return this;
    }

    /** Adds a job with no tasks yet (it still counts as a job). */
    public Builder addEmptyJob(String job) {
      requireJobName(job);
      declareJob(job);
      return this;
    }

    JobBuilder declareJob(String job) {
      return jobs.computeIfAbsent(job, name -> new JobBuilder());
    }

    private static void requireJobName(String job) {
      if (job == null) {
        throw new IllegalArgumentException("Job name must not be null");
      }
    }

    /** The immutable spec. The builder can be used again afterwards. */
    public ClusterSpec build() {
      if (jobs.isEmpty()) {
        return EMPTY;
      }
      TreeMap<String, Job> built = new TreeMap<>(CODE_POINT_ORDER);
      for (Map.Entry<String, JobBuilder> entry : jobs.entrySet()) {
        built.put(entry.getKey(), entry.getValue().build(entry.getKey()));
      }
      return new ClusterSpec(built);
    }
  }

  /** Collects one job's tasks in insertion order and sorts them once at build time. */
  private static final class JobBuilder {
    private int[] indices = new int[8];
    private final List<String> addresses = new ArrayList<>();
    private boolean sortedSoFar = true;
    private int max = Integer.MIN_VALUE;

    void add(String job, int index, String address) {
      int n = addresses.size();
      if (n == indices.length) {
        indices = Arrays.copyOf(indices, n * 2);
      }
      if (n > 0 && index <= indices[n - 1]) {
        if (index == indices[n - 1]) {
          throw duplicate(job, index);
        }
        sortedSoFar = false;
      }
      indices[n] = index;
      addresses.add(address);
      max = Math.max(max, index);
    }

    int nextIndex() {
      return addresses.isEmpty() ? 0 : Math.addExact(max, 1);
    }

    Job build(String job) {
      int n = addresses.size();
      String[] sortedAddresses = addresses.toArray(new String[0]);
      int[] sortedIndices = Arrays.copyOf(indices, n);
      if (!sortedSoFar) {
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
          order[i] = i;
        }
        int[] unsorted = sortedIndices;
        Arrays.sort(order, (a, b) -> Integer.compare(unsorted[a], unsorted[b]));
        sortedIndices = new int[n];
        String[] unsortedAddresses = sortedAddresses;
        sortedAddresses = new String[n];
        for (int i = 0; i < n; i++) {
          sortedIndices[i] = unsorted[order[i]];
          sortedAddresses[i] = unsortedAddresses[order[i]];
          if (i > 0 && sortedIndices[i] == sortedIndices[i - 1]) {
            throw duplicate(job, sortedIndices[i]);
          }
        }
      }
      boolean dense = n == 0 || (sortedIndices[0] == 0 && sortedIndices[n - 1] == n - 1);
      return new Job(dense ? null : sortedIndices, sortedAddresses);
    }

    private static IllegalArgumentException duplicate(String job, int index) {
      return new IllegalArgumentException(
          "Task " + index + " of job '" + job + "' is given more than once");
    }
  }
}
