package io.clusterresolver.proto;

import io.clusterresolver.ClusterSpec;
import java.util.List;

/**
 * Builds {@code tensorflow.ServerDef} messages with TensorFlow's inference rules (K9), as {@code
 * tf.distribute.Server} does:
 *
 * <ul>
 *   <li>no job name: the cluster's only job, else an error;
 *   <li>no task index: the only task of that job, else an error;
 *   <li>no protocol: {@code "grpc"}.
 * </ul>
 *
 * A {@code ServerDef} given as the base is taken as is, and only the values given override it (no
 * inference and no validation, like TensorFlow).
 */
public final class ServerDefs {

  /** TensorFlow's default protocol. */
  public static final String DEFAULT_PROTOCOL = "grpc";

  private ServerDefs() {}

  /**
   * The {@code ServerDef} of one task of a cluster.
   *
   * @param cluster the cluster
   * @param jobName the task's job, or {@code null} to infer it (the cluster must have one job)
   * @param taskIndex the task's index, or {@code null} to infer it (the job must have one task)
   * @param protocol the protocol, or {@code null} for {@code "grpc"}
   * @throws IllegalArgumentException when the job or task cannot be inferred, or the job is not in
   *     the cluster
   */
  public static ServerDef fromCluster(
      ClusterSpec cluster, String jobName, Integer taskIndex, String protocol) {
    if (cluster == null) {
      throw new IllegalArgumentException("The cluster must not be null");
    }
    String job = jobName;
    if (job == null) {
      List<String> jobs = cluster.jobs();
      if (jobs.size() != 1) {
        throw new IllegalArgumentException(
            "Must specify an explicit job name: the cluster has " + jobs.size() + " jobs " + jobs);
      }
      job = jobs.get(0);
    }
    int task;
    if (taskIndex == null) {
      List<Integer> indices = cluster.taskIndices(job); // names the job if it is unknown
      if (indices.size() != 1) {
        throw new IllegalArgumentException(
            "Must specify an explicit task index: job '" + job + "' has " + indices.size()
                + " tasks");
      }
      task = indices.get(0);
    } else {
      task = taskIndex;
    }
    return ServerDef.newBuilder()
        .setCluster(ClusterDefs.toClusterDef(cluster))
        .setJobName(job)
        .setTaskIndex(task)
        .setProtocol(protocol == null ? DEFAULT_PROTOCOL : protocol)
        .build();
  }

  /**
   * A copy of {@code base} with the given values overriding its own ({@code null} keeps the base's
   * value). Nothing is inferred or validated, as in TensorFlow.
   */
  public static ServerDef withOverrides(
      ServerDef base, String jobName, Integer taskIndex, String protocol) {
    if (base == null) {
      throw new IllegalArgumentException("The base ServerDef must not be null");
    }
    ServerDef.Builder builder = base.toBuilder();
    if (jobName != null) {
      builder.setJobName(jobName);
    }
    if (taskIndex != null) {
      builder.setTaskIndex(taskIndex);
    }
    if (protocol != null) {
      builder.setProtocol(protocol);
    }
    return builder.build();
  }

  /** A copy of {@code serverDef} carrying the given device filters (field 7). */
  public static ServerDef withDeviceFilters(ServerDef serverDef, DeviceFilters filters) {
    ServerDef.Builder builder = serverDef.toBuilder();
    if (filters.equals(DeviceFilters.none())) {
      builder.clearClusterDeviceFilters();
    } else {
      builder.setClusterDeviceFilters(filters.toProto());
    }
    return builder.build();
  }
}
