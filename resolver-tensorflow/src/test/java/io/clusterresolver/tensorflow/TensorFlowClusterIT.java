package io.clusterresolver.tensorflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.proto.DeviceFilters;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedInstance;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tensorflow.EagerSession;
import org.tensorflow.proto.DataType;

/**
 * Real TensorFlow servers, each in its own JVM, formed from providers' answers; this JVM connects to
 * them with {@link TensorFlowCluster} and runs ops on them. TensorFlow is the oracle: its own device
 * list, the values its kernels compute, the device its handles name.
 */
class TensorFlowClusterIT {
  private final List<ServerProcess> servers = new ArrayList<>();

  @AfterEach
  void stopServers() throws Exception {
    for (ServerProcess server : servers) {
      server.close();
    }
  }

  private ServerProcess server(String provider, Map<String, String> env) throws IOException {
    ServerProcess server = ServerProcess.start(provider, env);
    servers.add(server);
    return server;
  }

  private static String tfConfig(List<String> workers, int index) {
    return "{\"cluster\":{\"worker\":[\"" + String.join("\",\"", workers)
        + "\"]},\"task\":{\"type\":\"worker\",\"index\":" + index + "}}";
  }

  /** {@code count} consecutive free loopback ports (a Slurm node's tasks use port-base + local id). */
  private static int freePortBase(int count) {
    for (int attempt = 0; attempt < 50; attempt++) {
      int base = ThreadLocalRandom.current().nextInt(20000, 40000);
      boolean free = true;
      for (int p = base; p < base + count && free; p++) {
        try (ServerSocket probe = new ServerSocket(p)) {
          probe.setReuseAddress(false);
        } catch (IOException taken) {
          free = false;
        }
      }
      if (free) {
        return base;
      }
    }
    throw new IllegalStateException("No " + count + " consecutive free ports");
  }

  private static float sumOn(TensorFlowConnection connection, String device, float a, float b) {
    try (TensorHandle x = TensorHandle.scalar(a);
        TensorHandle y = TensorHandle.scalar(b);
        TensorHandle sum = connection.op("AddV2").device(device).input(x).input(y)
            .attr("T", DataType.DT_FLOAT).execute()) {
      assertThat(sum.device()).isEqualTo(device);
      return sum.floats()[0];
    }
  }

  /**
   * Doubles on {@code to} a value computed on {@code from}: TensorFlow sends the value from one
   * worker to the other, so {@code to} must see {@code from}'s device.
   */
  private static float doubledAcross(TensorFlowConnection connection, String from, String to, float value) {
    try (TensorHandle x = TensorHandle.scalar(value);
        TensorHandle zero = TensorHandle.scalar(0);
        TensorHandle there = connection.op("AddV2").device(from).input(x).input(zero)
            .attr("T", DataType.DT_FLOAT).execute();
        TensorHandle doubled = connection.op("AddV2").device(to).input(there).input(there)
            .attr("T", DataType.DT_FLOAT).execute()) {
      assertThat(doubled.device()).isEqualTo(to);
      return doubled.floats()[0];
    }
  }

