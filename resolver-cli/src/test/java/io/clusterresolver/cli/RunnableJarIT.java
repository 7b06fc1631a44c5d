package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Runs the packaged runnable jar as its own process, as users do. */
class RunnableJarIT {

  private static Path jar;

  @BeforeAll
  static void findJar() {
    jar = Paths.get(System.getProperty("cli.jar", "target/cluster-resolver.jar"));
    assertThat(jar).as("run 'mvn package' first").exists();
  }

  /** The exit code, stdout and stderr of one run; bounded generously, since CI machines may be busy. */
  private static CliProcess run(List<String> classpathExtra, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    if (classpathExtra.isEmpty()) {
      command.add("-jar");
      command.add(jar.toString());
    } else {
      command.add("-cp");
      command.add(jar + File.pathSeparator + String.join(File.pathSeparator, classpathExtra));
      command.add(Main.class.getName());
    }
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(k -> k.startsWith("CLUSTERRESOLVER_") || k.equals("TF_CONFIG")
        || k.startsWith("SLURM_"));
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process, false));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process, true));
    if (!process.waitFor(300, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("cluster-resolver " + String.join(" ", args) + " did not finish in 300 s");
    }
    return new CliProcess(process.exitValue(), out.join(), err.join());
  }

  private static String read(Process process, boolean err) {
    try {
      return new String((err ? process.getErrorStream() : process.getInputStream()).readAllBytes(),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static final class CliProcess {
    final int code;
    final String out;
    final String err;

    CliProcess(int code, String out, String err) {
      this.code = code;
      this.out = out;
      this.err = err;
    }

    @Override
    public String toString() {
      return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  @Test
  void jarIsRunnableAndMergesEveryServiceFile() throws Exception {
    try (JarFile file = new JarFile(jar.toFile())) {
      assertThat(file.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo(Main.class.getName());
      // Not shaded: the manifest names the jars beside it in the distribution's lib/.
      assertThat(file.getManifest().getMainAttributes().getValue("Class-Path"))
          .contains("picocli-4.7.7.jar", "resolver-api-", "resolver-tfconfig-");
      assertThat(file.getEntry("picocli/CommandLine.class")).isNull();
    }
    CliProcess version = run(List.of(), Map.of(), "--version");
    assertThat(version.out.strip()).isEqualTo("cluster-resolver " + System.getProperty("cli.version"));
    CliProcess help = run(List.of(), Map.of(), "--help");
    assertThat(help.code).as(help.toString()).isZero();
    assertThat(help.out).contains("providers", "detect", "resolve");
    // Every provider module's own service file is found on the class path.
    CliProcess providers = run(List.of(), Map.of(), "providers");
    assertThat(providers.code).as(providers.toString()).isZero();
    assertThat(providers.out).contains("tfconfig  priority 200", "local  priority lowest");
  }

  @Test
  void resolveWithNoArgumentsIsTheLocalHostOffCloud() throws Exception {
    CliProcess run = run(List.of(), Map.of("HOSTNAME", "it-host"), "resolve");
    assertThat(run.code).as(run.toString()).isZero();
    assertThat(run.err).isEmpty();
    JsonNode root = new ObjectMapper().readTree(run.out);
    assertThat(root.at("/cluster/worker/0").asText()).isEqualTo("it-host:8888");
    assertThat(root.at("/task/type").asText()).isEqualTo("worker");
  }

  @Test
  void tfConfigFromTheEnvironmentInEveryFormat() throws Exception {
    Map<String, String> env = Map.of("TF_CONFIG",
        "{\"cluster\":{\"chief\":[\"c:1\"],\"worker\":[\"w:1\",\"w:2\"]},\"task\":{\"type\":\"worker\",\"index\":1}}");
    assertThat(run(List.of(), env, "detect").out.trim()).isEqualTo("tfconfig");
    CliProcess tfConfig = run(List.of(), env, "resolve", "--format", "tf-config");
    assertThat(tfConfig.code).as(tfConfig.toString()).isZero();
    assertThat(new ObjectMapper().readTree(tfConfig.out)).isEqualTo(new ObjectMapper().readTree(env.get("TF_CONFIG")));
    assertThat(run(List.of(), env, "resolve", "--format", "hostfile").out).isEqualTo("c\nw slots=2\n");
    assertThat(run(List.of(), env, "resolve", "--format", "env").out).contains("RANK=2\n", "WORLD_SIZE=3\n");
  }

  @Test
  void malformedTfConfigExitsWithTwo() throws Exception {
    CliProcess run = run(List.of(), Map.of("TF_CONFIG", "{not json"), "resolve");
    assertThat(run.code).as(run.toString()).isEqualTo(2);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("TF_CONFIG");
  }

  @Test
  void resolvesWithAProviderDroppedOnTheClasspath() throws Exception {
    // The test providers are a plugin jar's stand-in: found through META-INF/services next to the jar.
    CliProcess run = run(List.of("target/test-classes"), Map.of("FIXTURE_CLUSTER", "1",
        "CLUSTERRESOLVER_FIXTURE_HOSTS", "10.1.0.1,10.1.0.2"), "resolve", "--task-type", "worker", "--task-id", "0");
    assertThat(run.code).as(run.toString()).isZero();
    assertThat(run.err).isEmpty();
    JsonNode root = new ObjectMapper().readTree(run.out);
    assertThat(root.at("/cluster/worker/0").asText()).isEqualTo("10.1.0.2:2222");
    assertThat(root.at("/task/type").asText()).isEqualTo("worker");
  }

  @Test
  void envOutputWorksWithEvalInARealShell() throws Exception {
    CliProcess run = run(List.of("target/test-classes"), Map.of("FIXTURE_CLUSTER", "1",
        "CLUSTERRESOLVER_FIXTURE_HOSTS", "a,b,c"), "resolve", "--format", "env", "--task-type", "worker",
        "--task-id", "1");
    assertThat(run.code).as(run.toString()).isZero();
    ProcessBuilder shell = new ProcessBuilder("sh", "-c",
        "eval \"$CR\" && sh -c 'echo \"$MASTER_ADDR:$MASTER_PORT $WORLD_SIZE $RANK\"'");
    shell.environment().put("CR", run.out);
    Process p = shell.start();
    String line = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
    assertThat(line).isEqualTo("a:2222 3 2");
  }

  @Test
  void configurationErrorsExitWithTwoAndPrintNothingOnStdout() throws Exception {
    CliProcess unknown = run(List.of(), Map.of(), "resolve", "--provider", "no-such-provider");
    assertThat(unknown.code).as(unknown.toString()).isEqualTo(2);
    assertThat(unknown.out).isEmpty();
    assertThat(unknown.err).contains("no-such-provider", "Known providers");

    CliProcess negativePort = run(List.of("target/test-classes"), Map.of("FIXTURE_CLUSTER", "1"),
        "resolve", "-D", "clusterresolver.fixture.hosts=h", "-D", "clusterresolver.fixture.port=-2222");
    assertThat(negativePort.code).as(negativePort.toString()).isEqualTo(2);
    assertThat(negativePort.out).isEmpty();
    assertThat(negativePort.err).contains("clusterresolver.fixture.port", "-2222");
  }

  @Test
  void resolutionFailureExitsWithThree() throws Exception {
    CliProcess run = run(List.of("target/test-classes"), Map.of("FIXTURE_CLUSTER", "1"),
        "resolve", "-D", "clusterresolver.fixture.hosts=h", "-D", "clusterresolver.fixture.fail=true");
    assertThat(run.code).as(run.toString()).isEqualTo(3);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("HTTP 503");
  }

  @Test
  void configFileIsReadFromDisk() throws Exception {
    Path file = Files.createTempFile("cluster", ".properties");
    try {
      Files.writeString(file, "clusterresolver.fixture.hosts=x1,x2\n");
      CliProcess run = run(List.of("target/test-classes"), Map.of("FIXTURE_CLUSTER", "1"),
          "resolve", "--config", file.toString(), "--format", "hostfile");
      assertThat(run.code).as(run.toString()).isZero();
      assertThat(run.out).isEqualTo("x1\nx2\n");
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
