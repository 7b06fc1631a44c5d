package io.clusterresolver.tensorflow;

import io.clusterresolver.proto.DeviceFilters;

/**
 * The arguments of TensorFlow's {@code tf.config.experimental_connect_to_cluster} after the
 * cluster: {@code job_name} (default {@code localhost}), {@code task_index} (0), {@code protocol}
 * ({@code null}: the resolver's rpc layer, else {@code grpc}), {@code make_master_device_default}
 * ({@code true}) and {@code cluster_device_filters} (none).
 *
 * <pre>{@code
 * ConnectOptions options = ConnectOptions.defaults().withDeviceFilters(filters);
 * }</pre>
 *
 * @param jobName the connecting process's job; added to the cluster when the cluster has no such job
 * @param taskIndex the connecting process's index in that job
 * @param protocol TensorFlow's protocol, or {@code null} for the resolver's rpc layer, else {@code grpc}
 * @param makeMasterDeviceDefault whether ops without a device run on the task the resolver names as
 *     master ({@link TensorFlowConnection#defaultDevice()})
 * @param deviceFilters which devices each task of the cluster may see
 */
public record ConnectOptions(
    String jobName,
    int taskIndex,
    String protocol,
    boolean makeMasterDeviceDefault,
    DeviceFilters deviceFilters) {

  /** TensorFlow's default {@code job_name}. */
  public static final String DEFAULT_JOB_NAME = "localhost";

  /** Checks the arguments. */
  public ConnectOptions {
    if (jobName == null || jobName.isEmpty()) {
      throw new IllegalArgumentException("The connecting job name must not be null or empty");
    }
    if (taskIndex < 0) {
      throw new IllegalArgumentException("The connecting task index must be >= 0, not " + taskIndex);
    }
    if (deviceFilters == null) {
      throw new IllegalArgumentException("Device filters must not be null (DeviceFilters.none())");
    }
  }

  /** TensorFlow's defaults: {@code localhost}, 0, the resolver's protocol, master default, no filters. */
  public static ConnectOptions defaults() {
    return new ConnectOptions(DEFAULT_JOB_NAME, 0, null, true, DeviceFilters.none());
  }

  /** These options with another connecting task. */
  public ConnectOptions withTask(String job, int index) {
    return new ConnectOptions(job, index, protocol, makeMasterDeviceDefault, deviceFilters);
  }

  /** These options with an explicit protocol ({@code null}: the resolver's rpc layer, else grpc). */
  public ConnectOptions withProtocol(String newProtocol) {
    return new ConnectOptions(jobName, taskIndex, newProtocol, makeMasterDeviceDefault, deviceFilters);
  }

  /** These options with {@code make_master_device_default} set. */
  public ConnectOptions withMakeMasterDeviceDefault(boolean value) {
    return new ConnectOptions(jobName, taskIndex, protocol, value, deviceFilters);
  }

  /** These options with device filters. */
  public ConnectOptions withDeviceFilters(DeviceFilters filters) {
    return new ConnectOptions(jobName, taskIndex, protocol, makeMasterDeviceDefault, filters);
  }
}
