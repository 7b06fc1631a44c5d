package io.clusterresolver.runtime;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.ClusterDefs;
import io.clusterresolver.proto.DeviceFilters;
import io.clusterresolver.runtime.rpc.CreateContextRequest;
import io.clusterresolver.runtime.rpc.CreateContextResponse;
import io.clusterresolver.runtime.rpc.TaskServiceGrpc;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Connects this process to the tasks of a cluster, like TensorFlow's {@code
 * tf.config.experimental_connect_to_cluster}.
 *
 * <ul>
 *   <li>A resolver whose {@code master()} is {@code ""} or {@code "local"} has nothing remote: the
 *       connection holds the local task only.
 *   <li>When the local job (default {@code localhost}) is not a job of the cluster, it is added,
 *       with the requested task index (D13), at {@code localhost:<unused port>}, served by a
 *       {@link TaskServer} of this process that lives as long as the connection.
 *   <li>Every task is contacted in parallel, each call with its own deadline, retrying until the
 *       connect timeout, because tasks start at different times. A task that cannot be reached in
 *       time fails the connect with an error naming it.
 *   <li>The devices visible to the local task follow the device filters; the servers enforce them.
 *   <li>Connecting again for the same local task invalidates the previous connection: its values
 *       and handles fail with "invalidated by a later connect", on this side and on the servers,
 *       which free them. (TensorFlow has one such context per process; here it is one per local
 *       task, so a test can act as several tasks.)
 * </ul>
 */
public final class Cluster {
  private static final System.Logger LOG = System.getLogger(Cluster.class.getName());
  private static final Set<String> LOCAL_MASTERS = Set.of("", "local");

  static final ScheduledExecutorService SCHEDULER = newScheduler();

  /** The current connection of each local task of this process. */
  private static final Map<String, ClusterConnection> CURRENT = new ConcurrentHashMap<>();

  private Cluster() {}

  private static ScheduledExecutorService newScheduler() {
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(1, r -> {
          Thread t = new Thread(r, "cluster-connect-retry");
          t.setDaemon(true);
          return t;
        });
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }

  /** Connects as {@code /job:localhost/task:0} with TensorFlow's defaults. */
  public static ClusterConnection connect(ClusterSpec cluster) {
    return connect(cluster, ConnectOptions.defaults());
  }

  /** Connects with TensorFlow's arguments ({@code job_name}, {@code task_index}, …). */
  public static ClusterConnection connect(
      ClusterSpec cluster, String jobName, int taskIndex, String protocol, DeviceFilters filters) {
    return connect(cluster, options(jobName, taskIndex, protocol, filters));
  }

  /** Connects to the cluster a resolver describes, with TensorFlow's defaults. */
  public static ClusterConnection connect(ClusterResolver resolver) {
    return connect(resolver, ConnectOptions.defaults());
  }

  /** Connects to the cluster a resolver describes, with TensorFlow's arguments. */
  public static ClusterConnection connect(
      ClusterResolver resolver, String jobName, int taskIndex, String protocol,
      DeviceFilters filters) {
    return connect(resolver, options(jobName, taskIndex, protocol, filters));
  }

  /**
   * Connects to the cluster a resolver describes; a {@code master()} of {@code ""} or {@code
   * "local"} gives a local-only connection.
   */
  public static ClusterConnection connect(ClusterResolver resolver, ConnectOptions options) {
    if (resolver == null) {
      throw new IllegalArgumentException("The resolver must not be null");
    }
    if (LOCAL_MASTERS.contains(resolver.master())) {
      return connect(ClusterSpec.empty(), options);
    }
    return connect(resolver.resolve().clusterSpec(), options);
  }

  private static ConnectOptions options(
      String jobName, int taskIndex, String protocol, DeviceFilters filters) {
    return ConnectOptions.builder()
        .jobName(jobName == null ? ConnectOptions.DEFAULT_JOB_NAME : jobName)
        .taskIndex(taskIndex)
        .protocol(protocol)
        .deviceFilters(filters)
        .build();
  }

