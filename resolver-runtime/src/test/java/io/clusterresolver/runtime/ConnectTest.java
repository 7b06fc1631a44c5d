package io.clusterresolver.runtime;

import static io.clusterresolver.runtime.TestCluster.cpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.runtime.rpc.FetchRequest;
import io.clusterresolver.runtime.rpc.ValueHandle;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ConnectTest {
  private static final byte[] ABC = "abc".getBytes(StandardCharsets.UTF_8);
  private final List<AutoCloseable> cleanup = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    for (int i = cleanup.size() - 1; i >= 0; i--) {
      cleanup.get(i).close();
    }
  }

  private <T extends AutoCloseable> T closeLater(T resource) {
    cleanup.add(resource);
    return resource;
  }

  private TaskServer serve(ClusterSpec cluster, String job, int task) {
    return closeLater(TaskServer.builder(cluster, job, task)
        .function("upper", in -> new String(in, StandardCharsets.UTF_8).toUpperCase()
            .getBytes(StandardCharsets.UTF_8))
        .function("fail", in -> {
          throw new IllegalStateException("boom");
        })
        .start());
  }

  private static ClusterResolver resolver(String master, ClusterSpec spec) {
    return new ClusterResolver() {
      @Override public ClusterSpec clusterSpec() { return spec; }
      @Override public String master(String type, Integer id, String rpcLayer) { return master; }
      @Override public Map<String, Integer> numAccelerators(String type, Integer id) { return Map.of(); }
      @Override public Optional<String> taskType() { return Optional.empty(); }
      @Override public OptionalInt taskId() { return OptionalInt.empty(); }
      @Override public Optional<String> rpcLayer() { return Optional.empty(); }
    };
  }

  @Test
  void localMasterGivesALocalOnlyConnection() {
    ClusterSpec cluster = TestCluster.cluster("worker", 1); // nothing listens there: never contacted
    for (String master : List.of("", "local")) {
      ClusterConnection connection = closeLater(Cluster.connect(resolver(master, cluster),
          ConnectOptions.builder().localFunction("twice", in -> new byte[] {in[0], in[0]}).build()));
      assertThat(connection.devices()).containsExactly(cpu("localhost", 0));
      RemoteValue value = connection.run(cpu("localhost", 0), "twice", new byte[] {7});
      assertThat(connection.fetch(value)).containsExactly(7, 7);
    }
  }

  @Test
  void localJobIsAddedWithTheRequestedTaskIndex() {
    ClusterSpec cluster = TestCluster.cluster("worker", 1);
    serve(cluster, "worker", 0);
    ClusterConnection connection = closeLater(Cluster.connect(cluster, "chief", 3, null, null));
    assertThat(connection.clusterSpec().taskIndices("chief")).containsExactly(3);
    assertThat(connection.devices()).containsExactly(cpu("chief", 3), cpu("worker", 0));
    assertThat(connection.localServer()).isPresent();
  }

  @Test
  void statusReportsTaskDevicesAndClusterToAnyone() {
    ClusterSpec cluster = TestCluster.cluster("worker", 2);
    closeLater(TaskServer.builder(cluster, "worker", 1).accelerators(Map.of("TPU", 2)).start());
    io.grpc.ManagedChannel channel = ChannelPool.newChannel(cluster.taskAddress("worker", 1), null);
    try {
      // No x-cluster-task header: health checks need no identity.
      io.clusterresolver.runtime.rpc.StatusResponse status =
          io.clusterresolver.runtime.rpc.TaskServiceGrpc.newBlockingStub(channel)
              .withDeadlineAfter(5, TimeUnit.SECONDS)
              .getStatus(io.clusterresolver.runtime.rpc.StatusRequest.getDefaultInstance());
      assertThat(status.getServing()).isTrue();
      assertThat(status.getJob()).isEqualTo("worker");
      assertThat(status.getTaskIndex()).isEqualTo(1);
      assertThat(status.getDevicesList()).containsExactly(cpu("worker", 1),
          "/job:worker/replica:0/task:1/device:TPU:0", "/job:worker/replica:0/task:1/device:TPU:1");
      assertThat(io.clusterresolver.proto.ClusterDefs.fromClusterDef(status.getCluster()))
          .isEqualTo(cluster);
      // ...but everything else does.
      assertThatThrownBy(() -> io.clusterresolver.runtime.rpc.TaskServiceGrpc.newBlockingStub(channel)
              .withDeadlineAfter(5, TimeUnit.SECONDS)
              .createContext(io.clusterresolver.runtime.rpc.CreateContextRequest.newBuilder()
                  .setContextId("anonymous").build()))
          .isInstanceOfSatisfying(StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void explicitDevicesReplaceCpuAndAcceleratorsAndMustBelongToTheTask() {
    ClusterSpec cluster = TestCluster.cluster("worker", 1);
    List<String> devices = List.of("/job:worker/replica:0/task:0/device:CPU:0",
        "/job:worker/replica:0/task:0/device:XPU:3");
    closeLater(TaskServer.builder(cluster, "worker", 0).devices(devices).start());
    ClusterConnection connection = closeLater(Cluster.connect(cluster));
    assertThat(connection.devices()).containsExactly(
        cpu("localhost", 0), devices.get(0), devices.get(1));
    assertThatThrownBy(() -> TaskServer.builder(cluster, "worker", 0)
            .devices(List.of("/job:ps/replica:0/task:0/device:CPU:0")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("/job:ps/replica:0/task:0/device:CPU:0")
        .hasMessageContaining("/job:worker/replica:0/task:0");
  }

  @Test
  void masterTaskIsFoundByExactAddress() {
    ClusterSpec cluster = TestCluster.cluster("worker", 2);
    serve(cluster, "worker", 0);
    serve(cluster, "worker", 1);
    ClusterConnection connection = closeLater(Cluster.connect(cluster));
    String address = cluster.taskAddress("worker", 1);
    assertThat(connection.taskAt("grpc://" + address)).contains("/job:worker/replica:0/task:1");
    assertThat(connection.taskAt(address)).contains("/job:worker/replica:0/task:1");
    // A prefix of an address is not that address (TensorFlow's substring match would say it is).
    assertThat(connection.taskAt("grpc://" + address.substring(0, address.length() - 1))).isEmpty();
  }

  @Test
  void localTaskMissingFromItsJobIsRejected() {
    ClusterSpec cluster = TestCluster.cluster("worker", 2);
    assertThatThrownBy(() -> Cluster.connect(cluster, "worker", 5, "grpc", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("/job:worker/replica:0/task:5")
        .hasMessageContaining("[0, 1]");
    assertThatThrownBy(() -> Cluster.connect(cluster, "worker", 0, "grpc+verbs", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("grpc+verbs");
  }

  @Test
  void deadTaskFailsTheConnectNamingIt() {
    ClusterSpec cluster = TestCluster.cluster("worker", 2);
    serve(cluster, "worker", 0); // task 1 never starts
    long start = System.nanoTime();
    assertThatThrownBy(() -> Cluster.connect(cluster, ConnectOptions.builder()
            .connectTimeout(Duration.ofMillis(800)).callTimeout(Duration.ofMillis(200)).build()))
        .isInstanceOfSatisfying(RemoteTaskException.class, e -> {
          assertThat(e.task()).isEqualTo("/job:worker/replica:0/task:1");
          assertThat(e.code()).isEqualTo("UNAVAILABLE");
          assertThat(e.getMessage())
              .contains("/job:worker/replica:0/task:1", cluster.taskAddress("worker", 1), "attempts");
        });
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void serverAtTheWrongAddressIsReported() {
    ClusterSpec real = TestCluster.cluster("worker", 1);
    serve(real, "worker", 0);
    ClusterSpec claimed = ClusterSpec.of(Map.of("ps", List.of(real.taskAddress("worker", 0))));
    assertThatThrownBy(() -> Cluster.connect(claimed))
        .isInstanceOf(RemoteTaskException.class)
        .hasMessageContaining("is /job:worker/replica:0/task:0")
        .hasMessageContaining("/job:ps/replica:0/task:0");
  }

  @Test
  void unknownAndFailingFunctionsAreClearErrors() {
    ClusterSpec cluster = TestCluster.cluster("worker", 1);
    serve(cluster, "worker", 0);
    ClusterConnection connection = closeLater(Cluster.connect(cluster));
    assertThatThrownBy(() -> connection.run(cpu("worker", 0), "nope", ABC))
        .isInstanceOfSatisfying(RemoteTaskException.class, e -> assertThat(e.code()).isEqualTo("NOT_FOUND"))
        .hasMessageContaining("unknown function 'nope'")
        .hasMessageContaining("[fail, upper]");
    assertThatThrownBy(() -> connection.run(cpu("worker", 0), "fail", ABC))
        .hasMessageContaining("function 'fail' failed")
        .hasMessageContaining("boom");
  }

  @Test
  void reconnectInvalidatesOldHandlesOnClientAndServers() {
    ClusterSpec cluster = TestCluster.cluster("worker", 2);
    TaskServer worker0 = serve(cluster, "worker", 0);
    serve(cluster, "worker", 1);
    ClusterConnection first = Cluster.connect(cluster);
    RemoteValue old = first.run(cpu("worker", 0), "upper", ABC);
    first.put(cpu("worker", 0), ABC);
    assertThat(worker0.storedValueCount()).isEqualTo(2);
    String oldContext = first.contextId();

    ClusterConnection second = closeLater(Cluster.connect(cluster));
    assertThat(first.isValid()).isFalse();
    assertThat(old.isValid()).isFalse();
    assertThatThrownBy(() -> first.fetch(old))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("invalidated by a later connect");
    assertThatThrownBy(() -> second.fetch(old))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("invalidated by a later connect");
    assertThatThrownBy(() -> first.run(cpu("worker", 1), "upper", ABC))
        .hasMessageContaining("invalidated by a later connect");
    // The server freed the old values and refuses the old context, whatever the client does.
    assertThat(worker0.storedValueCount()).isZero();
    TaskChannel raw = new TaskChannel("worker", 0, cluster.taskAddress("worker", 0),
        new Caller("localhost", 0), null);
    try {
      assertThatThrownBy(() -> raw.blocking(2000).fetch(FetchRequest.newBuilder()
              .setHandle(ValueHandle.newBuilder().setContextId(oldContext).setId(1)).build()))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
            assertThat(e.getStatus().getDescription()).contains("invalidated by a later connect");
          });
    } finally {
      raw.shutdown();
    }
    // The new connection works.
    assertThat(second.fetch(second.run(cpu("worker", 1), "upper", ABC)))
        .isEqualTo("ABC".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void releaseFreesOneValue() {
    ClusterSpec cluster = TestCluster.cluster("worker", 1);
    TaskServer worker0 = serve(cluster, "worker", 0);
    ClusterConnection connection = closeLater(Cluster.connect(cluster));
    RemoteValue kept = connection.put(cpu("worker", 0), ABC);
    RemoteValue freed = connection.run(cpu("worker", 0), "upper", kept);
    assertThat(worker0.storedValueCount()).isEqualTo(2);
    connection.release(freed);
    connection.release(freed); // again: nothing to do
    assertThat(worker0.storedValueCount()).isEqualTo(1);
    assertThat(connection.fetch(kept)).isEqualTo(ABC);
    assertThatThrownBy(() -> connection.fetch(freed))
        .isInstanceOfSatisfying(RemoteTaskException.class, e -> assertThat(e.code()).isEqualTo("NOT_FOUND"))
        .hasMessageContaining("unknown value");
  }

  @Test
  void closeFreesValuesOnTheServers() {
    ClusterSpec cluster = TestCluster.cluster("worker", 1);
    TaskServer worker0 = serve(cluster, "worker", 0);
    ClusterConnection connection = Cluster.connect(cluster);
    connection.put(cpu("worker", 0), ABC);
    assertThat(worker0.contextCount()).isEqualTo(1);
    connection.close();
    assertThat(worker0.contextCount()).isZero();
    assertThat(worker0.storedValueCount()).isZero();
    assertThatThrownBy(() -> connection.put(cpu("worker", 0), ABC))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void lateTaskInAnotherProcessIsWaitedForAndItsDeathIsNamed() throws Exception {
    ClusterSpec cluster = TestCluster.cluster("ps", 1, "worker", 1);
    serve(cluster, "ps", 0);
    // The worker starts in its own JVM only now: connect keeps trying until it answers.
    Process worker = StandaloneTaskServer.launch("worker", 0, cluster);
    closeLater(() -> {
      worker.destroyForcibly();
      worker.waitFor(10, TimeUnit.SECONDS);
    });
    // The worker's JVM is still starting: nothing listens at its address when connect begins, so
    // a connection that comes back with its devices waited for it.
    assertThat(accepts(cluster.taskAddress("worker", 0))).as("the worker listens before connect starts").isFalse();
    ClusterConnection connection = closeLater(Cluster.connect(cluster,
        ConnectOptions.builder().connectTimeout(Duration.ofSeconds(60)).build()));
    assertThat(connection.devices()).contains(cpu("worker", 0));
    assertThat(worker.isAlive()).isTrue();
    BufferedReader out = new BufferedReader(
        new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).startsWith("READY"); // it really was the other process
    assertThat(connection.fetch(connection.run(cpu("worker", 0), "upper", ABC)))
        .isEqualTo("ABC".getBytes(StandardCharsets.UTF_8));

    worker.destroyForcibly();
    assertThat(worker.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThatThrownBy(() -> connection.run(cpu("worker", 0), "upper", ABC))
        .isInstanceOfSatisfying(RemoteTaskException.class, e -> {
          assertThat(e.task()).isEqualTo("/job:worker/replica:0/task:0");
          assertThat(e.code()).isIn("UNAVAILABLE", "DEADLINE_EXCEEDED");
        })
        .hasMessageContaining(cluster.taskAddress("worker", 0));
  }

  /** Whether something accepts TCP connections at {@code host:port} right now. */
  private static boolean accepts(String address) {
    int colon = address.lastIndexOf(':');
    try (java.net.Socket socket = new java.net.Socket()) {
      socket.connect(new java.net.InetSocketAddress(address.substring(0, colon),
          Integer.parseInt(address.substring(colon + 1))), 1000);
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
