package io.clusterresolver.tensorflow;

import com.google.protobuf.InvalidProtocolBufferException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.Resolution;
import io.clusterresolver.TaskAddress;
import io.clusterresolver.proto.ServerDef;
import io.clusterresolver.proto.ServerDefs;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.CountDownLatch;
import org.tensorflow.Server;
import org.tensorflow.exceptions.TFUnimplementedException;
import org.tensorflow.exceptions.TensorFlowException;

/**
 * This process's task of a resolved cluster, served by a real TensorFlow server (TensorFlow's
 * {@code tf.distribute.Server}, through TensorFlow Java's {@link Server}). Other TensorFlow
 * programs, in any language, connect to it and place ops on its devices.
 *
 * <pre>{@code
 * try (TensorFlowServer server = TensorFlowServer.start(resolver.resolve())) {
 *   System.out.println(server.taskName() + " at " + server.target());
 *   server.awaitTermination();
 * }
 * }</pre>
 *
 * <p>The server's {@code ServerDef} is {@code resolver-proto}'s {@link ServerDef} (the cluster,
 * this task's job and index, the protocol), passed to TensorFlow as bytes; it listens on every
 * interface at the port of this task's own address.
 *
 * <p><b>Stopping.</b> TensorFlow's gRPC server has no clean shutdown ("Clean shutdown is not
 * currently implemented", TensorFlow 2.18): {@link #close()} stops it where TensorFlow can and
 * otherwise releases {@link #awaitTermination()}; the port is freed when the process exits. Run one
 * server per process, as TensorFlow does.
 */
public final class TensorFlowServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(TensorFlowServer.class.getName());

  private final TaskName task;
  private final TaskAddress address;
  private final ServerDef serverDef;
  private final Server server;
  private final CountDownLatch closed = new CountDownLatch(1);

  private TensorFlowServer(TaskName task, TaskAddress address, ServerDef serverDef, Server server) {
    this.task = task;
    this.address = address;
    this.serverDef = serverDef;
    this.server = server;
  }

  /**
   * Starts this process's task of a resolution: its job and index, the cluster, and its rpc layer
   * ({@code grpc} when the resolver names none).
   *
   * @throws ConfigurationException when the resolution does not say which task this process is,
   *     the task is not in the cluster, or its address has no port TensorFlow can parse
   * @throws TensorFlowTaskException when the port is taken or TensorFlow refuses to start
   */
  public static TensorFlowServer start(Resolution resolution) {
    if (resolution == null) {
      throw new IllegalArgumentException("The resolution must not be null");
    }
    if (resolution.taskType().isEmpty() || resolution.taskId().isEmpty()) {
      throw new ConfigurationException(
          "The resolver does not say which task this process is (task type "
              + resolution.taskType().orElse("unknown") + ", task id "
              + (resolution.taskId().isPresent() ? resolution.taskId().getAsInt() : "unknown")
              + "): set the provider's task-type and task-id properties (for TF_CONFIG, its"
              + " \"task\" object)");
    }
    return start(resolution.clusterSpec(), resolution.taskType().get(),
        resolution.taskId().getAsInt(), resolution.rpcLayer().orElse(null));
  }

  /**
   * Starts the TensorFlow server of task {@code taskIndex} of {@code job}.
   *
   * @param protocol TensorFlow's protocol (the rpc layer), or {@code null} for {@code grpc}
   * @throws ConfigurationException when the task is not in the cluster or its address has no port
   *     TensorFlow can parse
   * @throws TensorFlowTaskException when the port is taken or TensorFlow refuses to start
   */
  public static TensorFlowServer start(
      ClusterSpec cluster, String job, int taskIndex, String protocol) {
    TaskName task = new TaskName(job, taskIndex);
    if (!cluster.hasJob(job) || !cluster.taskIndices(job).contains(taskIndex)) {
      throw new ConfigurationException("This process is " + task + ", which is not a task of the"
          + " cluster " + cluster.asMap() + ": check the provider's task-type and task-id");
    }
    String text = cluster.taskAddress(job, taskIndex);
    TaskAddress address;
    try {
      address = TaskAddress.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationException("The address '" + text + "' of " + task + " is not"
          + " host:port, which TensorFlow needs to serve the task: " + e.getMessage(), e);
    }
    ServerDef serverDef = ServerDefs.fromCluster(cluster, job, taskIndex, protocol);
    requireFreePort(task, address);
    Server server;
    try {
      server = new Server(org.tensorflow.proto.ServerDef.parseFrom(serverDef.toByteArray()));
      server.start();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("TensorFlow cannot read resolver-proto's ServerDef", e);
    } catch (TensorFlowException e) {
      throw new TensorFlowTaskException(task.toString(), text, "TensorFlow could not start the"
          + " server of " + task + " at " + text + ": " + e.getMessage(), e);
    }
    LOG.log(System.Logger.Level.INFO, "TensorFlow server {0} started on port {1}", task,
        String.valueOf(address.port()));
    return new TensorFlowServer(task, address, serverDef, server);
  }

  // gRPC binds with SO_REUSEPORT, so a second TensorFlow server on a port would start and share it:
  // an ordinary bind finds a port already in use, by TensorFlow or anything else.
  private static void requireFreePort(TaskName task, TaskAddress address) {
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(false);
      probe.bind(new InetSocketAddress(address.port()));
    } catch (IOException e) {
      throw new TensorFlowTaskException(task.toString(), address.toString(), "Port "
          + address.port() + " of " + task + " (" + address + ") is taken: " + e.getMessage()
          + ". Stop what listens there, or give the task another port.", e);
    }
  }

  /** This task's name, {@code /job:<job>/replica:0/task:<index>}. */
  public String taskName() {
    return task.toString();
  }

  /** This task's job. */
  public String job() {
    return task.job();
  }

  /** This task's index in its job. */
  public int taskIndex() {
    return task.index();
  }

  /** This task's address in the cluster. */
  public TaskAddress address() {
    return address;
  }

  /** Where clients reach this server: {@code <protocol>://<host>:<port>}, e.g. {@code grpc://h:2222}. */
  public String target() {
    return serverDef.getProtocol() + "://" + address;
  }

  /** The {@code ServerDef} the server was started from. */
  public ServerDef serverDef() {
    return serverDef;
  }

  /** Blocks until {@link #close()}. */
  public void awaitTermination() throws InterruptedException {
    closed.await();
  }

  /**
   * Stops the server where TensorFlow can, and releases {@link #awaitTermination()}. TensorFlow
   * 2.18's gRPC server cannot stop: it then keeps its port until the process exits.
   */
  @Override
  public void close() {
    if (closed.getCount() == 0) {
      return;
    }
    try {
      server.stop();
    } catch (TFUnimplementedException e) {
      LOG.log(System.Logger.Level.DEBUG, "TensorFlow cannot stop {0}: it ends with the process", task);
    } finally {
      closed.countDown();
    }
  }

  @Override
  public String toString() {
    return "TensorFlowServer{" + task + " at " + target() + "}";
  }
}
