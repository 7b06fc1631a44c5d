package io.clusterresolver.proto;

import io.clusterresolver.ClusterSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Device filters of a cluster: which devices each task may see. The Java counterpart of
 * TensorFlow's {@code tf.config.experimental.ClusterDeviceFilters}.
 *
 * <p>A task with filters sees only the devices matching at least one of them, plus its own; a task
 * without filters (or with an empty list) sees every device. Filters may be partial device names
 * ({@code /job:ps}, {@code /job:worker/task:1}). Instances are immutable; {@link #toProto()} gives
 * the same {@code tensorflow.ClusterDeviceFilters} TensorFlow builds (K9).
 *
 * <pre>{@code
 * DeviceFilters filters = DeviceFilters.builder()
 *     .setDeviceFilters("worker", 0, List.of("/job:ps", "/job:worker/task:0"))
 *     .setDeviceFilters("ps", 0, List.of("/job:worker", "/job:ps/task:0"))
 *     .build();
 * }</pre>
 */
public final class DeviceFilters {

  private static final DeviceFilters NONE = new DeviceFilters(new TreeMap<>());

  /** Job -> task index -> filters (never empty lists), jobs in code-point order. */
  private final TreeMap<String, TreeMap<Integer, List<String>>> filters;

  // A job named in a call stays even if every call for it gave an empty list (TensorFlow keeps it).
  private DeviceFilters(TreeMap<String, TreeMap<Integer, List<String>>> filters) {
    this.filters = filters;
  }

  /** No filters: every task sees every device. */
  public static DeviceFilters none() {
    return NONE;
  }

  /** A builder mirroring TensorFlow's {@code set_device_filters(job, task, filters)}. */
  public static Builder builder() {
    return new Builder();
  }

  /** The filters described by a {@code tensorflow.ClusterDeviceFilters} message. */
  public static DeviceFilters fromProto(ClusterDeviceFilters proto) {
    Builder builder = builder();
    for (JobDeviceFilters job : proto.getJobsList()) {
      builder.declareJob(job.getName());
      for (Map.Entry<Integer, TaskDeviceFilters> task : job.getTasksMap().entrySet()) {
        builder.setDeviceFilters(
            job.getName(), task.getKey(), task.getValue().getDeviceFiltersList());
      }
    }
    return builder.build();
  }

  /**
   * The filters of one task: empty when the task has none (it then sees every device).
   */
  public List<String> filters(String job, int taskIndex) {
    Map<Integer, List<String>> tasks = filters.get(job);
    if (tasks == null) {
      return List.of();
    }
    return tasks.getOrDefault(taskIndex, List.of());
  }

  /** Whether the task has at least one filter. */
  public boolean hasFilters(String job, int taskIndex) {
    return !filters(job, taskIndex).isEmpty();
  }

  /** True when no task has a filter. */
  public boolean isEmpty() {
    return filters.values().stream().allMatch(Map::isEmpty);
  }

  /**
   * The {@code tensorflow.ClusterDeviceFilters} message, built as TensorFlow builds it: jobs sorted
   * by name, tasks by index, tasks whose filter list is empty left out (their job stays).
   */
  public ClusterDeviceFilters toProto() {
    ClusterDeviceFilters.Builder cluster = ClusterDeviceFilters.newBuilder();
    for (Map.Entry<String, TreeMap<Integer, List<String>>> job : filters.entrySet()) {
      JobDeviceFilters.Builder jobFilters = JobDeviceFilters.newBuilder().setName(job.getKey());
      for (Map.Entry<Integer, List<String>> task : job.getValue().entrySet()) {
        jobFilters.putTasks(
            task.getKey(), TaskDeviceFilters.newBuilder().addAllDeviceFilters(task.getValue()).build());
      }
      cluster.addJobs(jobFilters);
    }
    return cluster.build();
  }

  /** The deterministic serialization of {@link #toProto()}: TensorFlow's bytes. */
  public byte[] toBytes() {
    return ProtoBytes.deterministic(toProto());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeviceFilters && filters.equals(((DeviceFilters) o).filters);
  }

  @Override
  public int hashCode() {
    return filters.hashCode();
  }

  @Override
  public String toString() {
    return "DeviceFilters" + filters;
  }

  /**
   * Collects filters task by task. Setting the filters of a task again replaces them, as in
   * TensorFlow. Not thread-safe; may be used again after {@link #build()}.
   */
  public static final class Builder {
    private final TreeMap<String, TreeMap<Integer, List<String>>> filters =
        new TreeMap<>(ClusterSpec.jobOrder());

    private Builder() {}

    /**
     * Sets the device filters of one task (TensorFlow's {@code set_device_filters}). An empty list
     * means no filter: the task sees every device.
     *
     * @throws IllegalArgumentException if the job, the list or one of its filters is null; the
     *     message names the job and task
     */
    public Builder setDeviceFilters(String job, int taskIndex, List<String> deviceFilters) {
      if (job == null) {
        throw new IllegalArgumentException("Job name must not be null");
      }
      if (deviceFilters == null) {
        throw new IllegalArgumentException(
            "Device filters of task " + taskIndex + " in job '" + job + "' must not be null");
      }
      List<String> copy = new ArrayList<>(deviceFilters.size());
      for (Object filter : deviceFilters) {
        // Checked at run time too: a raw or unchecked list can smuggle in non-strings.
        if (!(filter instanceof String)) {
          throw new IllegalArgumentException(
              "Device filter " + filter + " of task " + taskIndex + " in job '" + job
                  + "' must be a string");
        }
        copy.add((String) filter);
      }
      TreeMap<Integer, List<String>> tasks = declareJob(job);
      if (copy.isEmpty()) {
        tasks.remove(taskIndex);
      } else {
        tasks.put(taskIndex, Collections.unmodifiableList(copy));
      }
      return this;
    }

    TreeMap<Integer, List<String>> declareJob(String job) {
      return filters.computeIfAbsent(Objects.requireNonNull(job, "job"), name -> new TreeMap<>());
    }

    /** The immutable filters. */
    public DeviceFilters build() {
      if (filters.isEmpty()) {
        return NONE;
      }
      TreeMap<String, TreeMap<Integer, List<String>>> copy =
          new TreeMap<>(ClusterSpec.jobOrder());
      filters.forEach((job, tasks) -> copy.put(job, new TreeMap<>(tasks)));
      return new DeviceFilters(copy);
    }
  }
}
