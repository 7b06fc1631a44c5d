package io.clusterresolver.tensorflow;

import static org.tensorflow.internal.c_api.global.tensorflow.TFE_ContextSetServerDef;
import static org.tensorflow.internal.c_api.global.tensorflow.TFE_ContextUpdateServerDef;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.Resolution;
import io.clusterresolver.proto.ServerDef;
import io.clusterresolver.proto.ServerDefs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import org.bytedeco.javacpp.BytePointer;
import org.tensorflow.EagerSession;
import org.tensorflow.internal.c_api.TFE_Context;

/**
 * {@code tf.config.experimental_connect_to_cluster} for TensorFlow Java: connects an {@link
 * EagerSession} to the TensorFlow servers of a cluster ({@link TensorFlowServer}, {@code
 * cluster-resolver tf-server}, or TensorFlow's own servers in any language), with TensorFlow's
 * semantics:
 *
 * <ul>
 *   <li>the connecting process is task {@code taskIndex} of job {@code jobName} (default {@code
 *       /job:localhost/replica:0/task:0}); a job the cluster lacks is added, served on a free
 *       localhost port;
 *   <li>the protocol is the resolver's rpc layer unless given, else {@code grpc};
 *   <li>device filters travel in the {@code ServerDef} ({@code cluster_device_filters}); TensorFlow
 *       applies them to what the remote tasks see, and only on a session's first connect;
 *   <li>with {@code makeMasterDeviceDefault}, ops without a device run on the task whose address is
 *       the resolver's {@code master()} (matched exactly);
 *   <li>a resolver whose master is {@code ""} or {@code "local"} connects nothing;
 *   <li>connecting a session again updates its context to the new cluster (TensorFlow's {@code
 *       update_server_def}); handles to values on the old remote devices become invalid.
 * </ul>
 *
 * <pre>{@code
 * try (EagerSession session = EagerSession.create()) {
 *   TensorFlowConnection cluster = TensorFlowCluster.connect(session, resolver);
 *   cluster.devices().forEach(System.out::println);
 *   TensorHandle sum = cluster.op("AddV2").device("/job:worker/task:1")
 *       .input(TensorHandle.scalar(40)).input(TensorHandle.scalar(2))
 *       .attr("T", DataType.DT_FLOAT).execute();
 * }
 * }</pre>
 */
public final class TensorFlowCluster {
  private static final Set<String> LOCAL_MASTERS = Set.of("", "local");
  /** TensorFlow's {@code keep_alive_secs} default: remote contexts of a silent client live this long. */
  private static final int KEEP_ALIVE_SECONDS = 600;

  /** Sessions whose context has a server def: the next connect updates it instead of setting it. */
  private static final Set<EagerSession> CONNECTED =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  private TensorFlowCluster() {}

  /** Connects to the cluster a resolver describes, with TensorFlow's defaults. */
  public static TensorFlowConnection connect(EagerSession session, ClusterResolver resolver) {
    return connect(session, resolver, ConnectOptions.defaults());
  }

  /**
   * Connects to the cluster a resolver describes: one {@link ClusterResolver#resolve()} snapshot
   * gives the cluster, the rpc layer and the master.
   *
   * @throws ConfigurationException when the connecting task is in the cluster's job without its
   *     index, or the master is not an address of the cluster
   * @throws TensorFlowTaskException when TensorFlow cannot reach a task; names it and its address
   */
  public static TensorFlowConnection connect(
      EagerSession session, ClusterResolver resolver, ConnectOptions options) {
    if (resolver == null) {
      throw new IllegalArgumentException("The resolver must not be null");
    }
    Resolution resolution = resolver.resolve();
    if (LOCAL_MASTERS.contains(resolution.master())) {
      return new TensorFlowConnection(requireOpen(session), ClusterSpec.empty(), null, null);
    }
    String protocol = options.protocol() != null ? options.protocol()
        : resolution.rpcLayer().orElse(ServerDefs.DEFAULT_PROTOCOL);
    String master = options.makeMasterDeviceDefault() ? resolution.master() : null;
    return connect(session, resolution.clusterSpec(), options.withProtocol(protocol), master);
  }

  /** Connects to a cluster, with TensorFlow's defaults. */
  public static TensorFlowConnection connect(EagerSession session, ClusterSpec cluster) {
    return connect(session, cluster, ConnectOptions.defaults());
  }

