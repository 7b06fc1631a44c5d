package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.io.BufferedReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code serve} and {@code connect} against each other, on loopback. */
class ServeConnectCommandTest {
  private static final Map<String, String> ENV = Map.of();
  private final List<Thread> servers = new ArrayList<>();
  private int port;

  @BeforeEach
  void pickPorts() throws IOException {
    // The fixture cluster: chief at port, worker 0 at port + 1.
    for (int attempt = 0; ; attempt++) {
      try (ServerSocket a = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
          ServerSocket b = new ServerSocket(a.getLocalPort() + 1, 1, InetAddress.getLoopbackAddress())) {
        port = a.getLocalPort();
        return;
      } catch (IOException taken) {
        if (attempt > 20) {
          throw taken;
        }
      }
    }
  }

  @AfterEach
  void stopServers() throws InterruptedException {
    for (Thread server : servers) {
      server.interrupt();
      server.join(10_000);
    }
  }

  private String[] fixture(String command, String... more) {
    List<String> args = new ArrayList<>(List.of(command, "--provider", "fixture",
        "-D", "clusterresolver.fixture.hosts=127.0.0.1",
        "-D", "clusterresolver.fixture.port=" + port,
        "-D", "clusterresolver.fixture.tasks-per-host=2"));
    args.addAll(List.of(more));
    return args.toArray(new String[0]);
  }

  /** Runs {@code serve} on a thread and waits for its "Serving" line. */
  private void serve(String... args) throws Exception {
    PipedWriter pipe = new PipedWriter();
    BufferedReader lines = new BufferedReader(new PipedReader(pipe, 1 << 16));
    StringWriter err = new StringWriter();
    Thread thread = new Thread(() -> ClusterResolverCommand.execute(
        ENV, new PrintWriter(pipe, true), new PrintWriter(err, true), fixture("serve", args)));
    thread.setDaemon(true);
    thread.start();
    servers.add(thread);
    String first = lines.readLine();
    assertThat(first).as("serve output; stderr: %s", err).startsWith("Serving ");
  }

  @Test
  void connectPrintsTheDevicesOfEveryServedTask() throws Exception {
    serve("--task-type", "chief", "--task-id", "0");
    serve("--task-type", "worker", "--task-id", "0", "-D", "clusterresolver.fixture.gpus=2");

    CliRun text = CliRun.run(ENV, fixture("connect", "--connect-timeout", "10"));
    assertThat(text.code).as(text.toString()).isZero();
    assertThat(text.out.lines()).containsExactly(
        "/job:chief/replica:0/task:0/device:CPU:0",
        "/job:localhost/replica:0/task:0/device:CPU:0",
        "/job:worker/replica:0/task:0/device:CPU:0",
        "/job:worker/replica:0/task:0/device:GPU:0",
        "/job:worker/replica:0/task:0/device:GPU:1");

    CliRun json = CliRun.run(ENV, fixture("connect", "--format", "json",
        "--job-name", "client", "--task-index", "2", "--device-filter", "client:2=/job:worker"));
    assertThat(json.code).as(json.toString()).isZero();
    JsonNode node = new ObjectMapper().readTree(json.out);
    assertThat(node.get("local_task").asText()).isEqualTo("/job:client/replica:0/task:2");
    assertThat(node.get("cluster").get("client").get("2").asText()).startsWith("localhost:");
    assertThat(node.get("cluster").get("chief").get("0").asText()).isEqualTo("127.0.0.1:" + port);
    List<String> devices = new ArrayList<>();
    node.get("devices").forEach(d -> devices.add(d.asText()));
    assertThat(devices).containsExactly(
        "/job:client/replica:0/task:2/device:CPU:0",
        "/job:worker/replica:0/task:0/device:CPU:0",
        "/job:worker/replica:0/task:0/device:GPU:0",
        "/job:worker/replica:0/task:0/device:GPU:1");
  }

  @Test
  void servedFiltersApplyWhateverTheClientSends() throws Exception {
    serve("--task-type", "chief", "--task-id", "0", "--device-filter", "localhost:0=/job:worker");
    serve("--task-type", "worker", "--task-id", "0");
    CliRun run = CliRun.run(ENV, fixture("connect", "--connect-timeout", "10"));
    assertThat(run.code).as(run.toString()).isZero();
    assertThat(run.out).doesNotContain("/job:chief").contains("/job:worker/replica:0/task:0/device:CPU:0");
  }

  @Test
  void missingTaskIsAResolutionFailureNamingIt() {
    // Nothing serves the cluster.
    CliRun run = CliRun.run(ENV, fixture("connect", "--connect-timeout", "0.5"));
    assertThat(run.code).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("/job:chief/replica:0/task:0", "127.0.0.1:" + port);
  }

  @Test
  void serveWithoutATaskIsAUsageError() {
    CliRun run = CliRun.run(ENV, fixture("serve"));
    assertThat(run.code).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err).contains("--task-type");
  }

  @Test
  void badDeviceFilterOptionIsAUsageError() {
    CliRun run = CliRun.run(ENV, fixture("connect", "--device-filter", "worker=/job:ps"));
    assertThat(run.code).isEqualTo(ExitCodes.USAGE);
    assertThat(run.err).contains("JOB:TASK=FILTER");
  }

}
