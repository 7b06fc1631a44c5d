package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/cluster-resolver tf-server} of the built distribution, one real TensorFlow server per
 * process, and the place TensorFlow takes in the distribution: {@code tensorflow/}, never {@code lib/}.
 */
class TfServerIT {
  private static Path home;

  @BeforeAll
  static void findDistribution() {
    home = Paths.get(System.getProperty("cli.home", "target/cluster-resolver")).toAbsolutePath();
    assertThat(home.resolve("bin/cluster-resolver")).as("run 'mvn package' first").exists();
  }

  private static Process tfServer(Path dist, Map<String, String> env, Path err) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(dist.resolve("bin/cluster-resolver").toString(),
        "tf-server", "--provider", "tfconfig").redirectError(err.toFile())
        .redirectOutput(Path.of(err + ".out").toFile());
    builder.environment().putAll(env);
    return builder.start();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void twoWorkersServeFromTfConfigPrintTheirLineAndExitZeroOnSigterm(@TempDir Path tmp) throws Exception {
    List<String> workers = List.of("localhost:" + freePort(), "localhost:" + freePort());
    String cluster = "{\"worker\":[\"" + workers.get(0) + "\",\"" + workers.get(1) + "\"]}";
    Process[] servers = new Process[2];
    try {
      for (int i = 0; i < 2; i++) {
        servers[i] = tfServer(home, Map.of("TF_CONFIG", "{\"cluster\":" + cluster
            + ",\"task\":{\"type\":\"worker\",\"index\":" + i + "}}"), tmp.resolve("err" + i));
      }
      for (int i = 0; i < 2; i++) {
        Path out = tmp.resolve("err" + i + ".out");
        for (int wait = 0; wait < 900 && Files.size(out) == 0 && servers[i].isAlive(); wait++) {
          Thread.sleep(100);
        }
        assertThat(Files.readString(out)).as("stderr: %s", Files.readString(tmp.resolve("err" + i)))
            .startsWith("tensorflow server");
      }
      for (int i = 0; i < 2; i++) {
        servers[i].destroy(); // SIGTERM
        assertThat(servers[i].waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(servers[i].exitValue()).isZero();
        // Exactly one line on standard output.
        assertThat(Files.readString(tmp.resolve("err" + i + ".out"))).isEqualTo(
            "tensorflow server /job:worker/replica:0/task:" + i + " at grpc://" + workers.get(i) + "\n");
      }
    } finally {
      for (Process server : servers) {
        if (server != null) {
          server.destroyForcibly();
        }
      }
    }
  }

  @Test
  void aProcessThatIsNotATaskOfTheClusterIsExit2NamingIt(@TempDir Path tmp) throws Exception {
    Process server = tfServer(home, Map.of("TF_CONFIG",
        "{\"cluster\":{\"worker\":[\"localhost:" + freePort() + "\"]},\"task\":{\"type\":\"chief\",\"index\":0}}"),
        tmp.resolve("err"));
    assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(server.exitValue()).isEqualTo(ExitCodes.USAGE);
    assertThat(Files.readString(tmp.resolve("err"))).contains("chief").contains("worker");
  }

  @Test
  void tensorFlowIsInTensorflowFolderNotInLibAndWithoutItTfServerSaysWhatToAdd(@TempDir Path tmp)
      throws Exception {
    try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
      assertThat(lib.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.startsWith("tensorflow") || n.startsWith("javacpp")
              || n.startsWith("resolver-tensorflow") || n.startsWith("ndarray"));
    }
    try (Stream<Path> tf = Files.list(home.resolve("tensorflow"))) {
      assertThat(tf.map(p -> p.getFileName().toString()))
          .anyMatch(n -> n.startsWith("resolver-tensorflow-"))
          .anyMatch(n -> n.matches("tensorflow-core-native-.*-linux-x86_64\\.jar"));
    }
    // The same distribution without tensorflow/ (lib/ and plugins/ linked, bin/ copied).
    Path bare = tmp.resolve("bare");
    Files.createDirectories(bare.resolve("bin"));
    Files.copy(home.resolve("bin/cluster-resolver"), bare.resolve("bin/cluster-resolver"));
    Files.createSymbolicLink(bare.resolve("lib"), home.resolve("lib"));
    Files.createSymbolicLink(bare.resolve("plugins"), home.resolve("plugins"));
    Process server = tfServer(bare, Map.of("TF_CONFIG",
        "{\"cluster\":{\"worker\":[\"localhost:1\"]},\"task\":{\"type\":\"worker\",\"index\":0}}",
        "CLUSTER_RESOLVER_CDS_DIR", tmp.resolve("cds").toString()), tmp.resolve("err"));
    assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(server.exitValue()).isEqualTo(ExitCodes.USAGE);
    assertThat(Files.readString(tmp.resolve("err"))).contains("tensorflow/").contains("-tensorflow.tar.gz");
  }
}
