package io.clusterresolver.runtime;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.proto.DeviceFilters;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The server of one task of a cluster, like TensorFlow's {@code tf.distribute.Server}.
 *
 * <p>It serves its device list ({@code /job:J/replica:0/task:T/device:CPU:0} plus one device per
 * accelerator, or the devices given explicitly), its health, the cluster it was configured with,
 * and the execution of the {@link TaskFunction}s registered on it by name. Results stay on the
 * server as values addressed by handles, inside the cluster context of the connection that made
 * them ({@link Cluster#connect}).
 *
 * <p>Device filters are enforced here, whatever the client claims: a caller that may not see a
 * device gets {@code NOT_FOUND "unknown device"} for it. The filters are those of the caller's
 * connection, or, when this server was built with {@link Builder#deviceFilters} naming the caller,
 * those. The caller is the task named by the client (the {@code x-cluster-task} header), or, under
 * mutual TLS, the task named by its certificate.
 *
 * <p>Listens on the loopback interface unless {@link Builder#bindAddress} says otherwise.
 */
public final class TaskServer implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(TaskServer.class.getName());
  private static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
  static final String WRONG_TASK = "wrong task:";

  private final ClusterSpec cluster;
  private final String job;
  private final int taskIndex;
  private final List<String> devices;
  private final Map<String, DeviceName> parsedDevices;
  private final Map<String, TaskFunction> functions;
  private final DeviceFilters serverFilters;
  private final TlsConfig tls;
  private final InetAddress bindAddress;
  private final int requestedPort;

  private final ClusterContexts contexts = new ClusterContexts();
  private final DeviceVisibility visibility;

  private Server server;

  private TaskServer(Builder b) {
    this.cluster = b.cluster;
    this.job = b.job;
    this.taskIndex = b.taskIndex;
    this.devices = List.copyOf(b.devices());
    Map<String, DeviceName> parsed = new LinkedHashMap<>();
    for (String device : devices) {
      DeviceName name = DeviceName.parse(device);
      if (!name.isOnTask(job, taskIndex) || name.type == null || name.id == null) {
        throw new IllegalArgumentException(
            "Device '" + device + "' is not a full device name of task "
                + DeviceName.taskName(job, taskIndex));
      }
      parsed.put(device, name);
    }
    this.parsedDevices = parsed;
    this.visibility = new DeviceVisibility(job, taskIndex, parsed, b.deviceFilters);
    this.functions = Map.copyOf(b.functions);
    this.serverFilters = b.deviceFilters;
    this.tls = b.tls;
    this.bindAddress = b.bindAddress;
    this.requestedPort = b.port != null ? b.port : portOf(b.cluster.taskAddress(job, taskIndex));
  }

  /**
   * A builder for the server of task {@code taskIndex} of job {@code job} of {@code cluster}.
   *
   * @throws IllegalArgumentException naming the job and index when the cluster has no such task
   */
  public static Builder builder(ClusterSpec cluster, String job, int taskIndex) {
    if (cluster == null || job == null) {
      throw new IllegalArgumentException("The cluster and the job name must not be null");
    }
    cluster.taskAddress(job, taskIndex); // fails naming the job and index if absent
    return new Builder(cluster, job, taskIndex);
  }

  /**
   * A builder for this process's task as a resolver describes it: its cluster, task type and id,
   * and its accelerators.
   *
   * @throws IllegalArgumentException when the resolver does not say which task this process is
   */
  public static Builder forResolver(ClusterResolver resolver) {
    // One snapshot: the task and the cluster it is checked against come from the same answer.
    Resolution resolution = resolver.resolve();
    String type =
        resolution.taskType().filter(t -> !t.isEmpty()).orElseThrow(
            () -> new IllegalArgumentException(
                "The resolver does not name this process's task type: set the provider's"
                    + " task-type property"));
    OptionalInt id = resolution.taskId();
    if (id.isEmpty()) {
      throw new IllegalArgumentException(
          "The resolver does not name this process's task id: set the provider's task-id property");
    }
    return builder(resolution.clusterSpec(), type, id.getAsInt()).accelerators(resolution.accelerators());
  }

  static int portOf(String address) {
    int colon = address.lastIndexOf(':');
    try {
      int port = Integer.parseInt(address.substring(colon + 1));
      if (colon <= 0 || port < 0 || port > 65535) {
        throw new NumberFormatException();
      }
      return port;
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      throw new IllegalArgumentException(
          "Task address '" + address + "' is not of the form host:port");
    }
  }

  /**
   * Starts serving.
   *
   * @throws io.clusterresolver.ClusterResolverException when the port cannot be bound (naming address and port)
   */
  public synchronized TaskServer start() {
    if (server != null) {
      throw new IllegalStateException(taskName() + " is already started");
    }
    ServerCredentials credentials =
        tls == null ? InsecureServerCredentials.create() : tls.serverCredentials();
    Server s =
        NettyServerBuilder.forAddress(new InetSocketAddress(bindAddress, requestedPort), credentials)
            .maxInboundMessageSize(MAX_MESSAGE_BYTES)
            .addService(
                ServerInterceptors.intercept(
                    new TaskService(this, contexts, visibility, functions), Caller.interceptor(tls != null && tls.mutual())))
            .build();
    try {
      s.start();
    } catch (IOException e) {
      throw new io.clusterresolver.ClusterResolverException(
          "Cannot start the server of " + taskName() + " on " + bindAddress.getHostAddress() + ":"
              + requestedPort + ": " + e.getMessage()
              + " (is the port in use? give another address in the cluster, or port 0)",
          e);
    }
    server = s;
    LOG.log(Level.DEBUG, "Serving {0} on {1}:{2,number,#} with devices {3}",
        taskName(), bindAddress.getHostAddress(), port(), devices);
    return this;
  }

  /** The job of this task. */
  public String job() {
    return job;
  }

  /** The index of this task in its job. */
  public int taskIndex() {
    return taskIndex;
  }

  /** {@code /job:J/replica:0/task:T}. */
  public String taskName() {
    return DeviceName.taskName(job, taskIndex);
  }

  /** The devices of this task. */
  public List<String> devices() {
    return devices;
  }

  /** The cluster this server was configured with. */
  public ClusterSpec clusterSpec() {
    return cluster;
  }

  /** The port it listens on (the bound port when it was started with port 0). */
  public int port() {
    Server s = server;
    if (s == null) {
      throw new IllegalStateException(taskName() + " is not started");
    }
    return ((InetSocketAddress) s.getListenSockets().get(0)).getPort();
  }

  /** How many values are stored over all live contexts. */
  public int storedValueCount() {
    return contexts.valueCount();
  }

  /** How many cluster contexts are live. */
  public int contextCount() {
    return contexts.size();
  }

  /** Blocks until the server is shut down (by {@link #close()} or another thread). */
  public void awaitTermination() throws InterruptedException {
    Server s = server;
    if (s != null) {
      s.awaitTermination();
    }
  }

  /** Stops serving and frees every context; calls in flight get up to a second to finish. */
  @Override
  public synchronized void close() {
    Server s = server;
    if (s == null) {
      return;
    }
    s.shutdown();
    try {
      // Calls in flight get a moment to finish; then connections are cut.
      if (!s.awaitTermination(1, TimeUnit.SECONDS)) {
        s.shutdownNow();
        s.awaitTermination(2, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      s.shutdownNow();
      Thread.currentThread().interrupt();
    }
    contexts.clear();
  }

  @Override
  public String toString() {
    return "TaskServer{" + taskName() + ", devices=" + devices + "}";
  }

  // --- serving ---

  /** Configures a {@link TaskServer}. */
  public static final class Builder {
    private final ClusterSpec cluster;
    private final String job;
    private final int taskIndex;
    private final Map<String, Integer> accelerators = new TreeMap<>();
    private List<String> explicitDevices;
    private final Map<String, TaskFunction> functions = new LinkedHashMap<>();
    private DeviceFilters deviceFilters = DeviceFilters.none();
    private TlsConfig tls;
    private InetAddress bindAddress = InetAddress.getLoopbackAddress();
    private Integer port;

    private Builder(ClusterSpec cluster, String job, int taskIndex) {
      this.cluster = cluster;
      this.job = job;
      this.taskIndex = taskIndex;
    }

    /** Accelerators by type ({@code {"GPU": 2}}): one device each, after the CPU. */
    public Builder accelerators(Map<String, Integer> byType) {
      byType.forEach((type, count) -> {
        if (type == null || type.isEmpty() || count == null || count < 0) {
          throw new IllegalArgumentException("Invalid accelerator count " + type + "=" + count);
        }
        accelerators.put(type, count);
      });
      return this;
    }

    /** The devices, given explicitly as full names of this task (instead of CPU + accelerators). */
    public Builder devices(List<String> fullNames) {
      this.explicitDevices = List.copyOf(fullNames);
      return this;
    }

    /** Registers a function under a name; registering a name again replaces it. */
    public Builder function(String name, TaskFunction function) {
      if (name == null || name.isEmpty() || function == null) {
        throw new IllegalArgumentException("A function needs a non-empty name and a body");
      }
      functions.put(name, function);
      return this;
    }

    /**
     * Filters this server enforces for the callers they name, whatever filters a connection
     * brings; for other callers the connection's filters apply.
     */
    public Builder deviceFilters(DeviceFilters filters) {
      this.deviceFilters = filters == null ? DeviceFilters.none() : filters;
      return this;
    }

    /** TLS or mutual TLS; plaintext when not given. */
    public Builder tls(TlsConfig tls) {
      this.tls = tls;
      return this;
    }

    /** The interface to listen on; loopback by default. */
    public Builder bindAddress(InetAddress address) {
      this.bindAddress = address;
      return this;
    }

    /** Listen on this port instead of the one in the task's address (0: any free port). */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("Port " + port + " is out of range 0-65535");
      }
      this.port = port;
      return this;
    }

    List<String> devices() {
      if (explicitDevices != null) {
        return explicitDevices;
      }
      List<String> list = new ArrayList<>();
      list.add(DeviceName.format(job, taskIndex, "CPU", 0));
      accelerators.forEach((type, count) -> {
        for (int i = 0; i < count; i++) {
          list.add(DeviceName.format(job, taskIndex, type, i));
        }
      });
      return list;
    }

    /** The configured server, not yet started. */
    public TaskServer build() {
      return new TaskServer(this);
    }

    /** Builds and starts the server. */
    public TaskServer start() {
      return build().start();
    }
  }

}