  @Test
  void serversFromTfConfigServeAndAConnectedSessionRunsOpsOnEach() throws Exception {
    int base = freePortBase(2);
    List<String> workers = List.of("localhost:" + base, "localhost:" + (base + 1));
    ServerProcess w0 = server("tfconfig", Map.of("TF_CONFIG", tfConfig(workers, 0)));
    ServerProcess w1 = server("tfconfig", Map.of("TF_CONFIG", tfConfig(workers, 1)));
    assertThat(w0.awaitServing()).isEqualTo(
        "tensorflow server /job:worker/replica:0/task:0 at grpc://localhost:" + base);
    assertThat(w1.awaitServing()).isEqualTo(
        "tensorflow server /job:worker/replica:0/task:1 at grpc://localhost:" + (base + 1));

    try (EagerSession session = EagerSession.create()) {
      TensorFlowConnection connection =
          TensorFlowCluster.connect(session, ClusterSpec.of(Map.of("worker", workers)));
      assertThat(connection.devices()).containsExactlyInAnyOrder(
          "/job:localhost/replica:0/task:0/device:CPU:0",
          "/job:worker/replica:0/task:0/device:CPU:0",
          "/job:worker/replica:0/task:1/device:CPU:0");
      assertThat(sumOn(connection, "/job:worker/replica:0/task:1/device:CPU:0", 40, 2)).isEqualTo(42f);
      // Without device filters a worker takes a value from another worker.
      assertThat(doubledAcross(connection, "/job:worker/replica:0/task:1/device:CPU:0",
          "/job:worker/replica:0/task:0/device:CPU:0", 21)).isEqualTo(42f);

      // A 2x2 matmul on worker 0: [[1,2],[3,4]] x [[5,6],[7,8]] = [[19,22],[43,50]].
      try (TensorHandle a = TensorHandle.of(new float[] {1, 2, 3, 4}, 2, 2);
          TensorHandle b = TensorHandle.of(new float[] {5, 6, 7, 8}, 2, 2);
          TensorHandle product = connection.op("MatMul")
              .device("/job:worker/replica:0/task:0/device:CPU:0")
              .input(a).input(b).attr("T", DataType.DT_FLOAT).execute()) {
        assertThat(product.floats()).containsExactly(19, 22, 43, 50);
        assertThat(product.shape()).containsExactly(2, 2);
      }

      // A third worker joins: connecting again updates the context (update_server_def).
      List<String> three = List.of(workers.get(0), workers.get(1), "localhost:" + freePortBase(1));
      ServerProcess w2 = server("tfconfig", Map.of("TF_CONFIG", tfConfig(three, 2)));
      w2.awaitServing();
      TensorFlowConnection updated =
          TensorFlowCluster.connect(session, ClusterSpec.of(Map.of("worker", three)));
      assertThat(updated.devices()).contains("/job:worker/replica:0/task:2/device:CPU:0").hasSize(4);
      assertThat(sumOn(updated, "/job:worker/replica:0/task:2/device:CPU:0", 1, 2)).isEqualTo(3f);

      // A worker that dies is named, with its address, by the next op placed on it.
      w1.kill();
      assertThatThrownBy(() -> sumOn(updated, "/job:worker/replica:0/task:1/device:CPU:0", 1, 1))
          .isInstanceOf(TensorFlowTaskException.class)
          .hasMessageContaining("/job:worker/replica:0/task:1")
          .hasMessageContaining(workers.get(1));
    }
  }

  @Test
  void serversFromASimulatedSlurmStepFormAndTheThirdRankConnectsAsItsOwnTask() throws Exception {
    int base = freePortBase(3);
    for (int rank = 0; rank < 2; rank++) {
      server("slurm", Map.of(
          "SLURM_JOB_ID", "7", "SLURM_STEP_ID", "0", "SLURM_STEP_NODELIST", "localhost",
          "SLURM_STEP_TASKS_PER_NODE", "3", "SLURM_STEP_NUM_TASKS", "3", "SLURMD_NODENAME", "localhost",
          "SLURM_PROCID", String.valueOf(rank), "SLURM_LOCALID", String.valueOf(rank),
          "CLUSTERRESOLVER_SLURM_PORT_BASE", String.valueOf(base)));
    }
    // Slurm's layout (K8): task i of a one-node step listens on port-base + its local id.
    assertThat(servers.get(0).awaitServing())
        .isEqualTo("tensorflow server /job:worker/replica:0/task:0 at grpc://localhost:" + base);
    assertThat(servers.get(1).awaitServing())
        .isEqualTo("tensorflow server /job:worker/replica:0/task:1 at grpc://localhost:" + (base + 1));

    ClusterSpec step = ClusterSpec.of(Map.of("worker",
        List.of("localhost:" + base, "localhost:" + (base + 1), "localhost:" + (base + 2))));
    DeviceFilters filters = DeviceFilters.builder()
        .setDeviceFilters("worker", 0, List.of("/job:worker/task:2"))
        .setDeviceFilters("worker", 1, List.of("/job:worker/task:2"))
        .build();
    try (EagerSession session = EagerSession.create()) {
      TensorFlowConnection connection = TensorFlowCluster.connect(session, step,
          ConnectOptions.defaults().withTask("worker", 2).withDeviceFilters(filters));
      assertThat(connection.devices()).containsExactlyInAnyOrder(
          "/job:worker/replica:0/task:0/device:CPU:0",
          "/job:worker/replica:0/task:1/device:CPU:0",
          "/job:worker/replica:0/task:2/device:CPU:0");
      // The filters reach TensorFlow as its own ClusterDeviceFilters message.
      assertThat(org.tensorflow.proto.ServerDef.parseFrom(connection.serverDef().orElseThrow()
              .toByteArray()).getClusterDeviceFilters().getJobs(0).getTasksMap().get(0)
          .getDeviceFiltersList()).containsExactly("/job:worker/task:2");
      assertThat(sumOn(connection, "/job:worker/replica:0/task:0/device:CPU:0", 20, 22)).isEqualTo(42f);
      // Filters are not a fence: worker 0, which sees only task 2's devices, still receives a value
      // computed on worker 1 when this task asks it to (see the README's device filters).
      assertThat(doubledAcross(connection, "/job:worker/replica:0/task:1/device:CPU:0",
          "/job:worker/replica:0/task:0/device:CPU:0", 21)).isEqualTo(42f);
    }
  }

