package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who is in the cluster, in which order, at which address: expectations are computed here from the
 * simulated pods' own fields (phase, Ready condition, deletion, labels, IPs), never by the provider.
 */
class KubernetesProviderTest {

  static SimulatedKubernetes k8s;
  static KubernetesTestSupport support;
  static final Instant T0 = Instant.parse("2025-03-01T08:00:00Z");

  @BeforeAll
  static void start() {
    k8s = SimulatedKubernetes.start();
    support = new KubernetesTestSupport(k8s, "ml", "trainer");
  }

  @AfterAll
  static void stop() {
    k8s.close();
  }

  @BeforeEach
  void reset() {
    k8s.clear().clearFaults().resetCounts();
  }

  private static ClusterResolver resolver(Map<String, String> extra, Map<String, String> env) {
    return ClusterResolvers.create("kubernetes", support.properties(k8s, extra), env);
  }

  private static ClusterResolver resolver(Map<String, String> extra) {
    return resolver(extra, Map.of());
  }

  /** A member by the rule, written independently: Running, Ready condition True, no deletionTimestamp. */
  static boolean isMember(SimulatedPod p) {
    return p.phase().equals("Running") && p.ready() && p.deletionTimestamp() == null && !p.podIps().isEmpty();
  }

  @Test
  void everyPageOfTheNamespaceMatchingTheSelectorReadyPodsOnlyInCreationOrder() {
    List<SimulatedPod> pods = new ArrayList<>();
    for (int i = 0; i < 1200; i++) {
      SimulatedPod.Builder b = SimulatedPod.builder("ml", String.format("t-%05d", (i * 7) % 1200)).label("app", "trainer")
          .created(T0.plusSeconds(1200 - i)).podIps("10.2." + (i / 200) + "." + (i % 200 + 1)).hostIp("192.168.9.9");
      if (i % 50 == 3) {
        b.ready(false);
      } else if (i % 50 == 7) {
        b.terminating(T0.plusSeconds(5000));
      } else if (i % 100 == 11) {
        b.phase("Pending").podIps();
      }
      pods.add(b.build());
    }
    pods.add(SimulatedPod.builder("other", "t-decoy").label("app", "trainer").podIps("10.66.0.1").build());
    pods.add(SimulatedPod.builder("ml", "web-decoy").label("app", "web").podIps("10.66.0.2").build());
    k8s.addAll(pods);

    ClusterSpec spec = resolver(Map.of()).clusterSpec();

    List<String> expected = pods.stream()
        .filter(p -> p.namespace().equals("ml") && "trainer".equals(p.labels().get("app")) && isMember(p))
        .sorted(Comparator.comparing(SimulatedPod::creationTimestamp).thenComparing(SimulatedPod::name))
        .map(p -> p.podIps().get(0) + ":8888").toList();
    assertThat(expected).hasSize(1200 - 24 - 24 - 12);
    assertThat(spec.jobs()).containsExactly("worker");
    assertThat(spec.jobTasks("worker")).containsExactlyElementsOf(expected);
    assertThat(k8s.listCalls()).isEqualTo(3);
    List<SimulatedKubernetes.RecordedRequest> lists = k8s.requests();
    assertThat(lists).allSatisfy(r -> {
      assertThat(r.path()).isEqualTo("/api/v1/namespaces/ml/pods");
      assertThat(r.query()).containsEntry("labelSelector", "app=trainer").containsEntry("limit", "500");
    });
    assertThat(lists.get(0).query()).doesNotContainKey("continue");
    assertThat(lists.get(1).query()).containsKey("continue");
    assertThat(spec.toString()).doesNotContain("192.168.9.9");
  }

  @Test
  void aStatefulSetsOrdinalIsTheTaskIndexSoAGapStaysAGap() {
    for (int i : new int[] {0, 1, 3, 4, 5}) {
      k8s.add(SimulatedPod.builder("ml", "trainer-" + i).statefulSet("trainer", i).label("app", "trainer")
          .created(T0.minusSeconds(i)).podIps("10.3.0." + (i + 1)).ready(i != 4).build());
    }
    Map<Integer, String> expected = new TreeMap<>();
    for (SimulatedPod p : k8s.pods()) {
      if (isMember(p)) {
        expected.put(Integer.parseInt(p.labels().get("apps.kubernetes.io/pod-index")), p.podIps().get(0) + ":8888");
      }
    }
    ClusterSpec spec = resolver(Map.of()).clusterSpec();
    assertThat(spec.asMap()).isEqualTo(Map.of("worker", expected));
    assertThat(spec.taskIndices("worker")).containsExactly(0, 1, 3, 5);
  }

