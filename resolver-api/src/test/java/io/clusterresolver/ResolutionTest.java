package io.clusterresolver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ResolutionTest {

  private static final ClusterSpec SPEC = ClusterSpec.of(Map.of("worker", List.of("a:1", "b:2")));

  @Test
  void theDefaultComposesTheGettersOfAThirdPartyResolver() {
    AtomicInteger specs = new AtomicInteger();
    ClusterResolver thirdParty = new ClusterResolver() {
      @Override
      public ClusterSpec clusterSpec() {
        specs.incrementAndGet();
        return SPEC;
      }

      @Override
      public String master(String taskType, Integer taskId, String rpcLayer) {
        return "";
      }

      @Override
      public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
        return Map.of("GPU", 2);
      }

      @Override
      public Optional<String> taskType() {
        return Optional.of("worker");
      }

      @Override
      public OptionalInt taskId() {
        return OptionalInt.of(1);
      }

      @Override
      public Optional<String> rpcLayer() {
        return Optional.of("grpc");
      }
    };
    Resolution r = thirdParty.resolve();
    assertThat(specs.get()).isEqualTo(1);
    assertThat(r.clusterSpec()).isEqualTo(SPEC);
    assertThat(r.taskType()).contains("worker");
    assertThat(r.taskId()).hasValue(1);
    assertThat(r.accelerators()).isEqualTo(Map.of("GPU", 2));
    assertThat(r.master()).isEqualTo("grpc://b:2");
    assertThat(r.environment()).isEmpty();
    assertThat(r.visibleDevices()).isEmpty();
  }

  @Test
  void masterIsEmptyForAnUnknownOrMissingTaskAndHasNoSchemeWithoutRpcLayer() {
    assertThat(Resolution.builder(SPEC).build().master()).isEmpty();
    assertThat(Resolution.builder(SPEC).taskType("worker").taskId(5).build().master()).isEmpty();
    assertThat(Resolution.builder(SPEC).taskType("worker").taskId(0).rpcLayer("").build().master()).isEqualTo("a:1");
  }

  @Test
  void isAnImmutableValue() {
    Resolution r = Resolution.builder(SPEC).taskType("worker").taskId(0).accelerators(Map.of("GPU", 1)).build();
    assertThat(r.toBuilder().build()).isEqualTo(r).hasSameHashCodeAs(r);
    assertThat(r.toBuilder().taskId(1).build()).isNotEqualTo(r);
  }
}
