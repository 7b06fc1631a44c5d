package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import io.clusterresolver.testkit.Together;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Processes of one host share one listing of the pods, ordinals and named ports included. */
class KubernetesSharingTest {

  private SimulatedKubernetes k8s;
  private KubernetesTestSupport support;

  @BeforeEach
  void start() {
    k8s = SimulatedKubernetes.start();
    support = new KubernetesTestSupport(k8s, "ml", "trainer");
  }

  @AfterEach
  void stop() {
    k8s.close();
  }

  @Test
  void twoResolversOnOneHostShareOneListingAndAnotherSelectorListsForItself(@TempDir Path dir) throws Exception {
    Instant t0 = Instant.parse("2025-03-01T08:00:00Z");
    Map<Integer, String> expected = new TreeMap<>();
    for (int i : new int[] {0, 1, 2, 3}) {
      // pod 2 not ready: a gap; each pod's named port is its own
      k8s.add(SimulatedPod.builder("ml", "trainer-" + i).statefulSet("trainer", i).label("app", "trainer")
          .created(t0.plusSeconds(i)).podIps("10.6.0." + (i + 1)).port("grpc", 7000 + i).ready(i != 2).build());
      if (i != 2) {
        expected.put(i, "10.6.0." + (i + 1) + ":" + (7000 + i));
      }
    }
    k8s.latency(Duration.ofMillis(500));
    k8s.resetCounts();
    Map<String, String> sharing = Map.of("clusterresolver.kubernetes.port-name", "grpc",
        "clusterresolver.kubernetes.shared-listing-dir", dir.toString());
    List<Callable<ClusterSpec>> processes = List.of(
        ClusterResolvers.create("kubernetes", support.properties(k8s, sharing), Map.of("POD_NAME", "trainer-0"))
            ::clusterSpec,
        ClusterResolvers.create("kubernetes", support.properties(k8s, sharing), Map.of("POD_NAME", "trainer-3"))
            ::clusterSpec);

    List<ClusterSpec> specs = Together.call(processes, Duration.ofSeconds(60));

    assertThat(specs).allSatisfy(spec -> assertThat(spec.asMap()).isEqualTo(Map.of("worker", expected)));
    assertThat(k8s.callCount(SimulatedKubernetes.LIST_PODS)).as("one listing for both processes").isEqualTo(1);

    // Another selector is another query: never answered by this listing.
    Map<String, String> other = new java.util.HashMap<>(sharing);
    other.put("clusterresolver.kubernetes.selector", "app=trainer,role!=ps");
    assertThat(ClusterResolvers.create("kubernetes", support.properties(k8s, other), Map.of()).clusterSpec().asMap())
        .isEqualTo(Map.of("worker", expected));
    assertThat(k8s.callCount(SimulatedKubernetes.LIST_PODS)).isEqualTo(2);
  }
}