  @Test
  void withoutThePodIndexLabelTheOrdinalIsTheNameSuffix() {
    for (int i : new int[] {10, 2, 0}) {
      k8s.add(SimulatedPod.builder("ml", "trainer-" + i).owner("StatefulSet", "trainer").label("app", "trainer")
          .created(T0.minusSeconds(i)).podIps("10.4.0." + (i + 1)).build());
    }
    ClusterSpec spec = resolver(Map.of()).clusterSpec();
    assertThat(spec.asMap()).isEqualTo(Map.of("worker", Map.of(0, "10.4.0.1:8888", 2, "10.4.0.3:8888",
        10, "10.4.0.11:8888")));
  }

  @Test
  void anIndexedJobsCompletionIndexIsTheTaskIndex() {
    String[] suffixes = {"x9k2p", "a1b2c", "zz0f1", "m3n4o"};
    for (int i = 0; i < 4; i++) {
      k8s.add(SimulatedPod.builder("ml", "train-" + i + "-" + suffixes[i]).indexedJob("train", i).label("app", "trainer")
          .created(T0.minusSeconds(10 * i)).podIps("10.5.0." + (20 - i)).phase(i == 2 ? "Failed" : "Running").build());
    }
    ClusterSpec spec = resolver(Map.of()).clusterSpec();
    assertThat(spec.asMap()).isEqualTo(Map.of("worker", Map.of(0, "10.5.0.20:8888", 1, "10.5.0.19:8888",
        3, "10.5.0.17:8888")));
  }

  @Test
  void podsOfSeveralControllersAreNumberedDenselyByOrdinalThenCreationTime() {
    k8s.add(SimulatedPod.builder("ml", "a-0").statefulSet("a", 0).label("app", "trainer").created(T0.plusSeconds(5))
        .podIps("10.6.0.1").build());
    k8s.add(SimulatedPod.builder("ml", "b-0").statefulSet("b", 0).label("app", "trainer").created(T0.plusSeconds(1))
        .podIps("10.6.0.2").build());
    k8s.add(SimulatedPod.builder("ml", "b-1").statefulSet("b", 1).label("app", "trainer").created(T0)
        .podIps("10.6.0.3").build());
    k8s.add(SimulatedPod.builder("ml", "loose").label("app", "trainer").created(T0.minusSeconds(100))
        .podIps("10.6.0.4").build());
    ClusterSpec spec = resolver(Map.of()).clusterSpec();
    // ordinal 0 (b-0 older than a-0), ordinal 1, then the pod without one
    assertThat(spec.jobTasks("worker")).containsExactly("10.6.0.2:8888", "10.6.0.1:8888", "10.6.0.3:8888",
        "10.6.0.4:8888");
  }

  @Test
  void twoRunningPodsWithOneCompletionIndexAreNumberedDenselyNeverTwiceTheSameTask() {
    k8s.add(SimulatedPod.builder("ml", "train-0-aaaaa").indexedJob("train", 0).label("app", "trainer")
        .created(T0).podIps("10.12.0.1").build());
    k8s.add(SimulatedPod.builder("ml", "train-1-bbbbb").indexedJob("train", 1).label("app", "trainer")
        .created(T0.plusSeconds(1)).podIps("10.12.0.2").build());
    k8s.add(SimulatedPod.builder("ml", "train-1-ccccc").indexedJob("train", 1).label("app", "trainer")
        .created(T0.plusSeconds(2)).podIps("10.12.0.3").build());
    ClusterSpec spec = resolver(Map.of()).clusterSpec();
    // index 0, then index 1 by creation time: three tasks, none lost, none sharing an index
    assertThat(spec.jobTasks("worker")).containsExactly("10.12.0.1:8888", "10.12.0.2:8888", "10.12.0.3:8888");
  }

  @Test
  void aJobLabelNumbersEachJobFromZeroInPodOrder() {
    k8s.add(SimulatedPod.builder("ml", "ps-0").statefulSet("ps", 0).label("app", "trainer").label("role", "ps")
        .podIps("10.7.0.1").build());
    for (int i = 0; i < 3; i++) {
      k8s.add(SimulatedPod.builder("ml", "worker-" + i).statefulSet("worker", i).label("app", "trainer")
          .label("role", "worker").podIps("10.7.1." + i).ready(i != 1).build());
    }
    k8s.add(SimulatedPod.builder("ml", "unlabelled").label("app", "trainer").podIps("10.7.9.9").build());
    ClusterSpec spec = resolver(Map.of("clusterresolver.kubernetes.job-label", "role")).clusterSpec();
    assertThat(spec.asMap()).isEqualTo(Map.of("ps", List.of("10.7.0.1:8888"),
        "worker", List.of("10.7.1.0:8888", "10.7.1.2:8888")));
  }

