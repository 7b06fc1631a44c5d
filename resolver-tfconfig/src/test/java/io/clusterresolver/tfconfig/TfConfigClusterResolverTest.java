package io.clusterresolver.tfconfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TfConfigClusterResolverTest {

  private static final String PS_WORKER = "{\"cluster\": {\"ps\": [\"ps0:2222\", \"ps1:2222\"],"
      + " \"worker\": [\"w0:2222\", \"w1:2222\", \"w2:2222\"]}, \"task\": {\"type\": \"worker\", \"index\": 1},"
      + " \"rpc_layer\": \"grpc\"}";

  private static ClusterResolver resolver(Map<String, String> environment, Map<String, String> properties) {
    return ClusterResolvers.create("tfconfig", properties, environment);
  }

  private static ClusterResolver resolver(String tfConfig) {
    return resolver(Map.of("TF_CONFIG", tfConfig), Map.of());
  }

  @Test
  void readsClusterTaskAndRpcLayer() {
    ClusterResolver resolver = resolver(PS_WORKER);
    assertThat(resolver.clusterSpec()).isEqualTo(ClusterSpec.of(Map.of(
        "ps", List.of("ps0:2222", "ps1:2222"), "worker", List.of("w0:2222", "w1:2222", "w2:2222"))));
    assertThat(resolver.taskType()).contains("worker");
    assertThat(resolver.taskId()).isEqualTo(OptionalInt.of(1));
    assertThat(resolver.rpcLayer()).contains("grpc");
    assertThat(resolver.master()).isEqualTo("grpc://w1:2222");
    assertThat(resolver.master("ps", 0, "http")).isEqualTo("http://ps0:2222");
    assertThat(resolver.master("ps", 0, "")).isEqualTo("ps0:2222");
    assertThat(resolver.environment()).isEmpty();
  }

  @Test
  void aValueOverOneMibIsAConfigurationErrorNamingTheVariableAndTheLimit() {
    String padding = " ".repeat(1024 * 1024); // JSON allows any whitespace: valid, only too long
    ClusterResolver resolver = resolver(PS_WORKER + padding);
    assertThatThrownBy(resolver::clusterSpec)
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("TF_CONFIG")
        .hasMessageContaining("limit of 1 MiB (1048576 characters)");
    // just under the limit still reads
    assertThat(resolver(PS_WORKER + padding.substring(PS_WORKER.length())).clusterSpec().numTasks("worker"))
        .isEqualTo(3);
  }

  @Test
  void propertiesOverrideTheFile() {
    ClusterResolver resolver = resolver(Map.of("TF_CONFIG", PS_WORKER), Map.of(
        "clusterresolver.tfconfig.task-type", "ps",
        "clusterresolver.tfconfig.task-id", "0",
        "clusterresolver.tfconfig.rpc-layer", "http",
        "clusterresolver.tfconfig.environment", "google"));
    assertThat(resolver.master()).isEqualTo("http://ps0:2222");
    assertThat(resolver.taskType()).contains("ps");
    assertThat(resolver.taskId()).isEqualTo(OptionalInt.of(0));
    assertThat(resolver.environment()).isEqualTo("google");
  }

  @Test
  void rereadsTheVariableOnEveryCall() {
    Map<String, String> environment = new HashMap<>(Map.of("TF_CONFIG", PS_WORKER));
    ClusterResolver resolver = resolver(environment, Map.of());
    assertThat(resolver.master()).isEqualTo("grpc://w1:2222");
    environment.put("TF_CONFIG", "{\"cluster\": {\"worker\": [\"a:1\", \"b:1\"]}, \"task\": {\"type\": \"worker\", \"index\": 0}}");
    assertThat(resolver.master()).isEqualTo("a:1");
    assertThat(resolver.clusterSpec().numTasks("worker")).isEqualTo(2);
    environment.remove("TF_CONFIG");
    assertThat(resolver.clusterSpec().isEmpty()).isTrue();
    assertThat(resolver.taskType()).isEmpty();
  }

  @Test
  void sessionMasterIsVerbatimEvenWhenEmpty() {
    assertThat(resolver("{\"cluster\": {\"worker\": [\"a:1\", \"b:1\"]}, \"session_master\": \"sm:1\"}")
        .master("worker", 1, "grpc")).isEqualTo("sm:1");
    assertThat(resolver("{\"cluster\": {\"worker\": [\"a:1\", \"b:1\"]}, \"session_master\": \"\","
        + " \"task\": {\"type\": \"worker\", \"index\": 1}}").master()).isEmpty();
  }

  @Test
  void masterIsEmptyForAnEmptyClusterOrASingleTask() {
    assertThat(resolver("{}").master("worker", 1, "grpc")).isEmpty();
    assertThat(resolver("{\"cluster\": {\"worker\": [\"a:1\"]}, \"task\": {\"type\": \"worker\", \"index\": 0},"
        + " \"rpc_layer\": \"grpc\"}").master()).isEmpty();
    // one task, but at index 3: TensorFlow's job_tasks has four entries, so it is not "single"
    assertThat(resolver("{\"cluster\": {\"worker\": {\"3\": \"w3:1\"}}, \"task\": {\"type\": \"worker\", \"index\": 3}}")
        .master()).isEqualTo("w3:1");
  }

  @Test
  void emptyOrBlankTfConfigMeansUnset() {
    for (String blank : List.of("", "  \n ")) {
      ClusterResolver resolver = resolver(blank);
      assertThat(resolver.clusterSpec().isEmpty()).isTrue();
      assertThat(resolver.master()).isEmpty();
      assertThat(resolver.taskType()).isEmpty();
      assertThat(new TfConfigClusterResolverProvider()
          .isAvailable(ResolverContext.of(PropertySources.withEnvironment(Map.of(), Map.of("TF_CONFIG", blank)))))
          .isFalse();
    }
    assertThat(new TfConfigClusterResolverProvider()
        .isAvailable(ResolverContext.of(PropertySources.withEnvironment(Map.of(), Map.of("TF_CONFIG", "{}")))))
        .isTrue();
  }

  @Test
  void invalidJsonNamesTheVariableAndThePosition() {
    ClusterResolver resolver = resolver("{not json");
    assertThatThrownBy(resolver::clusterSpec)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TF_CONFIG")
        .hasMessageContaining("line 1, column 2");
    assertThatThrownBy(resolver::master).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> resolver("{\"cluster\": {}} trailing").clusterSpec())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TF_CONFIG");
    assertThatThrownBy(() -> resolver("{\"cluster\": {").clusterSpec())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 1, column 14")
        .hasMessageContaining("expected close marker for Object")
        .hasMessageNotContaining("Source:");
    // environment() does not read TF_CONFIG, as in TensorFlow
    assertThat(resolver.environment()).isEmpty();
  }

  @Test
  void sparseJobsNeedDecimalIntegerKeys() {
    assertThat(resolver("{\"cluster\": {\"worker\": {\"1\": \"w1:1\", \"3\": \"w3:1\"}}}").clusterSpec().asMap())
        .isEqualTo(Map.of("worker", new TreeMap<>(Map.of(1, "w1:1", 3, "w3:1"))));
    for (String key : List.of("1.7", "true", "a", " 1", "99999999999")) {
      assertThatThrownBy(() -> resolver("{\"cluster\": {\"worker\": {\"" + key + "\": \"w:1\"}}}").clusterSpec())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("worker").hasMessageContaining(key);
    }
  }

  @Test
  void malformedFieldsAreReportedWhenAskedFor() {
    ClusterResolver badIndex = resolver("{\"cluster\": {\"worker\": [\"a:1\", \"b:1\"]}, \"task\": {\"type\": \"worker\", \"index\": 1.9}}");
    assertThat(badIndex.clusterSpec().numTasks("worker")).isEqualTo(2);
    assertThatThrownBy(badIndex::taskId).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index");
    assertThatThrownBy(badIndex::master).isInstanceOf(IllegalArgumentException.class);
    assertThat(badIndex.master("worker", 0, null)).isEqualTo("a:1");
    assertThatThrownBy(() -> resolver("{\"cluster\": [\"a:1\"]}").clusterSpec())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cluster");
    assertThatThrownBy(() -> resolver("{\"cluster\": {\"worker\": [1]}}").clusterSpec())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("worker");
    assertThatThrownBy(() -> resolver("{\"task\": null}").taskType())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("task");
    assertThatThrownBy(() -> resolver("42").clusterSpec())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("JSON object");
  }

  @Test
  void masterWithoutOwnTaskNamesWhatIsMissing() {
    ClusterResolver noIndex = resolver("{\"cluster\": {\"worker\": [\"a:1\", \"b:1\"]}, \"task\": {\"type\": \"worker\"}}");
    assertThatThrownBy(noIndex::master).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("worker").hasMessageContaining("task-id");
    ClusterResolver noTask = resolver("{\"cluster\": {\"worker\": [\"a:1\", \"b:1\"]}}");
    assertThatThrownBy(noTask::master).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task-type");
    assertThatThrownBy(() -> noTask.master("chief", 0, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("chief");
  }

  @Test
  void acceleratorsOfOtherTasksAreUnknown() {
    Map<String, String> environment = Map.of("TF_CONFIG", PS_WORKER, "CUDA_VISIBLE_DEVICES", "0,1", "PATH", "");
    ClusterResolver resolver = resolver(environment, Map.of());
    assertThat(resolver.numAccelerators()).isEqualTo(Map.of("GPU", 2));
    assertThat(resolver.numAccelerators("worker", 1)).isEqualTo(Map.of("GPU", 2));
    assertThat(resolver.numAccelerators("ps", 0)).isEmpty();
    assertThat(resolver(Map.of("TF_CONFIG", PS_WORKER, "PATH", ""), Map.of()).numAccelerators()).isEmpty();
  }

  @Test
  void misspelledPropertyIsAnErrorWithASuggestion() {
    assertThatThrownBy(() -> resolver(Map.of("TF_CONFIG", PS_WORKER), Map.of("clusterresolver.tfconfig.task-idx", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("did you mean clusterresolver.tfconfig.task-id");
    assertThatThrownBy(() -> resolver(Map.of("TF_CONFIG", PS_WORKER), Map.of("clusterresolver.tfconfig.task-id", "-1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clusterresolver.tfconfig.task-id");
  }

  @Test
  void providerIsFoundWithServiceLoaderAboveLocal() {
    assertThat(ClusterResolvers.provider("tfconfig")).isInstanceOf(TfConfigClusterResolverProvider.class);
    PropertySources sources = PropertySources.withEnvironment(Map.of(), Map.of("TF_CONFIG", PS_WORKER));
    assertThat(ClusterResolvers.detectProvider(ResolverContext.of(sources)).name()).isEqualTo("tfconfig");
    PropertySources none = PropertySources.withEnvironment(Map.of(), Map.of());
    assertThat(ClusterResolvers.detectProvider(ResolverContext.of(none)).name()).isEqualTo("local");
  }
}
