package io.clusterresolver.runtime;

import com.google.protobuf.ByteString;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.proto.ClusterDef;
import io.clusterresolver.proto.ClusterDefs;
import io.clusterresolver.proto.DeviceFilters;
import io.clusterresolver.runtime.rpc.CreateContextRequest;
import io.clusterresolver.runtime.rpc.CreateContextResponse;
import io.clusterresolver.runtime.rpc.DeleteResponse;
import io.clusterresolver.runtime.rpc.FetchRequest;
import io.clusterresolver.runtime.rpc.FetchResponse;
import io.clusterresolver.runtime.rpc.PutRequest;
import io.clusterresolver.runtime.rpc.ReleaseContextRequest;
import io.clusterresolver.runtime.rpc.ReleaseContextResponse;
import io.clusterresolver.runtime.rpc.RunRequest;
import io.clusterresolver.runtime.rpc.StatusRequest;
import io.clusterresolver.runtime.rpc.StatusResponse;
import io.clusterresolver.runtime.rpc.TaskServiceGrpc;
import io.clusterresolver.runtime.rpc.ValueHandle;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

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
  private static final int REMEMBERED_INVALIDATIONS = 4096;
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

  private final Map<String, ClusterContext> contexts = new ConcurrentHashMap<>();
  private final Map<String, String> contextByCaller = new ConcurrentHashMap<>();
  private final Map<String, String> endedContexts =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
          return size() > REMEMBERED_INVALIDATIONS;
        }
      };

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
                    new Service(), Caller.interceptor(tls != null && tls.mutual())))
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
    return contexts.values().stream().mapToInt(c -> c.values.size()).sum();
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
    contextByCaller.clear();
  }

  @Override
  public String toString() {
    return "TaskServer{" + taskName() + ", devices=" + devices + "}";
  }

  // --- serving ---

  /** One connection's view: its caller, filters and values. */
  private static final class ClusterContext {
    final String id;
    final Caller caller;
    final DeviceFilters filters;
    final Map<Long, StoredValue> values = new ConcurrentHashMap<>();
    final AtomicLong nextId = new AtomicLong(1);

    ClusterContext(String id, Caller caller, DeviceFilters filters) {
      this.id = id;
      this.caller = caller;
      this.filters = filters;
    }
  }

  private static final class StoredValue {
    final String device;
    final ByteString data;

    StoredValue(String device, ByteString data) {
      this.device = device;
      this.data = data;
    }
  }

  /** Whether {@code caller} may see {@code device} of this task. */
  boolean visibleTo(Caller caller, DeviceFilters contextFilters, String device) {
    DeviceName name = parsedDevices.get(device);
    if (name == null) {
      return false;
    }
    if (caller.job.equals(job) && caller.task == taskIndex) {
      return true; // a task always sees its own devices
    }
    List<String> filters =
        serverFilters.hasFilters(caller.job, caller.task)
            ? serverFilters.filters(caller.job, caller.task)
            : contextFilters.filters(caller.job, caller.task);
    if (filters.isEmpty()) {
      return true;
    }
    for (String filter : filters) {
      if (DeviceName.parse(filter).matches(name)) {
        return true;
      }
    }
    return false;
  }

  private static StatusRuntimeException unknownDevice(String device) {
    return Status.NOT_FOUND.withDescription("unknown device " + device).asRuntimeException();
  }

  private Caller requireCaller() {
    Caller caller = Caller.KEY.get();
    if (caller == null) {
      throw Status.UNAUTHENTICATED
          .withDescription("the call does not name its task (header " + Caller.HEADER.name() + ")")
          .asRuntimeException();
    }
    return caller;
  }

  private ClusterContext context(String id, Caller caller) {
    ClusterContext context = contexts.get(id);
    if (context == null) {
      String ended;
      synchronized (endedContexts) {
        ended = endedContexts.get(id);
      }
      throw Status.FAILED_PRECONDITION
          .withDescription(
              ended != null
                  ? "cluster context " + id + " on " + taskName() + " was " + ended
                  : "unknown cluster context " + id + " on " + taskName() + " (connect first)")
          .asRuntimeException();
    }
    if (!context.caller.sameAs(caller)) {
      throw Status.PERMISSION_DENIED
          .withDescription("cluster context " + id + " belongs to " + context.caller + ", not " + caller)
          .asRuntimeException();
    }
    return context;
  }

  private void end(ClusterContext context, String why) {
    if (contexts.remove(context.id) != null) {
      context.values.clear(); // free the values now, not when the last reference goes
      synchronized (endedContexts) {
        endedContexts.put(context.id, why);
      }
    }
  }

  private ValueHandle store(ClusterContext context, String device, ByteString data) {
    long id = context.nextId.getAndIncrement();
    context.values.put(id, new StoredValue(device, data));
    if (!contexts.containsKey(context.id)) {
      context.values.clear(); // the context ended while we computed
    }
    return ValueHandle.newBuilder().setContextId(context.id).setDevice(device).setId(id).build();
  }

  private final class Service extends TaskServiceGrpc.TaskServiceImplBase {

    @Override
    public void getStatus(StatusRequest request, StreamObserver<StatusResponse> out) {
      out.onNext(
          StatusResponse.newBuilder()
              .setJob(job)
              .setTaskIndex(taskIndex)
              .addAllDevices(devices)
              .setCluster(ClusterDefs.toClusterDef(cluster))
              .setServing(true)
              .build());
      out.onCompleted();
    }

    @Override
    public void createContext(CreateContextRequest request, StreamObserver<CreateContextResponse> out) {
      respond(out, () -> {
        Caller caller = requireCaller();
        if (request.getCheckTask()
            && (!request.getExpectedJob().equals(job) || request.getExpectedTaskIndex() != taskIndex)) {
          throw Status.FAILED_PRECONDITION
              .withDescription(WRONG_TASK + " this server is " + taskName() + ", but the cluster says "
                  + DeviceName.taskName(request.getExpectedJob(), request.getExpectedTaskIndex())
                  + " is here (check the cluster addresses)")
              .asRuntimeException();
        }
        DeviceFilters filters = DeviceFilters.fromProto(request.getDeviceFilters());
        for (String filter : allFilters(filters)) {
          try {
            DeviceName.parse(filter);
          } catch (IllegalArgumentException e) {
            throw Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException();
          }
        }
        ClusterContext context = new ClusterContext(request.getContextId(), caller, filters);
        ClusterContext existing = contexts.putIfAbsent(context.id, context);
        if (existing != null) {
          // A retried request (its first answer was lost): same context, same answer.
          if (!existing.caller.sameAs(caller)) {
            throw Status.ALREADY_EXISTS
                .withDescription("cluster context " + context.id + " already exists")
                .asRuntimeException();
          }
          context = existing;
        }
        String previous = contextByCaller.put(caller.name(), context.id);
        if (previous != null && !previous.equals(context.id)) {
          ClusterContext old = contexts.get(previous);
          if (old != null) {
            end(old, "invalidated by a later connect of " + caller);
            LOG.log(Level.DEBUG, "{0}: context {1} of {2} invalidated by a later connect",
                taskName(), previous, caller);
          }
        }
        CreateContextResponse.Builder response = CreateContextResponse.newBuilder();
        for (String device : devices) {
          if (visibleTo(caller, context.filters, device)) {
            response.addVisibleDevices(device);
          }
        }
        return response.build();
      });
    }

    @Override
    public void releaseContext(ReleaseContextRequest request, StreamObserver<ReleaseContextResponse> out) {
      respond(out, () -> {
        Caller caller = requireCaller();
        ClusterContext context = contexts.get(request.getContextId());
        if (context != null && context.caller.sameAs(caller)) {
          end(context, request.getSuperseded()
              ? "invalidated by a later connect of " + caller
              : "released (its connection was closed)");
          contextByCaller.remove(caller.name(), context.id);
        }
        return ReleaseContextResponse.getDefaultInstance();
      });
    }

    @Override
    public void put(PutRequest request, StreamObserver<ValueHandle> out) {
      respond(out, () -> {
        ClusterContext context = context(request.getContextId(), requireCaller());
        if (!visibleTo(context.caller, context.filters, request.getDevice())) {
          throw unknownDevice(request.getDevice());
        }
        return store(context, request.getDevice(), request.getData());
      });
    }

    @Override
    public void run(RunRequest request, StreamObserver<ValueHandle> out) {
      respond(out, () -> {
        ClusterContext context = context(request.getContextId(), requireCaller());
        String device = request.getDevice();
        if (!visibleTo(context.caller, context.filters, device)) {
          throw unknownDevice(device);
        }
        TaskFunction function = functions.get(request.getFunction());
        if (function == null) {
          throw Status.NOT_FOUND
              .withDescription("unknown function '" + request.getFunction() + "' on " + taskName()
                  + " (registered: " + new TreeMap<>(functions).keySet() + ")")
              .asRuntimeException();
        }
        byte[] input;
        if (request.getInputCase() == RunRequest.InputCase.VALUE_ID) {
          StoredValue value = context.values.get(request.getValueId());
          if (value == null) {
            throw Status.NOT_FOUND
                .withDescription("unknown value " + request.getValueId() + " on " + taskName())
                .asRuntimeException();
          }
          input = value.data.toByteArray();
        } else {
          input = request.getData().toByteArray();
        }
        byte[] result;
        try {
          result = function.apply(input);
        } catch (Exception e) {
          throw Status.UNKNOWN
              .withDescription("function '" + request.getFunction() + "' failed on " + device + ": " + e)
              .asRuntimeException();
        }
        if (result == null) {
          throw Status.UNKNOWN
              .withDescription("function '" + request.getFunction() + "' returned null on " + device)
              .asRuntimeException();
        }
        return store(context, device, ByteString.copyFrom(result));
      });
    }

    @Override
    public void delete(ValueHandle handle, StreamObserver<DeleteResponse> out) {
      respond(out, () -> {
        ClusterContext context = context(handle.getContextId(), requireCaller());
        return DeleteResponse.newBuilder()
            .setDeleted(context.values.remove(handle.getId()) != null).build();
      });
    }

    @Override
    public void fetch(FetchRequest request, StreamObserver<FetchResponse> out) {
      respond(out, () -> {
        ValueHandle handle = request.getHandle();
        ClusterContext context = context(handle.getContextId(), requireCaller());
        StoredValue value = context.values.get(handle.getId());
        if (value == null) {
          throw Status.NOT_FOUND
              .withDescription("unknown value " + handle.getId() + " on " + taskName())
              .asRuntimeException();
        }
        if (!visibleTo(context.caller, context.filters, value.device)) {
          throw unknownDevice(value.device);
        }
        return FetchResponse.newBuilder().setData(value.data).build();
      });
    }
  }

  private static List<String> allFilters(DeviceFilters filters) {
    List<String> all = new ArrayList<>();
    filters.toProto().getJobsList().forEach(
        j -> j.getTasksMap().values().forEach(t -> all.addAll(t.getDeviceFiltersList())));
    return all;
  }

  private interface Call<T> {
    T get();
  }

  private static <T> void respond(StreamObserver<T> out, Call<T> call) {
    T response;
    try {
      response = call.get();
    } catch (StatusRuntimeException e) {
      out.onError(e);
      return;
    } catch (RuntimeException e) {
      out.onError(Status.INTERNAL.withDescription(e.toString()).asRuntimeException());
      return;
    }
    out.onNext(response);
    out.onCompleted();
  }

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
