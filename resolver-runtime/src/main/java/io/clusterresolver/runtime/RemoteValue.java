package io.clusterresolver.runtime;

/**
 * A handle to a value stored on a task of the cluster: the input or result of {@link
 * ClusterConnection#run} or {@link ClusterConnection#put}. It is valid while its connection is
 * open and not invalidated by a later connect; read it with {@link ClusterConnection#fetch}.
 */
public final class RemoteValue {
  final ClusterConnection connection;
  final String task;
  final String device;
  final long id;

  RemoteValue(ClusterConnection connection, String task, String device, long id) {
    this.connection = connection;
    this.task = task;
    this.device = device;
    this.id = id;
  }

  /** The device the value lives on. */
  public String device() {
    return device;
  }

  /** Whether the value's connection is still open and current. */
  public boolean isValid() {
    return connection.isValid();
  }

  @Override
  public String toString() {
    return "RemoteValue{" + device + "#" + id + "}";
  }
}