  @Test
  void jobCountsTakeConsecutivePodsInJobNameOrder() {
    for (int i = 0; i < 4; i++) {
      k8s.add(SimulatedPod.builder("ml", "p" + i).label("app", "trainer").created(T0.plusSeconds(i))
          .podIps("10.8.0." + i).build());
    }
    ClusterSpec spec = resolver(Map.of("clusterresolver.kubernetes.jobs", "worker:*,chief:1")).clusterSpec();
    assertThat(spec.asMap()).isEqualTo(Map.of("chief", List.of("10.8.0.0:8888"),
        "worker", List.of("10.8.0.1:8888", "10.8.0.2:8888", "10.8.0.3:8888")));
  }

  @Test
  void aNamedContainerPortAndIpv6PodIps() {
    k8s.add(SimulatedPod.builder("ml", "d-0").statefulSet("d", 0).label("app", "trainer")
        .podIps("10.9.0.1", "fd00:10:9::1").port("metrics", 9090).port("grpc", 2222).build());
    k8s.add(SimulatedPod.builder("ml", "d-1").statefulSet("d", 1).label("app", "trainer")
        .podIps("10.9.0.2", "fd00:10:9::2").port("grpc", 2223).build());
    k8s.add(SimulatedPod.builder("ml", "d-2").statefulSet("d", 2).label("app", "trainer")
        .podIps("10.9.0.3").port("grpc", 2224).build());
    k8s.add(SimulatedPod.builder("ml", "d-3").statefulSet("d", 3).label("app", "trainer")
        .podIps("10.9.0.4", "fd00:10:9::4").port("http", 80).build());
    assertThat(resolver(Map.of("clusterresolver.kubernetes.port-name", "grpc")).clusterSpec().asMap())
        .isEqualTo(Map.of("worker", List.of("10.9.0.1:2222", "10.9.0.2:2223", "10.9.0.3:2224")));
    assertThat(resolver(Map.of("clusterresolver.kubernetes.address", "ipv6", "clusterresolver.kubernetes.port", "7000"))
        .clusterSpec().asMap())
        .isEqualTo(Map.of("worker", Map.of(0, "[fd00:10:9::1]:7000", 1, "[fd00:10:9::2]:7000", 3, "[fd00:10:9::4]:7000")));
  }

  @Test
  void thisPodIsPodNameElseHostnameWithItsAccelerators() {
    k8s.add(SimulatedPod.builder("ml", "g-0").statefulSet("g", 0).label("app", "trainer").podIps("10.10.0.1")
        .limit("nvidia.com/gpu", "8").limit("cpu", "16").build());
    k8s.add(SimulatedPod.builder("ml", "g-1").statefulSet("g", 1).label("app", "trainer").podIps("10.10.0.2")
        .limit("amd.com/gpu", "2").build());
    k8s.add(SimulatedPod.builder("ml", "g-2").statefulSet("g", 2).label("app", "trainer").podIps("10.10.0.3")
        .limit("google.com/tpu", "4").build());
    Map<String, String> env = new LinkedHashMap<>();
    env.put("HOSTNAME", "g-0");
    env.put("POD_NAME", "g-1");
    Resolution r = resolver(Map.of(), env).resolve();
    assertThat(r.taskType()).contains("worker");
    assertThat(r.taskId()).isEqualTo(OptionalInt.of(1));
    assertThat(r.accelerators()).isEqualTo(Map.of("GPU", 2));
    assertThat(r.environment()).isEqualTo("kubernetes");
    assertThat(r.master()).isEqualTo("grpc://10.10.0.2:8888");

    ClusterResolver byHostname = resolver(Map.of(), Map.of("HOSTNAME", "g-0"));
    assertThat(byHostname.taskId()).isEqualTo(OptionalInt.of(0));
    assertThat(byHostname.numAccelerators()).isEqualTo(Map.of("GPU", 8));
    assertThat(byHostname.numAccelerators("worker", 2)).isEqualTo(Map.of("TPU", 4));
    assertThat(resolver(Map.of(), Map.of("HOSTNAME", "laptop")).taskId()).isEmpty();
  }

  @Test
  void anExpiredContinueTokenRestartsTheListingOnceNeverAPartialCluster() {
    for (int i = 0; i < 1100; i++) {
      k8s.add(SimulatedPod.builder("ml", String.format("e-%04d", i)).label("app", "trainer").created(T0.plusSeconds(i))
          .podIps("10.11." + (i / 250) + "." + (i % 250 + 1)).build());
    }
    k8s.expireNextContinueTokens(1);
    ClusterSpec spec = resolver(Map.of()).clusterSpec();
    assertThat(spec.numTasks("worker")).isEqualTo(1100);
    assertThat(spec.taskAddress("worker", 1099)).isEqualTo("10.11.4.100:8888");
    assertThat(k8s.listCalls()).isEqualTo(2 + 3);

    k8s.resetCounts().expireNextContinueTokens(2);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> resolver(Map.of()).clusterSpec())
        .isInstanceOf(io.clusterresolver.ClusterResolverException.class)
        .hasMessageContaining("kubernetes").hasMessageContaining("410").hasMessageContaining("expired");
  }
}