  @Test
  void serversFromASimulatedEc2FleetFormTheClusterItsInstancesDescribe() throws Exception {
    // One running instance at 127.0.0.1 with two tasks (TensorFlow binds every interface, so the
    // tasks of one host need distinct ports), and a stopped one launched before it: were it counted,
    // tasks 0 and 1 would be its own, at 127.0.0.2.
    int base = freePortBase(2);
    try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
      SimulatedInstance running = SimulatedInstance.typical(1).privateIpv4("127.0.0.1").build();
      ec2.add(SimulatedInstance.typical(0).privateIpv4("127.0.0.2").state(SimulatedInstance.State.STOPPED).build(),
          running);
      ec2.identifyAs(running.instanceId());
      for (int task = 0; task < 2; task++) {
        Map<String, String> env = new LinkedHashMap<>();
        ec2.providerProperties().forEach((key, value) -> env.put(ConfigProperty.environmentVariableOf(key), value));
        env.put("CLUSTERRESOLVER_AWS_PORT", String.valueOf(base));
        env.put("CLUSTERRESOLVER_AWS_TASKS_PER_INSTANCE", "2");
        env.put("CLUSTERRESOLVER_AWS_TASK_TYPE", "worker");
        env.put("CLUSTERRESOLVER_AWS_TASK_ID", String.valueOf(task));
        server("aws", env);
      }
      // The fixture's layout: the running instance's private address, task i at port + i.
      List<String> workers = List.of("127.0.0.1:" + base, "127.0.0.1:" + (base + 1));
      assertThat(servers.get(0).awaitServing())
          .isEqualTo("tensorflow server /job:worker/replica:0/task:0 at grpc://" + workers.get(0));
      assertThat(servers.get(1).awaitServing())
          .isEqualTo("tensorflow server /job:worker/replica:0/task:1 at grpc://" + workers.get(1));

      try (EagerSession session = EagerSession.create()) {
        TensorFlowConnection connection =
            TensorFlowCluster.connect(session, ClusterSpec.of(Map.of("worker", workers)));
        assertThat(connection.devices()).containsExactlyInAnyOrder(
            "/job:localhost/replica:0/task:0/device:CPU:0",
            "/job:worker/replica:0/task:0/device:CPU:0",
            "/job:worker/replica:0/task:1/device:CPU:0");
        assertThat(sumOn(connection, "/job:worker/replica:0/task:0/device:CPU:0", 1, 2)).isEqualTo(3f);
        assertThat(sumOn(connection, "/job:worker/replica:0/task:1/device:CPU:0", 3, 4)).isEqualTo(7f);
      }
    }
  }

  @Test
  void aProcessThatIsNotATaskOrWhosePortIsTakenIsATypedErrorNamingTheTask() throws Exception {
    ClusterSpec cluster = ClusterSpec.of(Map.of("worker", List.of("localhost:1", "bad-address")));
    assertThatThrownBy(() -> TensorFlowServer.start(cluster, "chief", 0, null))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("/job:chief/replica:0/task:0").hasMessageContaining("not a task");
    assertThatThrownBy(() -> TensorFlowServer.start(cluster, "worker", 1, null))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("/job:worker/replica:0/task:1").hasMessageContaining("bad-address");

    try (ServerSocket taken = new ServerSocket(0)) {
      String address = "localhost:" + taken.getLocalPort();
      ClusterSpec one = ClusterSpec.of(Map.of("worker", List.of(address)));
      assertThatThrownBy(() -> TensorFlowServer.start(one, "worker", 0, null))
          .isInstanceOf(TensorFlowTaskException.class)
          .hasMessageContaining("/job:worker/replica:0/task:0").hasMessageContaining(address)
          .hasMessageContaining("taken");
    }
  }
}
