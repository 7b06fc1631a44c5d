package io.clusterresolver.cli;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real four-node Slurm (node1..node4, 4 CPUs and 4 fake GPUs each) on loopback for the tests of
 * one class, started by {@code scripts/slurm-cluster.sh} in a fresh state directory under
 * {@code target/} and stopped after the class — also when a test fails, and by a shutdown hook if
 * the JVM ends early.
 *
 * <p>Needs root and Debian's Slurm ({@code scripts/setup.d/slurm.sh}). Without them the tests are
 * skipped with the reason; with {@code CI=true} that is a failure instead, since CI must run them.
 */
public final class LocalSlurmCluster implements BeforeAllCallback, AfterAllCallback {

  /** Includes waiting for another test run's cluster on this host to stop (the script waits up to 600 s). */
  private static final long START_TIMEOUT_SECONDS = 700;
  private static final long STOP_TIMEOUT_SECONDS = 60;

  private Path stateDir;
  private Path script;
  private Thread shutdownHook;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    String missing = missingPrerequisite();
    if (missing != null) {
      if ("true".equals(System.getenv("CI"))) {
        fail("CI=true but the real-Slurm integration tests cannot run: " + missing);
      }
      assumeTrue(false, "Real-Slurm integration tests skipped: " + missing);
    }
    script = Paths.get(System.getProperty("slurm.cluster.script", "../scripts/slurm-cluster.sh"))
        .toAbsolutePath().normalize();
    Path base = Paths.get(System.getProperty("slurm.state.dir", "target/slurm-it"));
    // A short, unique path: slurmd puts sockets in the state dir (Unix socket paths are limited).
    stateDir = base.toAbsolutePath().resolve(UUID.randomUUID().toString().substring(0, 8));
    Files.createDirectories(stateDir);
    shutdownHook = new Thread(this::stopQuietly, "stop-local-slurm");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    Result start = runScript("start", START_TIMEOUT_SECONDS);
    if (start.code != 0) {
      stopQuietly();
      fail("Could not start the local Slurm cluster (" + script + " start " + stateDir + "):\n" + start);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (stateDir == null) {
      return;
    }
    stopQuietly();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down; the hook runs anyway
    }
  }

  /** {@code SLURM_CONF} for clients of this cluster. */
  public Path slurmConf() {
    return stateDir.resolve("etc/slurm.conf");
  }

  /** A directory for job files. */
  public Path stateDir() {
    return stateDir;
  }

  private void stopQuietly() {
    try {
      Result stop = runScript("stop", STOP_TIMEOUT_SECONDS);
      if (stop.code != 0) {
        System.err.println("Stopping the local Slurm cluster failed:\n" + stop);
      }
    } catch (IOException | InterruptedException e) {
      System.err.println("Stopping the local Slurm cluster failed: " + e);
    }
  }

  private static String missingPrerequisite() {
    if (!"root".equals(System.getProperty("user.name"))) {
      return "not running as root (slurmd and slurmctld need root; run as root or in CI)";
    }
    for (String binary : List.of("/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged")) {
      if (!Files.isExecutable(Paths.get(binary))) {
        return binary + " is not installed (scripts/setup.d/slurm.sh installs Slurm)";
      }
    }
    if (Command.which("srun") == null || Command.which("sbatch") == null) {
      return "srun/sbatch are not on the PATH (scripts/setup.d/slurm.sh installs slurm-client)";
    }
    return null;
  }

  private Result runScript(String action, long timeoutSeconds) throws IOException, InterruptedException {
    return Command.run(List.of("bash", script.toString(), action, stateDir.toString()), Map.of(), timeoutSeconds);
  }

  /** The outcome of a bounded child process. */
  public static final class Result {
    final int code;
    final String out;
    final String err;

    Result(int code, String out, String err) {
      this.code = code;
      this.out = out;
      this.err = err;
    }

    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
    }
  }

  /** Runs child processes with a time limit. */
  static final class Command {
    private Command() {}

    static String which(String name) {
      for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
        Path candidate = Paths.get(dir, name);
        if (!dir.isEmpty() && Files.isExecutable(candidate)) {
          return candidate.toString();
        }
      }
      return null;
    }

    static Result run(List<String> command, Map<String, String> env, long timeoutSeconds)
        throws IOException, InterruptedException {
      ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command));
      builder.environment().keySet().removeIf(k -> k.startsWith("CLUSTERRESOLVER_") || k.startsWith("SLURM_"));
      builder.environment().putAll(env);
      Process process = builder.start();
      process.getOutputStream().close();
      CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process, false));
      CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process, true));
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
        return new Result(-1, out.getNow(""), "timed out after " + timeoutSeconds + " s: " + command + "\n"
            + err.getNow(""));
      }
      return new Result(process.exitValue(), out.join(), err.join());
    }

    private static String read(Process process, boolean err) {
      try {
        return new String((err ? process.getErrorStream() : process.getInputStream()).readAllBytes(),
            StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "(unreadable: " + e + ")";
      }
    }
  }
}
