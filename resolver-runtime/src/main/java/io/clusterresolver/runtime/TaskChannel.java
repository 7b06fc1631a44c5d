package io.clusterresolver.runtime;

import io.clusterresolver.runtime.rpc.TaskServiceGrpc;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.util.concurrent.TimeUnit;

/** The client side of one task: its channel and stubs, calls naming the local task. */
final class TaskChannel {
  static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

  final String task; // /job:J/replica:0/task:T
  final String job;
  final int index;
  final String address;
  final ManagedChannel channel;
  final TaskServiceGrpc.TaskServiceBlockingStub blocking;
  final TaskServiceGrpc.TaskServiceStub async;

  private final TlsConfig tls;
  private final boolean pooled;

  /** A channel of its own (closed by {@link #shutdown()}). */
  TaskChannel(String job, int index, String address, Caller self, TlsConfig tls) {
    this(job, index, address, self, tls, false);
  }

  /** With {@code pooled}, the channel is shared through {@link ChannelPool}. */
  TaskChannel(String job, int index, String address, Caller self, TlsConfig tls, boolean pooled) {
    this.job = job;
    this.index = index;
    this.task = DeviceName.taskName(job, index);
    this.address = address;
    this.tls = tls;
    this.pooled = pooled;
    this.channel =
        pooled ? ChannelPool.acquire(address, tls) : ChannelPool.newChannel(address, tls);
    Metadata headers = new Metadata();
    headers.put(Caller.HEADER, self.name());
    io.grpc.Channel named =
        ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
    this.blocking = TaskServiceGrpc.newBlockingStub(named);
    this.async = TaskServiceGrpc.newStub(named);
  }

  TaskServiceGrpc.TaskServiceBlockingStub blocking(long timeoutMillis) {
    return blocking.withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS);
  }

  /** A failure of a call to this task, naming the task, its address and the operation. */
  RemoteTaskException failure(String operation, Throwable cause) {
    Status status = Status.fromThrowable(cause);
    String why =
        status.getCode() == Status.Code.UNAVAILABLE
            ? "unreachable (" + status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription()) + ")"
            : status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription());
    return new RemoteTaskException(
        task, status.getCode().name(), operation + " on " + task + " at " + address + " failed: " + why,
        cause instanceof StatusRuntimeException ? cause : status.asRuntimeException());
  }

  /** Closes the channel, or gives it back to the pool. Call once. */
  void shutdown() {
    if (pooled) {
      ChannelPool.release(address, tls, channel);
    } else {
      channel.shutdownNow();
    }
  }
}
