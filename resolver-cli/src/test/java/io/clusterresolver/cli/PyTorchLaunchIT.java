package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.clusterresolver.testkit.Loopback;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PyTorch, for real: four processes each run {@code eval "$(cluster-resolver resolve --format env)"}
 * with the distribution's launcher, then Debian's {@code python3-torch} (1.13) joins them with
 * {@code torch.distributed.init_process_group("gloo")} (the {@code env://} rendezvous) and sums their
 * ranks with {@code all_reduce}: each must print 0 + 1 + 2 + 3 = 6. Once as the tasks of a Slurm job
 * step, each in the environment {@code srun} gives it, once as a fleet whose addresses are IPv6
 * ({@code [::1]:port}), where PyTorch needs {@code MASTER_ADDR} without brackets.
 *
 * <p>Needs {@code /usr/bin/python3} with torch ({@code scripts/setup.d/pytorch.sh}); without it the
 * tests are skipped with the reason, and with {@code CI=true} they fail instead.
 */
class PyTorchLaunchIT {

  private static final String PYTHON = "/usr/bin/python3";
  private static final int WORLD_SIZE = 4;
  private static final long LAUNCH_TIMEOUT_SECONDS = 300;

  private static Path launcher;

  @BeforeAll
  static void requireTorch() throws Exception {
    String missing = torchMissing();
    if (missing != null) {
      if ("true".equals(System.getenv("CI"))) {
        fail("CI=true but the PyTorch launch tests cannot run: " + missing);
      }
      assumeTrue(false, "PyTorch launch tests skipped: " + missing);
    }
    launcher = Paths.get(System.getProperty("cli.home", "target/cluster-resolver-0.4.0-SNAPSHOT"))
        .toAbsolutePath().resolve("bin/cluster-resolver");
    assertThat(launcher).as("run 'mvn package' first").exists();
  }

  private static String torchMissing() throws Exception {
    if (!Files.isExecutable(Paths.get(PYTHON))) {
      return PYTHON + " not found (run scripts/setup.d/pytorch.sh as root: apt-get install python3-torch)";
    }
    Process probe = new ProcessBuilder(PYTHON, "-c", "import torch.distributed").redirectErrorStream(true).start();
    String output = read(probe.getInputStream());
    if (!probe.waitFor(120, TimeUnit.SECONDS) || probe.exitValue() != 0) {
      probe.destroyForcibly();
      return PYTHON + " cannot import torch.distributed (run scripts/setup.d/pytorch.sh as root:"
          + " apt-get install python3-torch): " + output.strip();
    }
    return null;
  }

  @Test
  void fourTasksOfASlurmStepFormAGlooGroup(@TempDir Path dir) throws Exception {
    int portBase = Loopback.freePort();
    List<Map<String, String>> tasks = new ArrayList<>();
    for (int rank = 0; rank < WORLD_SIZE; rank++) {
      // What srun sets for task `rank` of a four-task step on one node (resolver-slurm reads these).
      Map<String, String> env = new HashMap<>();
      env.put("SLURM_JOB_ID", "4242");
      env.put("SLURM_STEP_ID", "0");
      env.put("SLURM_STEP_NODELIST", "localhost");
      env.put("SLURM_STEP_NUM_NODES", "1");
      env.put("SLURM_STEP_NUM_TASKS", Integer.toString(WORLD_SIZE));
      env.put("SLURM_STEP_TASKS_PER_NODE", Integer.toString(WORLD_SIZE));
      env.put("SLURM_NTASKS", Integer.toString(WORLD_SIZE));
      env.put("SLURM_NODEID", "0");
      env.put("SLURM_PROCID", Integer.toString(rank));
      env.put("SLURM_LOCALID", Integer.toString(rank));
      env.put("SLURMD_NODENAME", "localhost");
      env.put("CLUSTERRESOLVER_SLURM_PORT_BASE", Integer.toString(portBase));
      tasks.add(env);
    }
    // Rank 0 is the task with local id 0: at port-base on the step's only node (resolver-slurm's README).
    assertEachFormedTheGroup(launch(dir, "slurm", tasks), "localhost", portBase);
  }

  @Test
  void fourTasksOfAnIpv6FleetFormAGlooGroup(@TempDir Path dir) throws Exception {
    int port = Loopback.freePort();
    String workers = String.join(", ", IntStream.range(0, WORLD_SIZE)
        .mapToObj(i -> "\"[::1]:" + (port + i) + "\"").toList());
    List<Map<String, String>> tasks = new ArrayList<>();
    for (int rank = 0; rank < WORLD_SIZE; rank++) {
      tasks.add(Map.of("TF_CONFIG", "{\"cluster\": {\"worker\": [" + workers + "]},"
          + " \"task\": {\"type\": \"worker\", \"index\": " + rank + "}}"));
    }
    // torch's TCPStore takes the host as given: "[::1]" makes its client time out, "::1" connects.
    assertEachFormedTheGroup(launch(dir, "tfconfig", tasks), "::1", port);
  }

  private static void assertEachFormedTheGroup(List<String> outputs, String masterAddr, int masterPort) {
    int sumOfRanks = IntStream.range(0, WORLD_SIZE).sum();
    for (int rank = 0; rank < WORLD_SIZE; rank++) {
      assertThat(outputs.get(rank)).as("process %d", rank).contains(
          "rank " + rank + " of " + WORLD_SIZE + " at MASTER_ADDR=" + masterAddr + " MASTER_PORT=" + masterPort
              + ": all_reduce of the ranks = " + sumOfRanks);
    }
  }

  /**
   * Starts one process per environment, all at once, each {@code eval}-ing the command's
   * {@code --format env} and then running the torch worker; returns what each printed.
   */
  private static List<String> launch(Path dir, String provider, List<Map<String, String>> tasks) throws Exception {
    Path worker = dir.resolve("all_reduce_ranks.py");
    try (InputStream script = PyTorchLaunchIT.class.getResourceAsStream("/pytorch/all_reduce_ranks.py")) {
      Files.write(worker, script.readAllBytes());
    }
    String shell = "resolved=$(\"$CLUSTER_RESOLVER\" resolve --provider " + provider + " --format env) || exit 97\n"
        + "eval \"$resolved\"\n"
        + "exec " + PYTHON + " \"$WORKER\"\n";
    List<Process> processes = new ArrayList<>();
    List<CompletableFuture<String>> outputs = new ArrayList<>();
    try {
      for (Map<String, String> env : tasks) {
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", shell).redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        String path = environment.get("PATH");
        environment.clear();
        environment.put("PATH", path);
        environment.put("HOME", dir.toString());
        environment.put("JAVA_HOME", System.getProperty("java.home"));
        environment.put("CLUSTER_RESOLVER", launcher.toString());
        environment.put("WORKER", worker.toString());
        // gloo's own connections on loopback, one compute thread per process on a small machine.
        environment.put("GLOO_SOCKET_IFNAME", "lo");
        environment.put("OMP_NUM_THREADS", "1");
        environment.putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        processes.add(process);
        outputs.add(CompletableFuture.supplyAsync(() -> read(process.getInputStream())));
      }
      List<String> printed = new ArrayList<>();
      for (int rank = 0; rank < processes.size(); rank++) {
        Process process = processes.get(rank);
        if (!process.waitFor(LAUNCH_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          fail("process " + rank + " did not finish in " + LAUNCH_TIMEOUT_SECONDS + " s");
        }
        String output = outputs.get(rank).join();
        assertThat(process.exitValue()).as("exit code of process %d; it printed:%n%s", rank, output).isZero();
        printed.add(output);
      }
      return printed;
    } finally {
      processes.forEach(Process::destroyForcibly);
    }
  }

  private static String read(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
