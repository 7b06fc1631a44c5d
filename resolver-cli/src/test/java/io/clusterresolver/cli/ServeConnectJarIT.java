package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code serve} and {@code connect} as separate processes of the runnable jar, configured by
 * TF_CONFIG: TensorFlow's parameter-server example across processes, and a task that dies.
 */
class ServeConnectJarIT {
  private static Path jar;
  private final List<Process> processes = new ArrayList<>();
  private String cluster;
  private List<String> addresses;

  @BeforeAll
  static void findJar() {
    jar = Paths.get(System.getProperty("cli.jar", "target/cluster-resolver.jar"));
    assertThat(jar).as("run 'mvn package' first").exists();
  }

  @AfterEach
  void stop() throws InterruptedException {
    for (Process process : processes) {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private static List<String> distinctAddresses(int n) throws IOException {
    List<ServerSocket> sockets = new ArrayList<>();
    List<String> list = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        sockets.add(socket);
        list.add("127.0.0.1:" + socket.getLocalPort());
      }
    } finally {
      for (ServerSocket socket : sockets) {
        socket.close();
      }
    }
    return list;
  }

  private ProcessBuilder command(String type, int index, String... args) {
    List<String> command = new ArrayList<>(List.of(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-Xmx128m", "-jar", jar.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(k -> k.startsWith("CLUSTERRESOLVER_") || k.equals("TF_CONFIG"));
    builder.environment().put("TF_CONFIG", "{\"cluster\": " + cluster + ", \"task\": {\"type\": \""
        + type + "\", \"index\": " + index + "}}");
    return builder;
  }

  /** Starts {@code serve} for one task and waits for its "Serving" line. */
  private Process serve(String type, int index, String... extra) throws IOException {
    List<String> args = new ArrayList<>(List.of("serve", "--provider", "tfconfig"));
    args.addAll(List.of(extra));
    Process process = command(type, index, args.toArray(new String[0]))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    processes.add(process);
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String first = out.readLine();
    assertThat(first).as("first line of serve %s:%d", type, index).startsWith("Serving /job:" + type);
    // Keep draining so the server never blocks on a full pipe.
    CompletableFuture.runAsync(() -> {
      try {
        while (out.readLine() != null) {
          // discard
        }
      } catch (IOException ignored) {
        // the process ended
      }
    });
    return process;
  }

  /** Runs {@code connect} as the given task; returns exit code, stdout and stderr. */
  private String[] connect(String type, int index, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("connect", "--provider", "tfconfig", "--format", "json"));
    args.addAll(List.of(extra));
    Process process = command(type, index, args.toArray(new String[0])).start();
    process.getOutputStream().close();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process, false));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process, true));
    assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("connect finished").isTrue();
    return new String[] {Integer.toString(process.exitValue()), out.join(), err.join()};
  }

  private static String read(Process process, boolean err) {
    try {
      return new String((err ? process.getErrorStream() : process.getInputStream()).readAllBytes(),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> devices(String json) throws IOException {
    List<String> devices = new ArrayList<>();
    new ObjectMapper().readTree(json).get("devices").forEach(d -> devices.add(d.asText()));
    return devices;
  }

  private static final String[] PS_FILTERS = {
    "--device-filter", "worker:0=/job:ps", "--device-filter", "worker:1=/job:ps",
    "--device-filter", "ps:0=/job:worker"};

  @Test
  void parameterServerExampleAcrossProcesses() throws Exception {
    addresses = distinctAddresses(3);
    cluster = "{\"ps\": [\"" + addresses.get(0) + "\"], \"worker\": [\"" + addresses.get(1)
        + "\", \"" + addresses.get(2) + "\"]}";
    serve("ps", 0);
    serve("worker", 1);
    serve("worker", 0);

    // A client outside the cluster (job "localhost", no filters) sees everything.
    String[] all = connect("worker", 0);
    assertThat(all[0]).as(all[2]).isEqualTo("0");
    assertThat(devices(all[1])).containsExactly(
        "/job:localhost/replica:0/task:0/device:CPU:0", "/job:ps/replica:0/task:0/device:CPU:0",
        "/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:1/device:CPU:0");

    // Worker 1 sees only the ps task and itself; the ps task only the workers and itself.
    List<String> asWorker = new ArrayList<>(List.of("--job-name", "worker", "--task-index", "1"));
    asWorker.addAll(List.of(PS_FILTERS));
    String[] worker1 = connect("worker", 1, asWorker.toArray(new String[0]));
    assertThat(worker1[0]).as(worker1[2]).isEqualTo("0");
    assertThat(devices(worker1[1])).containsExactly(
        "/job:ps/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:1/device:CPU:0");
    List<String> asPs = new ArrayList<>(List.of("--job-name", "ps", "--task-index", "0"));
    asPs.addAll(List.of(PS_FILTERS));
    String[] ps0 = connect("ps", 0, asPs.toArray(new String[0]));
    assertThat(ps0[0]).as(ps0[2]).isEqualTo("0");
    assertThat(devices(ps0[1])).containsExactly("/job:ps/replica:0/task:0/device:CPU:0",
        "/job:worker/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:1/device:CPU:0");
  }

  @Test
  void deadTaskIsNamed() throws Exception {
    addresses = distinctAddresses(2);
    cluster = "{\"worker\": [\"" + addresses.get(0) + "\", \"" + addresses.get(1) + "\"]}";
    serve("worker", 0);
    Process worker1 = serve("worker", 1);
    worker1.destroyForcibly();
    assertThat(worker1.waitFor(10, TimeUnit.SECONDS)).isTrue();
    String[] result = connect("worker", 0, "--connect-timeout", "2");
    assertThat(result[0]).isEqualTo(Integer.toString(ExitCodes.RESOLUTION_FAILURE));
    assertThat(result[1]).isEmpty();
    assertThat(result[2]).contains("/job:worker/replica:0/task:1", addresses.get(1));
  }
}
