package io.clusterresolver.proto;

import io.clusterresolver.ClusterSpec;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Conversions between {@link ClusterSpec} and TensorFlow's {@code tensorflow.ClusterDef}.
 *
 * <p>{@link #toClusterDef} produces exactly what TensorFlow's {@code ClusterSpec.as_cluster_def()}
 * produces (K2): jobs sorted by name in code-point order, tasks by index; serialized with {@link
 * #toBytes}, the bytes are TensorFlow's.
 */
public final class ClusterDefs {

  private ClusterDefs() {}

  /** The {@code ClusterDef} of a spec: jobs sorted by name (code points), tasks by index. */
  public static ClusterDef toClusterDef(ClusterSpec spec) {
    ClusterDef.Builder cluster = ClusterDef.newBuilder();
    for (String job : spec.jobs()) { // already in code-point order: ClusterSpec.jobOrder()
      JobDef.Builder jobDef = JobDef.newBuilder().setName(job);
      for (int index : spec.taskIndices(job)) {
        jobDef.putTasks(index, spec.taskAddress(job, index));
      }
      cluster.addJob(jobDef);
    }
    return cluster.build();
  }

  /**
   * The spec described by a {@code ClusterDef}. A job name given more than once: the last {@code
   * JobDef} of that name wins, as in TensorFlow (K3). A job without tasks is kept as an empty job.
   */
  public static ClusterSpec fromClusterDef(ClusterDef clusterDef) {
    Map<String, JobDef> lastByName = new LinkedHashMap<>();
    for (JobDef job : clusterDef.getJobList()) {
      lastByName.put(job.getName(), job);
    }
    ClusterSpec.Builder builder = ClusterSpec.builder();
    for (JobDef job : lastByName.values()) {
      builder.addEmptyJob(job.getName());
      for (Map.Entry<Integer, String> task : job.getTasksMap().entrySet()) {
        builder.addTask(job.getName(), task.getKey(), task.getValue());
      }
    }
    return builder.build();
  }

  /**
   * The deterministic serialization of the spec's {@code ClusterDef}: TensorFlow's bytes, written
   * straight from the spec (already in job and index order) without building the message — for a
   * 100,000-task spec this skips 100,000 map entries and their sort. Byte-identical to
   * {@code ProtoBytes.deterministic(toClusterDef(spec))}.
   */
  public static byte[] toBytes(ClusterSpec spec) {
    List<String> jobs = spec.jobs();
    Map<String, Object> asMap = spec.asMap(); // dense jobs as list views, others as sorted maps
    int[] jobSizes = new int[jobs.size()];
    int total = 0;
    for (int j = 0; j < jobs.size(); j++) {
      String job = jobs.get(j);
      int size = job.isEmpty() ? 0 : CodedOutputStream.computeStringSize(JobDef.NAME_FIELD_NUMBER, job);
      Tasks tasks = Tasks.of(asMap, job);
      for (int t = 0; t < tasks.size(); t++) {
        int index = tasks.index(t);
        String address = tasks.address(t);
        if (address != null) {
          int entry = entrySize(index, address);
          size += CodedOutputStream.computeTagSize(JobDef.TASKS_FIELD_NUMBER)
              + CodedOutputStream.computeUInt32SizeNoTag(entry) + entry;
        }
      }
      jobSizes[j] = size;
      total += CodedOutputStream.computeTagSize(ClusterDef.JOB_FIELD_NUMBER)
          + CodedOutputStream.computeUInt32SizeNoTag(size) + size;
    }
    byte[] bytes = new byte[total];
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      for (int j = 0; j < jobs.size(); j++) {
        String job = jobs.get(j);
        out.writeTag(ClusterDef.JOB_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt32NoTag(jobSizes[j]);
        if (!job.isEmpty()) {
          out.writeString(JobDef.NAME_FIELD_NUMBER, job);
        }
        Tasks tasks = Tasks.of(asMap, job);
        for (int t = 0; t < tasks.size(); t++) {
          int index = tasks.index(t);
          String address = tasks.address(t);
          if (address != null) {
            // A map entry is a message of key (field 1) and value (field 2), both always written.
            out.writeTag(JobDef.TASKS_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            out.writeUInt32NoTag(entrySize(index, address));
            out.writeInt32(1, index);
            out.writeString(2, address);
          }
        }
      }
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new IllegalStateException("the computed ClusterDef size was wrong", e); // a bug: sizes are exact
    }
    return bytes;
  }

  /** A job's tasks in index order: a dense job by position, any other from its sorted map. */
  private static final class Tasks {
    private final List<String> dense;
    private final int[] indices;
    private final String[] addresses;

    private Tasks(List<String> dense, int[] indices, String[] addresses) {
      this.dense = dense;
      this.indices = indices;
      this.addresses = addresses;
    }

    @SuppressWarnings("unchecked")
    static Tasks of(Map<String, Object> asMap, String job) {
      Object tasks = asMap.get(job);
      if (tasks instanceof List) {
        return new Tasks((List<String>) tasks, null, null);
      }
      Map<Integer, String> sparse = (Map<Integer, String>) tasks; // sorted by index
      int[] indices = new int[sparse.size()];
      String[] addresses = new String[sparse.size()];
      int t = 0;
      for (Map.Entry<Integer, String> e : sparse.entrySet()) {
        indices[t] = e.getKey();
        addresses[t++] = e.getValue();
      }
      return new Tasks(null, indices, addresses);
    }

    int size() {
      return dense != null ? dense.size() : indices.length;
    }

    int index(int t) {
      return dense != null ? t : indices[t];
    }

    String address(int t) {
      return dense != null ? dense.get(t) : addresses[t];
    }
  }

  private static int entrySize(int index, String address) {
    return CodedOutputStream.computeInt32Size(1, index) + CodedOutputStream.computeStringSize(2, address);
  }
}
