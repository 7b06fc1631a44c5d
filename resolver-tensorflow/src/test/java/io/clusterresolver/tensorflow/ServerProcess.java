package io.clusterresolver.tensorflow;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A {@link ServerMain} in its own JVM, started with a provider's environment. */
final class ServerProcess implements AutoCloseable {
  private final Process process;
  private final CompletableFuture<String> line = new CompletableFuture<>();
  private final Path log;

  private ServerProcess(Process process, Path log) {
    this.process = process;
    this.log = log;
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String first = out.readLine();
        line.complete(first);
        while (out.readLine() != null) {
          // drain
        }
      } catch (IOException e) {
        line.completeExceptionally(e);
      }
    }, "server-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  static ServerProcess start(String provider, Map<String, String> environment) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path log = Files.createTempFile("tf-server-", ".log");
    ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        ServerMain.class.getName(), provider)
        .redirectError(log.toFile());
    builder.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.equals("TF_CONFIG"));
    builder.environment().putAll(environment);
    return new ServerProcess(builder.start(), log);
  }

  /** The line the server prints once it serves; fails with its standard error if it exits first. */
  String awaitServing() throws Exception {
    String first = line.get(90, TimeUnit.SECONDS);
    if (first == null) {
      process.waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError("The server exited (" + process.exitValue() + ") before serving: "
          + Files.readString(log));
    }
    return first;
  }

  /** Waits for the exit code of a server that must fail, with its standard error. */
  String awaitFailure() throws Exception {
    if (!process.waitFor(90, TimeUnit.SECONDS)) {
      throw new AssertionError("The server did not exit");
    }
    return process.exitValue() + " " + Files.readString(log);
  }

  /** Kills the server as a crash would (SIGKILL). */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    kill();
    new File(log.toString()).delete();
  }
}