  /**
   * Connects to every task of {@code cluster}.
   *
   * @throws IllegalArgumentException for an unsupported protocol, an invalid device filter, or a
   *     local job that is in the cluster without the local task index
   * @throws RemoteTaskException when a task cannot be reached within the connect timeout (the
   *     message names every such task and its address)
   */
  public static ClusterConnection connect(ClusterSpec cluster, ConnectOptions options) {
    if (cluster == null || options == null) {
      throw new IllegalArgumentException("The cluster and the options must not be null");
    }
    if (!options.protocol().equals("grpc")) {
      throw new IllegalArgumentException(
          "Unsupported protocol '" + options.protocol() + "': only \"grpc\" is supported");
    }
    validateFilters(options.deviceFilters());
    String job = options.jobName();
    int index = options.taskIndex();
    Caller self = new Caller(job, index);

    TaskServer localServer = null;
    ClusterSpec full = cluster;
    if (!cluster.hasJob(job)) {
      localServer = startLocalServer(cluster, options);
      full = localServer.clusterSpec();
    } else if (!cluster.taskIndices(job).contains(index)) {
      throw new IllegalArgumentException(
          "The local task " + self + " is not in the cluster: job '" + job + "' has tasks "
              + cluster.taskIndices(job) + " (use one of them, or a job name not in the cluster)");
    }

    // A later connect of the same local task supersedes the previous one, even if it fails.
    ClusterConnection previous = CURRENT.remove(self.name());
    if (previous != null) {
      previous.invalidate();
    }

    String contextId = UUID.randomUUID().toString();
    CreateContextRequest request =
        CreateContextRequest.newBuilder()
            .setContextId(contextId)
            .setCluster(ClusterDefs.toClusterDef(full))
            .setDeviceFilters(options.deviceFilters().toProto())
            .build();
    List<TaskChannel> channels = new ArrayList<>();
    for (String j : full.jobs()) {
      for (int t : full.taskIndices(j)) {
        // The local server is this connection's own: its channel is not worth sharing.
        boolean own = localServer != null && j.equals(job) && t == index;
        channels.add(new TaskChannel(
            j, t, full.taskAddress(j, t), self, options.tls(), options.reuseChannels() && !own));
      }
    }
    long start = System.nanoTime();
    long deadline = start + options.connectTimeout().toNanos();
    long callMillis = options.callTimeout().toMillis();
    List<CompletableFuture<CreateContextResponse>> futures = new ArrayList<>();
    for (TaskChannel channel : channels) {
      futures.add(join(channel, request, deadline, callMillis));
    }
    Map<TaskChannel, List<String>> visible = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    RemoteTaskException first = null;
    for (int i = 0; i < channels.size(); i++) {
      TaskChannel channel = channels.get(i);
      try {
        visible.put(channel, futures.get(i).join().getVisibleDevicesList());
      } catch (CompletionException e) {
        RemoteTaskException failure =
            e.getCause() instanceof RemoteTaskException
                ? (RemoteTaskException) e.getCause()
                : channel.failure("connect", e.getCause());
        failures.add(failure.getMessage());
        if (first == null) {
          first = failure;
        }
      }
    }
    if (previous != null) {
      previous.releaseSuperseded();
    }
    if (first != null) {
      channels.forEach(TaskChannel::shutdown);
      if (localServer != null) {
        localServer.close();
      }
      String message =
          failures.size() == 1
              ? failures.get(0)
              : "Cannot connect to " + failures.size() + " of " + channels.size() + " tasks: "
                  + String.join("; ", failures);
      throw new RemoteTaskException(first.task(), first.code(), message, first);
    }
    ClusterConnection connection =
        new ClusterConnection(self, contextId, full, visible, localServer, options);
    CURRENT.put(self.name(), connection);
    LOG.log(Level.DEBUG, "{0} connected to {1} tasks in {2} ms; visible devices {3}",
        self, channels.size(), (System.nanoTime() - start) / 1_000_000, connection.devices());
    return connection;
  }

  /** Forgets {@code connection} as the current one of its task (it was closed). */
  static void closed(ClusterConnection connection) {
    CURRENT.remove(connection.localTask(), connection);
  }

