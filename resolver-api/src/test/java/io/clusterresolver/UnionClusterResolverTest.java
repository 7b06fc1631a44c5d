package io.clusterresolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class UnionClusterResolverTest {

  private static SimpleClusterResolver simple(Map<String, ?> jobs) {
    return SimpleClusterResolver.of(ClusterSpec.of(jobs));
  }

  @Test
  void listJobsConcatenateInArgumentOrder() {
    UnionClusterResolver union = UnionClusterResolver.of(
        simple(Map.of("worker", List.of("a:1", "b:1"))),
        simple(Map.of("worker", List.of("c:1"), "ps", List.of("p:1"))),
        simple(Map.of("worker", List.of("d:1"))));
    assertThat(union.clusterSpec().asMap()).isEqualTo(Map.of(
        "worker", List.of("a:1", "b:1", "c:1", "d:1"), "ps", List.of("p:1")));
  }

  @Test
  void anyMapFormSwitchesTheJobToMergingByIndex() {
    UnionClusterResolver union = UnionClusterResolver.of(
        simple(Map.of("worker", Map.of(5, "w5:1"))),
        simple(Map.of("worker", List.of("w0:1", "w1:1"))));
    assertThat(union.clusterSpec().asMap().get("worker"))
        .isEqualTo(new TreeMap<>(Map.of(0, "w0:1", 1, "w1:1", 5, "w5:1")));
    UnionClusterResolver emptyFirst = UnionClusterResolver.of(
        simple(Map.of("worker", List.of())), simple(Map.of("worker", List.of("a:1", "b:1"))));
    assertThat(emptyFirst.clusterSpec().asMap().get("worker")).isEqualTo(List.of("a:1", "b:1"));
  }

  @Test
  void anIndexGivenTwiceIsAnError() {
    UnionClusterResolver union = UnionClusterResolver.of(
        simple(Map.of("worker", Map.of(7, "x:1", 9, "y:1"))),
        simple(Map.of("worker", Map.of(3, "a:1", 7, "b:1"))));
    assertThatThrownBy(union::clusterSpec).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("7").hasMessageContaining("'worker'");
    assertThatThrownBy(() -> union.master("worker", 3, null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void eachMemberIsAskedOncePerClusterSpec() { // D5
    AtomicInteger calls = new AtomicInteger();
    ClusterResolver counting = new ForwardingResolver(simple(Map.of("w", List.of("a:1")))) {
      @Override
      public ClusterSpec clusterSpec() {
        calls.incrementAndGet();
        return super.clusterSpec();
      }
    };
    UnionClusterResolver union = UnionClusterResolver.of(counting, simple(Map.of("w", List.of("b:1"))));
    union.clusterSpec();
    assertThat(calls).hasValue(1);
    union.master("w", 1, null);
    assertThat(calls).hasValue(2);
  }

  @Test
  void attributesComeFromTheFirstMemberUnlessOverridden() {
    SimpleClusterResolver first = SimpleClusterResolver.builder(ClusterSpec.of(Map.of("w", List.of("a:1"))))
        .master("first:1").taskType("w").taskId(0).rpcLayer("grpc").environment("cloud")
        .numAccelerators(Map.of("GPU", 1)).build();
    UnionClusterResolver plain = UnionClusterResolver.of(first, simple(Map.of("w", List.of("b:1"))));
    assertThat(plain.taskType()).contains("w");
    assertThat(plain.taskId()).isEqualTo(OptionalInt.of(0));
    assertThat(plain.rpcLayer()).contains("grpc");
    assertThat(plain.environment()).isEqualTo("cloud");
    assertThat(plain.numAccelerators()).isEqualTo(Map.of("GPU", 1));
    assertThat(plain.master()).isEqualTo("grpc://first:1");

    UnionClusterResolver overridden = UnionClusterResolver.builder().add(first)
        .taskType("").taskId(0).rpcLayer("http").build(); // D5: 0 and "" are honoured
    assertThat(overridden.taskType()).contains("");
    assertThat(overridden.taskId()).isEqualTo(OptionalInt.of(0));
    assertThat(overridden.rpcLayer()).contains("http");
    assertThat(overridden.master()).isEqualTo("http://first:1"); // D5: the union's own rpc layer
    assertThat(overridden.master("w", 0, null)).isEqualTo("http://a:1");
  }

  @Test
  void needsAtLeastOneMember() {
    assertThatThrownBy(UnionClusterResolver::of).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> UnionClusterResolver.of(simple(Map.of()), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1");
  }

  /** Delegates everything, so a test can observe one call. */
  private static class ForwardingResolver implements ClusterResolver {
    private final ClusterResolver delegate;

    ForwardingResolver(ClusterResolver delegate) {
      this.delegate = delegate;
    }

    @Override
    public ClusterSpec clusterSpec() {
      return delegate.clusterSpec();
    }

    @Override
    public String master(String taskType, Integer taskId, String rpcLayer) {
      return delegate.master(taskType, taskId, rpcLayer);
    }

    @Override
    public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
      return delegate.numAccelerators(taskType, taskId);
    }

    @Override
    public Optional<String> taskType() {
      return delegate.taskType();
    }

    @Override
    public OptionalInt taskId() {
      return delegate.taskId();
    }

    @Override
    public Optional<String> rpcLayer() {
      return delegate.rpcLayer();
    }
  }
}
