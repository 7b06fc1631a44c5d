package io.clusterresolver.runtime;

import com.google.protobuf.ByteString;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.runtime.rpc.FetchRequest;
import io.clusterresolver.runtime.rpc.PutRequest;
import io.clusterresolver.runtime.rpc.ReleaseContextRequest;
import io.clusterresolver.runtime.rpc.RunRequest;
import io.clusterresolver.runtime.rpc.ValueHandle;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A connection of this process (its local task) to the tasks of a cluster, made by {@link
 * Cluster#connect}. It lists the devices the local task may see, runs functions on them, and
 * stores and fetches values there. Thread-safe.
 *
 * <p>It ends when closed, or when the same local task connects again ("invalidated by a later
 * connect"); its values are then freed on the servers and its {@link RemoteValue}s fail.
 */
public final class ClusterConnection implements AutoCloseable {
  private enum State { OPEN, INVALIDATED, CLOSED }

  private final Caller self;
  private final String contextId;
  private final ClusterSpec cluster;
  private final List<TaskChannel> channels;
  private final List<String> devices;
  private final Map<String, TaskChannel> taskOfDevice = new HashMap<>();
  private final TaskServer localServer;
  private final long callMillis;
  private volatile State state = State.OPEN;

  ClusterConnection(
      Caller self, String contextId, ClusterSpec cluster, Map<TaskChannel, List<String>> visible,
      TaskServer localServer, ConnectOptions options) {
    this.self = self;
    this.contextId = contextId;
    this.cluster = cluster;
    this.channels = List.copyOf(visible.keySet());
    List<String> all = new ArrayList<>();
    visible.forEach((channel, list) -> {
      all.addAll(list);
      list.forEach(device -> taskOfDevice.put(device, channel));
    });
    this.devices = List.copyOf(all);
    this.localServer = localServer;
    this.callMillis = options.callTimeout().toMillis();
  }

  /** The devices visible to the local task, task by task (jobs sorted, tasks by index). */
  public List<String> devices() {
    return devices;
  }

  /** The cluster as connected: the given one plus the local job when it was added. */
  public ClusterSpec clusterSpec() {
    return cluster;
  }

  /**
   * The task serving at a master address such as {@code grpc://10.0.0.1:2222} (the scheme is
   * ignored), matched by the exact {@code host:port} (D13: TensorFlow matches a substring, so
   * {@code 10.0.0.1:22} would also match {@code 10.0.0.1:2222}).
   */
  public java.util.Optional<String> taskAt(String master) {
    if (master == null) {
      return java.util.Optional.empty();
    }
    int scheme = master.indexOf("://");
    String address = scheme >= 0 ? master.substring(scheme + 3) : master;
    for (String job : cluster.jobs()) {
      for (int task : cluster.taskIndices(job)) {
        if (cluster.taskAddress(job, task).equals(address)) {
          return java.util.Optional.of(DeviceName.taskName(job, task));
        }
      }
    }
    return java.util.Optional.empty();
  }

  /** The local task, {@code /job:J/replica:0/task:T}. */
  public String localTask() {
    return self.name();
  }

  /** The server this connection started for the local task, when its job was not in the cluster. */
  public java.util.Optional<TaskServer> localServer() {
    return java.util.Optional.ofNullable(localServer);
  }

  String contextId() {
    return contextId;
  }

  /** Whether the connection is open and not invalidated by a later connect. */
  public boolean isValid() {
    return state == State.OPEN;
  }

  /**
   * Stores {@code data} on a device and returns its handle.
   *
   * @throws IllegalArgumentException when the device is not visible to the local task
   * @throws RemoteTaskException when the task fails the call (naming task, address and status)
   */
  public RemoteValue put(String device, byte[] data) {
    TaskChannel task = taskOf(device);
    try {
      ValueHandle handle =
          task.blocking(callMillis).put(
              PutRequest.newBuilder().setContextId(contextId).setDevice(device)
                  .setData(ByteString.copyFrom(data)).build());
      return new RemoteValue(this, task.task, handle.getDevice(), handle.getId());
    } catch (StatusRuntimeException e) {
      throw task.failure("put to " + device, e);
    }
  }

  /**
   * Runs function {@code function} (registered on the device's task) on {@code input}; the result
   * stays on that device.
   */
  public RemoteValue run(String device, String function, byte[] input) {
    return run(device, function, RunRequest.newBuilder().setData(ByteString.copyFrom(input)));
  }

  /**
   * Runs a function on a stored value. A value of another task is fetched and sent along, as
   * TensorFlow copies a tensor to the device that needs it.
   */
  public RemoteValue run(String device, String function, RemoteValue input) {
    checkOwn(input);
    TaskChannel task = taskOf(device);
    if (task.task.equals(input.task)) {
      return run(device, function, RunRequest.newBuilder().setValueId(input.id));
    }
    return run(device, function, fetch(input));
  }

  private RemoteValue run(String device, String function, RunRequest.Builder request) {
    TaskChannel task = taskOf(device);
    try {
      ValueHandle handle =
          task.blocking(callMillis).run(
              request.setContextId(contextId).setDevice(device).setFunction(function).build());
      return new RemoteValue(this, task.task, handle.getDevice(), handle.getId());
    } catch (StatusRuntimeException e) {
      throw task.failure("run '" + function + "' on " + device, e);
    }
  }

  /** The bytes of a stored value. */
  public byte[] fetch(RemoteValue value) {
    checkOwn(value);
    TaskChannel task = taskOf(value.device);
    try {
      return task.blocking(callMillis)
          .fetch(FetchRequest.newBuilder()
              .setHandle(ValueHandle.newBuilder().setContextId(contextId).setDevice(value.device)
                  .setId(value.id))
              .build())
          .getData()
          .toByteArray();
    } catch (StatusRuntimeException e) {
      throw task.failure("fetch of " + value, e);
    }
  }

  /**
   * Frees a stored value on its task (values otherwise live until the connection ends). Releasing
   * a value twice does nothing; using it afterwards fails with {@code NOT_FOUND "unknown value"}.
   */
  public void release(RemoteValue value) {
    checkOwn(value);
    TaskChannel task = taskOf(value.device);
    try {
      task.blocking(callMillis).delete(ValueHandle.newBuilder().setContextId(contextId)
          .setDevice(value.device).setId(value.id).build());
    } catch (StatusRuntimeException e) {
      throw task.failure("release of " + value, e);
    }
  }

  private void checkOwn(RemoteValue value) {
    if (value == null) {
      throw new IllegalArgumentException("The remote value must not be null");
    }
    if (value.connection != this) {
      value.connection.checkOpen("remote value " + value);
      throw new IllegalArgumentException(value + " belongs to another connection");
    }
    checkOpen("remote value " + value);
  }

  private void checkOpen(String what) {
    State s = state;
    if (s == State.INVALIDATED) {
      throw new IllegalStateException(
          what + " of " + self + " was invalidated by a later connect of " + self);
    }
    if (s == State.CLOSED) {
      throw new IllegalStateException(what + " of " + self + ": the connection is closed");
    }
  }

  private TaskChannel taskOf(String device) {
    checkOpen("the connection");
    TaskChannel task = taskOf0(device);
    if (task == null) {
      throw new IllegalArgumentException(
          "unknown device " + device + ": not visible to " + self + " (visible: " + devices + ")");
    }
    return task;
  }

  private TaskChannel taskOf0(String device) {
    return device == null ? null : taskOfDevice.get(device);
  }

  /** Marks this connection superseded by a new connect of the same local task. */
  void invalidate() {
    synchronized (this) {
      if (state != State.OPEN) {
        return;
      }
      state = State.INVALIDATED;
    }
  }

  /** After the new connect: frees what the servers still hold, and this side's resources. */
  void releaseSuperseded() {
    release(true);
  }

  private void release(boolean superseded) {
    ReleaseContextRequest request =
        ReleaseContextRequest.newBuilder().setContextId(contextId).setSuperseded(superseded).build();
    // Best effort, in parallel: a server that is gone has nothing left to free.
    List<java.util.concurrent.CompletableFuture<Void>> pending = new ArrayList<>();
    for (TaskChannel channel : channels) {
      java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
      channel.async.withDeadlineAfter(Math.min(callMillis, 1000), TimeUnit.MILLISECONDS)
          .releaseContext(request, new io.grpc.stub.StreamObserver<>() {
            @Override public void onNext(io.clusterresolver.runtime.rpc.ReleaseContextResponse r) {}
            @Override public void onError(Throwable t) { done.complete(null); }
            @Override public void onCompleted() { done.complete(null); }
          });
      pending.add(done);
    }
    try {
      java.util.concurrent.CompletableFuture.allOf(pending.toArray(new java.util.concurrent.CompletableFuture[0]))
          .get(Math.min(callMillis, 1000) + 500, TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      // Ignored: release is best effort.
    }
    channels.forEach(TaskChannel::shutdown);
    if (localServer != null) {
      localServer.close();
    }
  }

  /** Frees this connection's values on every task and stops its local server. Idempotent. */
  @Override
  public void close() {
    boolean wasOpen;
    synchronized (this) {
      wasOpen = state == State.OPEN;
      if (state == State.CLOSED) {
        return;
      }
      state = State.CLOSED;
    }
    Cluster.closed(this);
    if (wasOpen) {
      release(false);
    }
  }

  @Override
  public String toString() {
    return "ClusterConnection{" + self + ", " + channels.size() + " tasks, devices=" + devices
        + ", " + state + "}";
  }
}
