package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverContext;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Credentials, permissions, namespaces, kubeconfig and configuration mistakes. */
class KubernetesAccessTest {

  static SimulatedKubernetes k8s;
  static KubernetesTestSupport support;

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
  void pods() {
    k8s.clear().clearFaults().resetCounts().allow("ml").allow("other");
    k8s.acceptTokens(Map.of(support.token, "system:serviceaccount:ml:trainer"));
    support.rotate(support.token);
    k8s.add(SimulatedPod.builder("ml", "w-0").label("app", "trainer").podIps("10.0.0.1").build());
    k8s.add(SimulatedPod.builder("other", "w-0").label("app", "trainer").podIps("10.0.1.1").build());
  }

  private static ClusterResolver resolver(Map<String, String> extra) {
    return ClusterResolvers.create("kubernetes", support.properties(k8s, extra), Map.of());
  }

  @Test
  void aRotatedTokenFileIsPickedUpWithoutANewResolver() {
    ClusterResolver resolver = resolver(Map.of());
    assertThat(resolver.clusterSpec().jobTasks("worker")).containsExactly("10.0.0.1:8888");
    String rotated = "eyJhbGciOiJSUzI1NiJ9.rotated-" + System.nanoTime();
    k8s.acceptTokens(Map.of(rotated, "system:serviceaccount:ml:trainer")); // the old token is now refused
    support.rotate(rotated);
    assertThat(resolver.clusterSpec().jobTasks("worker")).containsExactly("10.0.0.1:8888");
    List<SimulatedKubernetes.RecordedRequest> seen = k8s.requests();
    assertThat(seen).extracting(SimulatedKubernetes.RecordedRequest::bearerToken)
        .containsExactly(support.token, rotated);
  }

  @Test
  void forbiddenNamesTheVerbResourceAndNamespaceAndPrintsTheRbacToApply() {
    k8s.forbid("ml");
    Throwable thrown = catchThrowable(() -> resolver(Map.of()).clusterSpec());
    assertThat(thrown).isInstanceOf(ClusterResolverException.class).isNotInstanceOf(ConfigurationException.class);
    assertThat(thrown.getMessage())
        .contains("HTTP 403", "list", "pods", "namespace ml")
        .contains("kind: Role\n", "namespace: ml\n", "resources: [\"pods\"]", "verbs: [\"get\", \"list\"]")
        .contains("kind: RoleBinding\n", "- kind: ServiceAccount\n  name: trainer\n  namespace: ml\n")
        .contains("roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: cluster-resolver")
        .contains("Audit-Id) " + k8s.requests().get(k8s.requests().size() - 1).auditId())
        .doesNotContain(support.token);
  }

  @Test
  void aFailedPageNamesThePageTheStatusAndTheApiServersAuditId() {
    for (int i = 0; i < 600; i++) {
      k8s.add(SimulatedPod.builder("ml", String.format("p-%03d", i)).label("app", "trainer").podIps("10.3.2." + (i % 250))
          .build());
    }
    k8s.inject(new io.clusterresolver.testkit.Fault(io.clusterresolver.testkit.Fault.Kind.SERVER_ERROR, 2, true,
        java.time.Duration.ZERO));
    Throwable thrown = catchThrowable(() -> resolver(Map.of()).clusterSpec());
    List<SimulatedKubernetes.RecordedRequest> seen = k8s.requests();
    assertThat(thrown).isInstanceOf(ClusterResolverException.class);
    assertThat(thrown.getMessage()).contains("kubernetes", "list pods in namespace ml (page 2)", "HTTP 500",
        "InternalError", "request id " + seen.get(seen.size() - 1).auditId());
    assertThat(seen.size()).as("page 1, then page 2 tried by the client's retries").isGreaterThan(2);
  }

  @Test
  void aRefusedTokenIs401NamingTheTokenFileNeverTheToken() {
    k8s.acceptTokens(Map.of("someone-else", "system:serviceaccount:ml:other"));
    Throwable thrown = catchThrowable(() -> resolver(Map.of()).clusterSpec());
    assertThat(thrown).isInstanceOf(ClusterResolverException.class);
    assertThat(thrown.getMessage()).contains("HTTP 401", "clusterresolver.kubernetes.token-file", "namespace ml",
        "kind: RoleBinding").doesNotContain(support.token);
  }

  @Test
  void theNamespaceComesFromTheServiceAccountFileUnlessSet() {
    assertThat(resolver(Map.of()).clusterSpec().jobTasks("worker")).containsExactly("10.0.0.1:8888");
    assertThat(resolver(Map.of("clusterresolver.kubernetes.namespace", "other")).clusterSpec().jobTasks("worker"))
        .containsExactly("10.0.1.1:8888");
    assertThat(k8s.requests()).extracting(SimulatedKubernetes.RecordedRequest::path)
        .containsExactly("/api/v1/namespaces/ml/pods", "/api/v1/namespaces/other/pods");
  }