  /**
   * Connects to a cluster. A {@code ClusterSpec} names no master, so no default device is set.
   *
   * @throws ConfigurationException when the connecting task is in the cluster's job without its index
   * @throws TensorFlowTaskException when TensorFlow cannot reach a task; names it and its address
   */
  public static TensorFlowConnection connect(
      EagerSession session, ClusterSpec cluster, ConnectOptions options) {
    return connect(session, cluster, options, null);
  }

  private static TensorFlowConnection connect(
      EagerSession session, ClusterSpec cluster, ConnectOptions options, String master) {
    if (cluster == null || options == null) {
      throw new IllegalArgumentException("The cluster and the options must not be null");
    }
    TFE_Context context = Natives.context(requireOpen(session));
    String job = options.jobName();
    int index = options.taskIndex();
    ClusterSpec full = withConnectingTask(cluster, job, index);
    ServerDef serverDef = ServerDefs.withDeviceFilters(
        ServerDefs.fromCluster(full, job, index, options.protocol()), options.deviceFilters());
    String defaultDevice = master == null ? null : masterDevice(full, master);

    byte[] bytes = serverDef.toByteArray();
    TensorFlowConnection connection =
        new TensorFlowConnection(session, full, serverDef, defaultDevice);
    synchronized (CONNECTED) {
      boolean update = CONNECTED.contains(session);
      try (BytePointer proto = new BytePointer(bytes)) {
        Natives.call(status -> {
          if (update) {
            TFE_ContextUpdateServerDef(context, KEEP_ALIVE_SECONDS, proto, bytes.length, status);
          } else {
            TFE_ContextSetServerDef(context, KEEP_ALIVE_SECONDS, proto, bytes.length, status);
          }
        }, failure -> unreachable(full, failure));
      }
      CONNECTED.add(session);
    }
    return connection;
  }

  private static EagerSession requireOpen(EagerSession session) {
    if (session == null) {
      throw new IllegalArgumentException("The session must not be null");
    }
    return session;
  }

  /** The cluster with the connecting task: added on a free localhost port when its job is new. */
  private static ClusterSpec withConnectingTask(ClusterSpec cluster, String job, int index) {
    if (!cluster.hasJob(job)) {
      ClusterSpec.Builder builder = ClusterSpec.builder();
      for (String j : cluster.jobs()) {
        for (int t : cluster.taskIndices(j)) {
          builder.addTask(j, t, cluster.taskAddress(j, t));
        }
      }
      return builder.addTask(job, index, "localhost:" + freePort()).build();
    }
    if (!cluster.taskIndices(job).contains(index)) {
      throw new ConfigurationException("The connecting task " + new TaskName(job, index)
          + " is not in the cluster: job '" + job + "' has tasks " + cluster.taskIndices(job)
          + " (connect as one of them, or as a job the cluster does not have)");
    }
    return cluster;
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free local port for the connecting task", e);
    }
  }

  /** The master's task, matched by exact address (TensorFlow matches substrings), as a CPU device. */
  private static String masterDevice(ClusterSpec cluster, String master) {
    String address = master.contains("://") ? master.substring(master.indexOf("://") + 3) : master;
    for (String job : cluster.jobs()) {
      for (int task : cluster.taskIndices(job)) {
        if (address.equals(cluster.taskAddress(job, task))) {
          return new TaskName(job, task) + "/device:CPU:0";
        }
      }
    }
    throw new ConfigurationException("makeMasterDeviceDefault is set but the master '" + master
        + "' is no task of the cluster " + cluster.asMap()
        + " (turn it off with ConnectOptions.withMakeMasterDeviceDefault(false))");
  }

  // TensorFlow names the unreachable task in its own words (an address or a task name): ours name
  // the first task of the cluster the message mentions, with its address.
  private static RuntimeException unreachable(ClusterSpec cluster, Natives.Failure failure) {
    for (Map.Entry<String, Object> job : cluster.asMap().entrySet()) {
      for (int task : cluster.taskIndices(job.getKey())) {
        TaskName name = new TaskName(job.getKey(), task);
        String address = cluster.taskAddress(job.getKey(), task);
        if (failure.message().contains(address)
            || failure.message().contains("/job:" + name.job() + "/replica:0/task:" + task)) {
          return new TensorFlowTaskException(name.toString(), address, "TensorFlow could not connect"
              + " to " + name + " at " + address + ": " + failure, null);
        }
      }
    }
    return new TensorFlowTaskException(null, null, "TensorFlow could not connect to the cluster "
        + cluster.asMap() + ": " + failure, null);
  }
}
