package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The command over the providers it ships with: {@code tfconfig} and {@code local}. */
class RealProvidersTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String TF_CONFIG = "{\"cluster\": {\"chief\": [\"c0:2222\"],"
      + " \"worker\": [\"w0:2222\", \"w1:2222\", \"w1:2223\"], \"ps\": {\"1\": \"p1:2222\"}},"
      + " \"task\": {\"type\": \"worker\", \"index\": 1}, \"rpc_layer\": \"grpc\"}";

  private static CliRun ok(Map<String, String> env, String... args) {
    CliRun run = CliRun.run(env, args);
    assertThat(run.code).as(run.toString()).isZero();
    assertThat(run.err).as(run.toString()).isEmpty();
    return run;
  }

  private static CliRun usageError(Map<String, String> env, String... args) {
    CliRun run = CliRun.run(env, args);
    assertThat(run.code).as(run.toString()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.out).as(run.toString()).isEmpty();
    return run;
  }

  @Test
  void offCloudResolveIsTheLocalHost() throws IOException {
    JsonNode root = JSON.readTree(ok(Map.of("HOSTNAME", "node-a"), "resolve").out);
    assertThat(root.at("/cluster/worker/0").asText()).isEqualTo("node-a:8888");
    assertThat(root.at("/cluster").size()).isEqualTo(1);
    assertThat(root.at("/task/type").asText()).isEqualTo("worker");
    assertThat(root.at("/task/index").asInt()).isZero();
    assertThat(ok(Map.of(), "detect").out.trim()).isEqualTo("local");
  }

  @Test
  void tfConfigIsDetectedAndPrintedInEveryFormat() throws IOException {
    Map<String, String> env = Map.of("TF_CONFIG", TF_CONFIG);
    assertThat(ok(env, "detect").out.trim()).isEqualTo("tfconfig");

    JsonNode json = JSON.readTree(ok(env, "resolve").out);
    assertThat(json.at("/cluster/worker/2").asText()).isEqualTo("w1:2223");
    assertThat(json.at("/cluster/ps/1").asText()).isEqualTo("p1:2222");
    assertThat(json.at("/task/type").asText()).isEqualTo("worker");
    assertThat(json.at("/task/index").asInt()).isEqualTo(1);
    assertThat(json.at("/rpc_layer").asText()).isEqualTo("grpc");

    // tf-config round trip: what we print reads back as the same cluster and task.
    JsonNode written = JSON.readTree(ok(env, "resolve", "--format", "tf-config").out);
    assertThat(written.get("cluster")).isEqualTo(JSON.readTree(TF_CONFIG).get("cluster"));
    assertThat(written.get("task")).isEqualTo(JSON.readTree(TF_CONFIG).get("task"));
    JsonNode again = JSON.readTree(ok(Map.of("TF_CONFIG", written.toString()), "resolve").out);
    assertThat(again).isEqualTo(json);

    // Ranks: chief, then ps, then worker (by name); worker 1 is the fourth task.
    List<String> env1 = ok(env, "resolve", "--format", "env").out.lines().toList();
    assertThat(env1).contains("MASTER_ADDR=c0", "MASTER_PORT=2222", "WORLD_SIZE=5", "RANK=3");

    assertThat(ok(env, "resolve", "--format", "hostfile").out).isEqualTo("c0\np1\nw0\nw1 slots=2\n");
  }

  @Test
  void taskOptionsOverrideTheTaskInTfConfig() throws IOException {
    JsonNode root = JSON.readTree(ok(Map.of("TF_CONFIG", TF_CONFIG), "resolve",
        "--task-type", "chief", "--task-id", "0").out);
    assertThat(root.at("/task/type").asText()).isEqualTo("chief");
    assertThat(root.at("/task/index").asInt()).isZero();
  }

  @Test
  void malformedTfConfigIsAUsageErrorNamingTheVariable() {
    CliRun run = usageError(Map.of("TF_CONFIG", "{\"cluster\": {\"worker\": [\"w0:1\"]"), "resolve");
    assertThat(run.err).contains("TF_CONFIG");
  }

  @Test
  void misspelledTfConfigPropertySuggestsTheKey() {
    CliRun run = usageError(Map.of("TF_CONFIG", TF_CONFIG), "resolve",
        "-D", "clusterresolver.tfconfig.rpc-layr=grpc");
    assertThat(run.err).contains("clusterresolver.tfconfig.rpc-layr", "clusterresolver.tfconfig.rpc-layer");
  }

  @Test
  void negativeLocalPortIsAUsageError() {
    CliRun run = usageError(Map.of(), "resolve", "--provider", "local", "-D", "clusterresolver.local.port=-1");
    assertThat(run.err).contains("clusterresolver.local.port", "'-1'", "1 and 65535");
    CliRun env = usageError(Map.of("CLUSTERRESOLVER_LOCAL_PORT", "-80"), "resolve");
    assertThat(env.err).contains("CLUSTERRESOLVER_LOCAL_PORT", "-80");
  }

  @Test
  void unknownProviderListsTheShippedOnes() {
    CliRun run = usageError(Map.of(), "resolve", "--provider", "no-such-provider");
    assertThat(run.err).contains("'no-such-provider'", "local", "tfconfig");
  }

  @Test
  void providersShowsTheShippedProviders() {
    CliRun run = ok(Map.of("TF_CONFIG", TF_CONFIG), "providers");
    assertThat(run.out).contains("tfconfig  priority 200  applies here", "clusterresolver.tfconfig.rpc-layer",
        "local  priority lowest (-2147483648)  applies here", "clusterresolver.local.port");
  }
}
