package io.clusterresolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class SimpleClusterResolverTest {

  private static final ClusterSpec SPEC = ClusterSpec.of(Map.of(
      "ps", List.of("ps0:2222", "ps1:2222"), "worker", List.of("w0:2222", "w1:2222", "w2:2222")));

  @Test
  void defaults() {
    SimpleClusterResolver resolver = SimpleClusterResolver.of(SPEC);
    assertThat(resolver.clusterSpec()).isSameAs(SPEC);
    assertThat(resolver.master()).isEmpty();
    assertThat(resolver.taskType()).isEmpty();
    assertThat(resolver.taskId()).isEmpty();
    assertThat(resolver.rpcLayer()).isEmpty();
    assertThat(resolver.environment()).isEmpty();
    assertThat(resolver.numAccelerators()).isEmpty();
  }

  @Test
  void masterFollowsTensorFlow() { // K5
    SimpleClusterResolver resolver = SimpleClusterResolver.builder(SPEC)
        .master("grpc://master:1").taskType("ps").taskId(1).rpcLayer("grpc").build();
    assertThat(resolver.master()).isEqualTo("grpc://grpc://master:1"); // the master is used verbatim
    assertThat(resolver.master("worker", 0, null)).isEqualTo("grpc://w0:2222");
    assertThat(resolver.master("worker", 1, "")).isEqualTo("grpc://w1:2222"); // "" falls back, like `or`
    assertThat(resolver.master("worker", null, "http")).isEqualTo("http://grpc://master:1");
    assertThatThrownBy(() -> resolver.master("chief", 0, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chief");
    assertThatThrownBy(() -> resolver.master("worker", 9, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("9");
  }

  @Test
  void emptyMasterStaysEmptyWithAnRpcLayer() { // D6
    SimpleClusterResolver resolver = SimpleClusterResolver.builder(SPEC).rpcLayer("grpc").build();
    assertThat(resolver.master()).isEmpty();
    assertThat(resolver.master(null, null, "http")).isEmpty();
    assertThat(resolver.master("ps", 1, null)).isEqualTo("grpc://ps1:2222");
  }

  @Test
  void acceleratorsAreTheConfiguredOnesForAnyTask() {
    SimpleClusterResolver resolver = SimpleClusterResolver.builder(SPEC)
        .numAccelerators(Map.of("GPU", 2, "TPU", 8)).build();
    assertThat(resolver.numAccelerators()).isEqualTo(Map.of("GPU", 2, "TPU", 8));
    assertThat(resolver.numAccelerators("worker", 0)).isEqualTo(Map.of("GPU", 2, "TPU", 8));
    assertThatThrownBy(() -> SimpleClusterResolver.builder(SPEC).numAccelerators(Map.of("GPU", -1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("GPU");
  }

  @Test
  void attributesAndCopies() {
    SimpleClusterResolver resolver = SimpleClusterResolver.builder(SPEC)
        .taskType("ps").taskId(0).environment("google").rpcLayer("").build();
    assertThat(resolver.taskType()).contains("ps");
    assertThat(resolver.taskId()).isEqualTo(OptionalInt.of(0));
    assertThat(resolver.environment()).isEqualTo("google");
    assertThat(resolver.rpcLayer()).contains("");
    SimpleClusterResolver changed = resolver.toBuilder().taskType("worker").taskId(2).rpcLayer("http").build();
    assertThat(changed.master("worker", 2, null)).isEqualTo("http://w2:2222");
    assertThat(changed.environment()).isEqualTo("google");
    assertThat(resolver.taskType()).contains("ps");
  }

  @Test
  void rejectsMissingSpecOrMaster() {
    assertThatThrownBy(() -> SimpleClusterResolver.builder(null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cluster spec");
    assertThatThrownBy(() -> SimpleClusterResolver.builder(SPEC).master(null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("master");
  }
}