  @Test
  void aKubeconfigOutsideAPodWithItsContextsNamespaceAndToken(@TempDir Path dir) throws Exception {
    Path kubeconfig = support.kubeconfig(k8s, dir.resolve("config"), "other");
    ClusterResolver resolver = ClusterResolvers.create("kubernetes", Map.of(
        "clusterresolver.kubernetes.selector", "app=trainer"), Map.of("KUBECONFIG", kubeconfig.toString(),
        "HOME", dir.toString()));
    assertThat(resolver.clusterSpec().jobTasks("worker")).containsExactly("10.0.1.1:8888");
    assertThat(k8s.requests().get(0).bearerToken()).isEqualTo(support.token);
    assertThat(resolver.toString()).doesNotContain(support.token);
  }

  @Test
  void outsideAPodWithoutKubeconfigTheMessageSaysWhatToSet(@TempDir Path home) {
    assertThatThrownBy(() -> ClusterResolvers.create("kubernetes", Map.of("clusterresolver.kubernetes.selector", "a=b"),
        Map.of("HOME", home.toString())))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("KUBERNETES_SERVICE_HOST")
        .hasMessageContaining("clusterresolver.kubernetes.kubeconfig")
        .hasMessageContaining("clusterresolver.kubernetes.endpoint");
  }

  @Test
  void inAPodTheServiceHostAndPortAreTheEndpoint() {
    Map<String, String> env = Map.of("KUBERNETES_SERVICE_HOST", "fd00::1", "KUBERNETES_SERVICE_PORT", "6443");
    ClusterResolver resolver = ClusterResolvers.create("kubernetes", Map.of(
        "clusterresolver.kubernetes.selector", "a=b",
        "clusterresolver.kubernetes.token-file", support.serviceAccount.resolve("token").toString()), env);
    assertThat(resolver.toString()).contains("https://[fd00::1]:6443", "namespace ml").doesNotContain(support.token);
  }

  @Test
  void mistakesAreConfigurationErrorsNamingEveryKey() {
    Map<String, String> bad = new HashMap<>();
    bad.put("clusterresolver.kubernetes.job-label", "role");
    bad.put("clusterresolver.kubernetes.jobs", "chief:1,worker:*");
    bad.put("clusterresolver.kubernetes.port", "2222");
    bad.put("clusterresolver.kubernetes.port-name", "grpc");
    bad.put("clusterresolver.kubernetes.namespace", "Not_A_Namespace");
    bad.put("clusterresolver.kubernetes.token-file", "/no/such/token");
    assertThatThrownBy(() -> resolver(bad))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.kubernetes.job-label")
        .hasMessageContaining("clusterresolver.kubernetes.jobs")
        .hasMessageContaining("clusterresolver.kubernetes.port-name")
        .hasMessageContaining("clusterresolver.kubernetes.namespace: 'Not_A_Namespace'")
        .hasMessageContaining("clusterresolver.kubernetes.token-file: cannot read the token file /no/such/token");
    Map<String, String> noSelector = new HashMap<>(support.properties(k8s, Map.of()));
    noSelector.remove("clusterresolver.kubernetes.selector");
    assertThatThrownBy(() -> ClusterResolvers.create("kubernetes", noSelector, Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clusterresolver.kubernetes.selector");
  }

  @Test
  void aTokenFileThatDisappearsIsAConfigurationErrorAtTheNextResolve(@TempDir Path dir) throws Exception {
    Path token = dir.resolve("token");
    Files.writeString(token, support.token, StandardCharsets.UTF_8);
    ClusterResolver resolver = resolver(Map.of("clusterresolver.kubernetes.token-file", token.toString(),
        "clusterresolver.kubernetes.namespace", "ml"));
    assertThat(resolver.clusterSpec().numTasks("worker")).isEqualTo(1);
    Files.delete(token);
    assertThatThrownBy(resolver::clusterSpec).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.kubernetes.token-file").hasMessageContaining(token.toString());
  }

  @Test
  void detectedOnlyWhereKubernetesServiceHostIsSet() {
    KubernetesClusterResolverProvider provider = new KubernetesClusterResolverProvider();
    assertThat(provider.isAvailable(ResolverContext.of(PropertySources.of(Map.of(), Map.of(),
        Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1"), Map.of())))).isTrue();
    assertThat(provider.isAvailable(ResolverContext.of(PropertySources.of(Map.of(), Map.of(), Map.of(), Map.of()))))
        .isFalse();
    assertThat(provider.priority()).isGreaterThan(50).isLessThan(200);
  }
}