  private static void validateFilters(DeviceFilters filters) {
    filters.toProto().getJobsList().forEach(job -> job.getTasksMap().forEach((task, list) -> {
      for (String filter : list.getDeviceFiltersList()) {
        try {
          DeviceName.parse(filter);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "Device filter of task " + task + " in job '" + job.getName() + "': " + e.getMessage(), e);
        }
      }
    }));
  }

  private static TaskServer startLocalServer(ClusterSpec cluster, ConnectOptions options) {
    IOException lastBindFailure = null;
    // TensorFlow picks an unused port, then binds it; another process may take it in between.
    for (int attempt = 0; attempt < 3; attempt++) {
      int port = unusedPort();
      ClusterSpec.Builder withLocal = ClusterSpec.builder();
      for (String job : cluster.jobs()) {
        withLocal.addEmptyJob(job);
        for (int task : cluster.taskIndices(job)) {
          withLocal.addTask(job, task, cluster.taskAddress(job, task));
        }
      }
      ClusterSpec full =
          withLocal.addTask(options.jobName(), options.taskIndex(), "localhost:" + port).build();
      TaskServer.Builder builder =
          TaskServer.builder(full, options.jobName(), options.taskIndex())
              .accelerators(options.localAccelerators())
              .tls(options.tls());
      options.localFunctions().forEach(builder::function);
      try {
        return builder.start();
      } catch (ClusterResolverException e) {
        lastBindFailure = new IOException(e.getMessage(), e);
      }
    }
    throw new ClusterResolverException(
        "Cannot start the local task's server: " + lastBindFailure.getMessage(), lastBindFailure);
  }

  private static int unusedPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new ClusterResolverException("Cannot find an unused loopback port: " + e.getMessage(), e);
    }
  }

  // --- joining one task: status (is it the task we expect?), then the context, with retries ---

  /** One call per task: the server checks it is the task the cluster places there. */
  private static CompletableFuture<CreateContextResponse> join(
      TaskChannel channel, CreateContextRequest request, long deadline, long callMillis) {
    CreateContextRequest forTask = request.toBuilder()
        .setCheckTask(true).setExpectedJob(channel.job).setExpectedTaskIndex(channel.index).build();
    AsyncCall<CreateContextResponse> create = (stub, out) -> stub.createContext(forTask, out);
    return retrying(channel, deadline, callMillis, create);
  }

  private interface AsyncCall<T> {
    void call(TaskServiceGrpc.TaskServiceStub stub, StreamObserver<T> observer);
  }

  private static <T> CompletableFuture<T> retrying(
      TaskChannel channel, long deadline, long callMillis, AsyncCall<T> call) {
    CompletableFuture<T> result = new CompletableFuture<>();
    attempt(channel, deadline, callMillis, call, result, 1, 20);
    return result;
  }

  private static <T> void attempt(
      TaskChannel channel, long deadline, long callMillis, AsyncCall<T> call,
      CompletableFuture<T> result, int attempt, long backoffMillis) {
    long remainingMillis = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
    call.call(
        channel.async.withDeadlineAfter(Math.min(callMillis, remainingMillis), TimeUnit.MILLISECONDS),
        new StreamObserver<>() {
          private T value;

          @Override
          public void onNext(T v) {
            value = v;
          }

          @Override
          public void onError(Throwable error) {
            Status.Code code = Status.fromThrowable(error).getCode();
            boolean retryable = code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED;
            if (retryable && System.nanoTime() + backoffMillis * 1_000_000 < deadline) {
              // Skip the channel's own reconnect backoff: the task may have just started.
              channel.channel.resetConnectBackoff();
              SCHEDULER.schedule(
                  () -> attempt(channel, deadline, callMillis, call, result, attempt + 1,
                      Math.min(backoffMillis * 2, 500)),
                  backoffMillis, TimeUnit.MILLISECONDS);
              return;
            }
            Status status = Status.fromThrowable(error);
            if (status.getCode() == Status.Code.FAILED_PRECONDITION
                && status.getDescription() != null
                && status.getDescription().startsWith(TaskServer.WRONG_TASK)) {
              result.completeExceptionally(new RemoteTaskException(channel.task, status.getCode().name(),
                  "The server at " + channel.address + ": "
                      + status.getDescription().substring(TaskServer.WRONG_TASK.length()).trim(),
                  error));
              return;
            }
            RemoteTaskException failure = channel.failure("Connecting", error);
            result.completeExceptionally(
                new RemoteTaskException(channel.task, failure.code(),
                    failure.getMessage() + (retryable
                        ? " after " + attempt + " attempts within the connect timeout (is the task running?)"
                        : ""),
                    error));
          }

          @Override
          public void onCompleted() {
            result.complete(value);
          }
        });
  }
}
