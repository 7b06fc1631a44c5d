package io.clusterresolver.runtime;

import static io.clusterresolver.runtime.TestCluster.cpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.DeviceFilters;
import io.clusterresolver.runtime.rpc.CreateContextRequest;
import io.clusterresolver.runtime.rpc.PutRequest;
import io.clusterresolver.runtime.rpc.RunRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * TensorFlow's documented parameter-server example: every worker sees only the ps tasks and
 * itself, every ps task only the workers and itself; the servers enforce it.
 */
class ParameterServerExampleTest {
  private static final TaskFunction UPPER =
      in -> new String(in, StandardCharsets.UTF_8).toUpperCase().getBytes(StandardCharsets.UTF_8);

  private ClusterSpec cluster;
  private final List<TaskServer> servers = new ArrayList<>();
  private final List<ClusterConnection> connections = new ArrayList<>();
  private DeviceFilters filters;

  @BeforeEach
  void startCluster() {
    cluster = TestCluster.cluster("ps", 2, "worker", 2);
    for (String job : cluster.jobs()) {
      for (int task : cluster.taskIndices(job)) {
        TaskServer.Builder builder = TaskServer.builder(cluster, job, task).function("upper", UPPER);
        if (job.equals("worker")) {
          builder.accelerators(Map.of("GPU", 1));
        }
        servers.add(builder.start());
      }
    }
    DeviceFilters.Builder cdf = DeviceFilters.builder();
    for (int i = 0; i < 2; i++) {
      cdf.setDeviceFilters("worker", i, List.of("/job:ps"));
      cdf.setDeviceFilters("ps", i, List.of("/job:worker"));
    }
    filters = cdf.build();
  }

  @AfterEach
  void stop() {
    connections.forEach(ClusterConnection::close);
    servers.forEach(TaskServer::close);
  }

  private ClusterConnection connectAs(String job, int task, DeviceFilters deviceFilters) {
    ClusterConnection connection = Cluster.connect(cluster, job, task, "grpc", deviceFilters);
    connections.add(connection);
    return connection;
  }

  private static String gpu(String job, int task) {
    return DeviceName.format(job, task, "GPU", 0);
  }

  @Test
  void workersSeeOnlyParameterServersAndThemselves() {
    ClusterConnection worker0 = connectAs("worker", 0, filters);
    assertThat(worker0.devices())
        .containsExactly(cpu("ps", 0), cpu("ps", 1), cpu("worker", 0), gpu("worker", 0));
    ClusterConnection worker1 = connectAs("worker", 1, filters);
    assertThat(worker1.devices())
        .containsExactly(cpu("ps", 0), cpu("ps", 1), cpu("worker", 1), gpu("worker", 1));
  }

  @Test
  void parameterServersSeeOnlyWorkersAndThemselves() {
    ClusterConnection ps1 = connectAs("ps", 1, filters);
    assertThat(ps1.devices())
        .containsExactly(
            cpu("ps", 1), cpu("worker", 0), gpu("worker", 0), cpu("worker", 1), gpu("worker", 1));
  }

  @Test
  void taskWithoutFiltersSeesEverythingAndTheAddedLocalJob() {
    ClusterConnection client = connectAs("localhost", 0, filters);
    assertThat(client.devices()).hasSize(2 + 4 + 1).contains(cpu("localhost", 0), gpu("worker", 1));
    assertThat(client.clusterSpec().taskAddress("localhost", 0)).startsWith("localhost:");
    // Work runs where it is sent and stays there until fetched.
    RemoteValue result = client.run(gpu("worker", 1), "upper", "abc".getBytes(StandardCharsets.UTF_8));
    assertThat(result.device()).isEqualTo(gpu("worker", 1));
    assertThat(new String(client.fetch(result), StandardCharsets.UTF_8)).isEqualTo("ABC");
    // A value on one task used by another is copied there.
    RemoteValue onPs = client.put(cpu("ps", 0), "xy".getBytes(StandardCharsets.UTF_8));
    RemoteValue moved = client.run(cpu("worker", 0), "upper", onPs);
    assertThat(client.fetch(moved)).isEqualTo("XY".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void filteredDeviceIsUnknownToTheClient() {
    ClusterConnection worker0 = connectAs("worker", 0, filters);
    assertThatThrownBy(() -> worker0.run(cpu("worker", 1), "upper", new byte[] {'a'}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown device " + cpu("worker", 1));
  }

  @Test
  void serversRefuseFilteredDevicesWhateverTheClientClaims() {
    ClusterConnection worker0 = connectAs("worker", 0, filters);
    // Bypass the client library: talk to worker 1 directly as worker 0, in worker 0's context.
    TaskChannel raw =
        new TaskChannel("worker", 1, cluster.taskAddress("worker", 1), new Caller("worker", 0), null);
    try {
      for (String device : List.of(cpu("worker", 1), gpu("worker", 1))) {
        assertThatThrownBy(() -> raw.blocking(2000).run(RunRequest.newBuilder()
                .setContextId(worker0.contextId()).setDevice(device).setFunction("upper")
                .setData(ByteString.copyFromUtf8("a")).build()))
            .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
              assertThat(e.getStatus().getDescription()).isEqualTo("unknown device " + device);
            });
        assertThatThrownBy(() -> raw.blocking(2000).put(PutRequest.newBuilder()
                .setContextId(worker0.contextId()).setDevice(device).build()))
            .hasMessageContaining("NOT_FOUND: unknown device");
      }
      // A device that does not exist at all gets the same answer: filtered devices do not leak.
      assertThatThrownBy(() -> raw.blocking(2000).put(PutRequest.newBuilder()
              .setContextId(worker0.contextId()).setDevice(gpu("worker", 7)).build()))
          .hasMessageContaining("NOT_FOUND: unknown device");
    } finally {
      raw.shutdown();
    }
  }

  @Test
  void serverConfiguredFiltersWinOverAClientThatSendsNone() {
    TaskServer worker1 = servers.get(3);
    worker1.close();
    servers.set(3, TaskServer.builder(cluster, "worker", 1)
        .function("upper", UPPER)
        .deviceFilters(DeviceFilters.builder().setDeviceFilters("worker", 0, List.of("/job:ps")).build())
        .start());
    ClusterConnection worker0 = connectAs("worker", 0, DeviceFilters.none());
    assertThat(worker0.devices()).doesNotContain(cpu("worker", 1)).contains(cpu("ps", 1), cpu("worker", 0));
    // ...and another caller is still governed by its connection's (absent) filters.
    TaskChannel raw =
        new TaskChannel("worker", 1, cluster.taskAddress("worker", 1), new Caller("ps", 0), null);
    try {
      assertThat(raw.blocking(2000).createContext(CreateContextRequest.newBuilder()
              .setContextId("ctx-ps0").build()).getVisibleDevicesList())
          .containsExactly(cpu("worker", 1));
    } finally {
      raw.shutdown();
    }
  }
}
