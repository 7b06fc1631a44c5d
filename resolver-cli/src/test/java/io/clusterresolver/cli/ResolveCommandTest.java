package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResolveCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, String> ENV = Map.of("FIXTURE_CLUSTER", "1");

  private static CliRun ok(Map<String, String> env, String... args) {
    CliRun run = CliRun.run(env, args);
    assertThat(run.code).as(run.toString()).isEqualTo(ExitCodes.OK);
    assertThat(run.err).as(run.toString()).isEmpty();
    return run;
  }

  private static CliRun fails(int code, Map<String, String> env, String... args) {
    CliRun run = CliRun.run(env, args);
    assertThat(run.code).as(run.toString()).isEqualTo(code);
    assertThat(run.out).as("nothing on stdout when failing: " + run).isEmpty();
    assertThat(run.err).as(run.toString()).isNotBlank();
    return run;
  }

  @Test
  void jsonHasTheDocumentedShape() throws IOException {
    CliRun run = ok(ENV, "resolve", "--provider", "fixture",
        "-D", "clusterresolver.fixture.hosts=10.0.0.1,10.0.0.2",
        "-D", "clusterresolver.fixture.task-type=worker", "-D", "clusterresolver.fixture.task-id=0",
        "-D", "clusterresolver.fixture.gpus=2");
    JsonNode root = JSON.readTree(run.out);
    assertThat(root.fieldNames()).toIterable()
        .containsExactly("cluster", "task", "rpc_layer", "environment", "accelerators");
    assertThat(root.at("/cluster/chief/0").asText()).isEqualTo("10.0.0.1:2222");
    assertThat(root.at("/cluster/worker").isArray()).isTrue();
    assertThat(root.at("/cluster/worker/0").asText()).isEqualTo("10.0.0.2:2222");
    assertThat(root.at("/task/type").asText()).isEqualTo("worker");
    assertThat(root.at("/task/index").asInt()).isEqualTo(0);
    assertThat(root.at("/rpc_layer").asText()).isEqualTo("grpc");
    assertThat(root.at("/environment").asText()).isEqualTo("fixture");
    assertThat(root.at("/accelerators/GPU").asInt()).isEqualTo(2);
  }

  @Test
  void detectsTheProviderWhenNoneIsNamed() throws IOException {
    CliRun run = ok(ENV, "resolve", "-D", "clusterresolver.fixture.hosts=h1");
    JsonNode root = JSON.readTree(run.out);
    assertThat(root.at("/cluster/chief/0").asText()).isEqualTo("h1:2222");
    assertThat(root.at("/task/type").isNull()).isTrue();
    assertThat(root.at("/task/index").isNull()).isTrue();
    assertThat(root.at("/accelerators").size()).isZero();
  }

  @Test
  void taskOptionsBecomeTheProvidersProperties() throws IOException {
    CliRun run = ok(ENV, "resolve", "-D", "clusterresolver.fixture.hosts=h1,h2,h3",
        "--task-type", "worker", "--task-id", "1");
    JsonNode root = JSON.readTree(run.out);
    assertThat(root.at("/task/type").asText()).isEqualTo("worker");
    assertThat(root.at("/task/index").asInt()).isEqualTo(1);
  }

  @Test
  void minusDOverridesEnvironmentWhichOverridesTheConfigFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("cluster.properties");
    Files.writeString(file, "clusterresolver.fixture.hosts=from-file\nclusterresolver.fixture.port=1000\n"
        + "clusterresolver.fixture.rpc-layer=file-layer\n");
    Map<String, String> env = Map.of("FIXTURE_CLUSTER", "1", "CLUSTERRESOLVER_FIXTURE_PORT", "2000",
        "CLUSTERRESOLVER_FIXTURE_RPC_LAYER", "env-layer");
    JsonNode root = JSON.readTree(ok(env, "resolve", "--config", file.toString(),
        "-D", "clusterresolver.fixture.rpc-layer=cli-layer").out);
    assertThat(root.at("/cluster/chief/0").asText()).isEqualTo("from-file:2000");
    assertThat(root.at("/rpc_layer").asText()).isEqualTo("cli-layer");
  }

  @Test
  void tfConfigFormat() throws IOException {
    CliRun run = ok(ENV, "resolve", "--format", "tf-config", "-D", "clusterresolver.fixture.hosts=h1,h2",
        "--task-type", "chief", "--task-id", "0");
    assertThat(run.out).endsWith("\n").doesNotContain("\n  ");
    JsonNode root = JSON.readTree(run.out);
    assertThat(root.at("/cluster/chief/0").asText()).isEqualTo("h1:2222");
    assertThat(root.at("/cluster/worker/0").asText()).isEqualTo("h2:2222");
    assertThat(root.at("/task/type").asText()).isEqualTo("chief");
    assertThat(root.at("/task/index").asInt()).isEqualTo(0);
    assertThat(root.at("/rpc_layer").asText()).isEqualTo("grpc");
  }

  @Test
  void hostfileGivesSlotsToHostsWithSeveralTasks() {
    CliRun run = ok(ENV, "resolve", "--format", "hostfile",
        "-D", "clusterresolver.fixture.hosts=n2,n1,n3", "-D", "clusterresolver.fixture.tasks-per-host=2");
    // chief n2:2222 first, then workers in index order: n2:2223, n1:2222, n1:2223, n3:2222, n3:2223
    assertThat(run.out).isEqualTo("n2 slots=2\nn1 slots=2\nn3 slots=2\n");
    CliRun single = ok(ENV, "resolve", "--format", "hostfile", "-D", "clusterresolver.fixture.hosts=a,b");
    assertThat(single.out).isEqualTo("a\nb\n");
  }

  @Test
  void envFormatHasTensorFlowAndPyTorchVariables() {
    CliRun run = ok(ENV, "resolve", "--format", "env", "-D", "clusterresolver.fixture.hosts=h1,h2,h3",
        "--task-type", "worker", "--task-id", "1", "-D", "clusterresolver.fixture.visible-devices=0,1");
    List<String> lines = run.out.lines().toList();
    assertThat(lines.get(0)).startsWith("TF_CONFIG='{\"cluster\":");
    assertThat(lines).contains("MASTER_ADDR=h1", "MASTER_PORT=2222", "WORLD_SIZE=3", "RANK=2",
        "CUDA_VISIBLE_DEVICES=0,1");
    assertThat(lines.get(lines.size() - 1))
        .isEqualTo("export TF_CONFIG MASTER_ADDR MASTER_PORT WORLD_SIZE RANK CUDA_VISIBLE_DEVICES");
  }

  @Test
  void envFormatLeavesOutWhatIsUnknown() {
    CliRun run = ok(ENV, "resolve", "--format", "env", "-D", "clusterresolver.fixture.hosts=h1");
    assertThat(run.out).doesNotContain("RANK=").doesNotContain("CUDA_VISIBLE_DEVICES")
        .contains("WORLD_SIZE=1\n").endsWith("export TF_CONFIG MASTER_ADDR MASTER_PORT WORLD_SIZE\n");
  }

  @Test
  void envFormatIsSafeToEvaluateInAShell() throws Exception {
    // A job name with quotes, spaces and $(...) must come back verbatim, never executed.
    String nasty = "it's $(touch /tmp/pwned) `x` \"q\"";
    CliRun run = ok(ENV, "resolve", "--format", "env", "-D", "clusterresolver.fixture.hosts=h1",
        "-D", "clusterresolver.fixture.rpc-layer=" + nasty);
    // The child shell sees TF_CONFIG only if the output exports it.
    ProcessBuilder builder = new ProcessBuilder("sh", "-c",
        "eval \"$CR_OUT\"; sh -c 'printf %s \"$TF_CONFIG\"'");
    builder.environment().put("CR_OUT", run.out);
    Process p = builder.redirectErrorStream(true).start();
    String exported = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor(300, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    JsonNode tfConfig = JSON.readTree(exported);
    assertThat(tfConfig.at("/rpc_layer").asText()).isEqualTo(nasty);
  }

  @Test
  void aTaskGivenToAProviderWithoutTaskPropertiesSelectsTheView() throws IOException {
    // The 'viewonly' provider declares no task-type/task-id: the options choose which task is printed.
    JsonNode root = JSON.readTree(ok(Map.of(), "resolve", "--provider", "viewonly",
        "--task-type", "worker", "--task-id", "1").out);
    assertThat(root.at("/task/type").asText()).isEqualTo("worker");
    assertThat(root.at("/task/index").asInt()).isEqualTo(1);
    assertThat(root.at("/cluster/worker").isArray()).isTrue();
    assertThat(root.at("/cluster/evaluator").isObject()).as("a sparse job is an object").isTrue();
    assertThat(root.at("/cluster/evaluator/3").asText()).isEqualTo("e3:1000");
    CliRun missing = fails(ExitCodes.USAGE, Map.of(), "resolve", "--provider", "viewonly",
        "--task-type", "worker", "--task-id", "7");
    assertThat(missing.err).contains("--task-id 7", "'worker'", "[0, 1]");
  }

  @Test
  void unknownProviderListsTheKnownOnes() {
    CliRun run = fails(ExitCodes.USAGE, ENV, "resolve", "--provider", "nosuch");
    assertThat(run.err).contains("'nosuch'", "fixture", "viewonly");
  }

  @Test
  void misspelledPropertySuggestsTheRightKey() {
    CliRun run = fails(ExitCodes.USAGE, ENV, "resolve", "-D", "clusterresolver.fixture.hosts=h1",
        "-D", "clusterresolver.fixture.tasks-per-hots=2");
    assertThat(run.err).contains("clusterresolver.fixture.tasks-per-hots",
        "did you mean clusterresolver.fixture.tasks-per-host");
  }

  @Test
  void misspelledEnvironmentVariableIsAnError() {
    CliRun run = fails(ExitCodes.USAGE, Map.of("FIXTURE_CLUSTER", "1", "CLUSTERRESOLVER_FIXTURE_HOST", "h1"),
        "resolve");
    assertThat(run.err).contains("CLUSTERRESOLVER_FIXTURE_HOST", "CLUSTERRESOLVER_FIXTURE_HOSTS");
  }

  @Test
  void keyForAnUnknownProviderIsAnError() {
    CliRun run = fails(ExitCodes.USAGE, ENV, "resolve", "-D", "clusterresolver.fixture.hosts=h1",
        "-D", "clusterresolver.fixtur.port=1");
    assertThat(run.err).contains("clusterresolver.fixtur.port", "no provider named 'fixtur'", "fixture");
  }

  @Test
  void keyWithoutThePrefixIsAnError() {
    CliRun run = fails(ExitCodes.USAGE, ENV, "resolve", "-D", "hosts=h1");
    assertThat(run.err).contains("does not start with clusterresolver.", "clusterresolver.<provider>.<name>");
  }

  @Test
  void negativePortIsAConfigurationError() {
    CliRun run = fails(ExitCodes.USAGE, ENV, "resolve", "-D", "clusterresolver.fixture.hosts=h1",
        "-D", "clusterresolver.fixture.port=-5");
    assertThat(run.err).contains("clusterresolver.fixture.port", "'-5'", "between 1 and 65535");
  }

  @Test
  void allProblemsAreReportedAtOnce() {
    CliRun run = fails(ExitCodes.USAGE, ENV, "resolve",
        "-D", "clusterresolver.fixture.port=0", "-D", "clusterresolver.fixture.gpus=many");
    assertThat(run.err).contains("3 problems", "clusterresolver.fixture.hosts is required",
        "CLUSTERRESOLVER_FIXTURE_HOSTS", "clusterresolver.fixture.port", "clusterresolver.fixture.gpus");
  }

  @Test
  void secretValuesNeverAppearInErrors() {
    CliRun run = fails(ExitCodes.USAGE, ENV, "resolve", "-D", "clusterresolver.fixture.hosts=h1",
        "-D", "clusterresolver.fixture.api-token=s3cr3t-value", "-D", "clusterresolver.fixture.port=x");
    assertThat(run.err).doesNotContain("s3cr3t-value");
  }

  @Test
  void resolutionFailureExitsWithThree() {
    CliRun run = fails(ExitCodes.RESOLUTION_FAILURE, ENV, "resolve", "-D", "clusterresolver.fixture.hosts=h1",
        "-D", "clusterresolver.fixture.fail=true");
    assertThat(run.err).contains("fixture", "HTTP 503", "clusterresolver.fixture.hosts");
  }

  @Test
  void usageErrorsExitWithTwo() {
    assertThat(fails(ExitCodes.USAGE, ENV, "resolve", "--format", "yaml").err).contains("yaml", "tf-config");
    assertThat(fails(ExitCodes.USAGE, ENV, "resolve", "--no-such-option").err).contains("--no-such-option");
    assertThat(fails(ExitCodes.USAGE, ENV, "reslove").err).contains("reslove");
    assertThat(fails(ExitCodes.USAGE, ENV).err).contains("Missing command");
    assertThat(fails(ExitCodes.USAGE, ENV, "resolve", "--task-id", "one").err).contains("one");
  }

  @Test
  void argumentsStartingWithAtAreValuesNotFiles() throws IOException {
    // Taken as a value (a job name), not as a file of arguments to read.
    CliRun run = fails(ExitCodes.USAGE, ENV, "resolve", "-D", "clusterresolver.fixture.hosts=h1",
        "--task-type", "@chief", "--task-id", "0");
    assertThat(run.err).contains("'@chief'");
  }

  @Test
  void missingConfigFileIsAUsageError(@TempDir Path dir) {
    CliRun run = fails(ExitCodes.USAGE, ENV, "resolve", "--config", dir.resolve("nope.properties").toString());
    assertThat(run.err).contains("nope.properties", "no such file");
  }
}
