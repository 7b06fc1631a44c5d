package io.clusterresolver.kubernetes;

import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.testkit.Fault;
import io.clusterresolver.testkit.ProviderContractTest;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The provider contract (TCK) against a simulated API server with the real fabric8 client. */
class KubernetesContractTest extends ProviderContractTest {

  static SimulatedKubernetes k8s;
  static KubernetesTestSupport support;
  private String self;

  @BeforeAll
  static void start() {
    k8s = SimulatedKubernetes.start();
    support = new KubernetesTestSupport(k8s, "ml", "trainer");
  }

  @AfterAll
  static void stop() {
    k8s.close();
  }

  /** Pod {@code i}: bare (no controller), created {@code i} seconds after the first, so creation order is i. */
  static String podName(int i) {
    return "trainer-" + Integer.toHexString(0x10000 + i * 7919);
  }

  @Override
  protected ClusterResolverProvider provider() {
    return new KubernetesClusterResolverProvider();
  }

  @Override
  protected void setMembers(int n) {
    List<SimulatedPod> pods = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pods.add(SimulatedPod.builder("ml", podName(i)).label("app", "trainer")
          .created(Instant.parse("2025-01-01T00:00:00Z").plusSeconds(i))
          .podIps("10.1." + (i / 250) + "." + (i % 250 + 1)).build());
    }
    k8s.clear().addAll(pods);
  }

  /** An 8 s deadline, so that a persistently slow API ends in a typed error within {@link #faultBound()}. */
  @Override
  protected Map<String, String> properties(Map<String, String> extra) {
    Map<String, String> p = new java.util.LinkedHashMap<>(support.properties(k8s, Map.of()));
    p.put("clusterresolver.kubernetes.timeout", "8s");
    p.putAll(extra);
    return p;
  }

  /** The deadline plus room for the first list of a cold JVM on a busy machine. */
  @Override
  protected java.time.Duration faultBound() {
    return java.time.Duration.ofSeconds(20);
  }

  @Override
  protected Map<String, String> environment() {
    return self == null ? Map.of() : Map.of("POD_NAME", self);
  }

  /** The pod IPs as {@link #setMembers} gives them, in creation order, at the default port 8888. */
  @Override
  protected List<String> expectedAddresses(int n) {
    return java.util.stream.IntStream.range(0, n).mapToObj(i -> "10.1." + (i / 250) + "." + (i % 250 + 1) + ":8888")
        .toList();
  }

  @Override
  protected void identifyAs(int index) {
    self = index < 0 ? null : podName(index);
  }

  @Override
  protected void failPersistently() {
    k8s.inject(new Fault(Fault.Kind.SERVER_ERROR, 0, true, java.time.Duration.ZERO));
  }

  @Override
  protected void heal() {
    k8s.clearFaults();
  }

  @Override
  protected Collection<String> extraSecrets() {
    return List.of(support.token);
  }

  @Override
  protected boolean inject(Fault fault) {
    return k8s.inject(fault);
  }

  /** 1,001 pods at 500 a page: three list pages. */
  @Override
  protected int pagedMemberCount() {
    return 1001;
  }

  @Override
  protected boolean retriesTransientFaults() {
    return true;
  }
}
