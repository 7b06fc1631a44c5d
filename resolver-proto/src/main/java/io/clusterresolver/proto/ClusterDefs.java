package io.clusterresolver.proto;

import io.clusterresolver.ClusterSpec;
import java.util.LinkedHashMap;
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

  /** The deterministic serialization of the spec's {@code ClusterDef}: TensorFlow's bytes. */
  public static byte[] toBytes(ClusterSpec spec) {
    return ProtoBytes.deterministic(toClusterDef(spec));
  }
}
