package io.clusterresolver.runtime;

import io.clusterresolver.runtime.rpc.TaskServiceGrpc;
import io.grpc.ChannelCredentials;
import io.grpc.ClientInterceptors;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.net.InetAddress;
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

  TaskChannel(String job, int index, String address, Caller self, TlsConfig tls) {
    this.job = job;
    this.index = index;
    this.task = DeviceName.taskName(job, index);
    this.address = address;
    int colon = address.lastIndexOf(':');
    String host = address.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    if (host.equalsIgnoreCase("localhost")) {
      // Servers listen on the loopback address; "localhost" may resolve to an unreachable ::1 first.
      host = InetAddress.getLoopbackAddress().getHostAddress();
    }
    int port = TaskServer.portOf(address);
    ChannelCredentials credentials =
        tls == null ? InsecureChannelCredentials.create() : tls.channelCredentials();
    this.channel =
        Grpc.newChannelBuilderForAddress(host, port, credentials)
            .maxInboundMessageSize(MAX_MESSAGE_BYTES)
            // Our callbacks only complete futures: run them on the transport thread, no hand-off.
            .directExecutor()
            .build();
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

  void shutdown() {
    channel.shutdownNow();
  }
}
