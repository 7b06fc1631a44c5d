package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.SimulatedKubernetes;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kubernetes provider against an endpoint that is not the API server (issue 20, attacks 4, 6 and
 * 7): an answer that does not end, a redirect to another host, a 200 that is not a list.
 */
class KubernetesHostileEndpointTest {

  SimulatedKubernetes k8s;
  KubernetesTestSupport support;

  @BeforeEach
  void start() {
    k8s = SimulatedKubernetes.start();
    support = new KubernetesTestSupport(k8s, "training", "resolver");
  }

  @AfterEach
  void stop() {
    k8s.close();
  }

  private ClusterResolverException resolveAgainst(HostileEndpoint api, Map<String, String> extra) {
    Map<String, String> p = new java.util.LinkedHashMap<>(support.properties(k8s, extra));
    p.put("clusterresolver.kubernetes.endpoint", api.uri().toString());
    return catchThrowableOfType(() -> ClusterResolvers.create("kubernetes", p, Map.of()).resolve(),
        ClusterResolverException.class);
  }

  @Test
  void anAnswerThatDoesNotEndStopsAtTheSizeLimitNamingTheEndpointAndTheLimit() {
    try (HostileEndpoint api = HostileEndpoint.endless("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[",
        "{\"metadata\":{\"name\":\"p\"}},", 64L << 20)) {
      ClusterResolverException e = resolveAgainst(api, Map.of("clusterresolver.kubernetes.max-answer-mib", "1"));

      assertThat(e).isNotNull();
      assertThat(e.getMessage()).contains(api.uri().toString()).contains("larger than the limit of 1 MiB")
          .contains("clusterresolver.kubernetes.max-answer-mib");
      assertThat(api.bytesSent()).as("the client stopped reading near the limit").isLessThan(16L << 20);
    }
  }

  @Test
  void aRedirectToAnotherHostIsNotFollowedAndTheTokenStaysHome() {
    try (HostileEndpoint elsewhere = HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"),
        "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[]}");
        HostileEndpoint api = HostileEndpoint.redirectTo(elsewhere.uri())) {
      ClusterResolverException e = resolveAgainst(api, Map.of());

      assertThat(elsewhere.requestsWithCredentials()).as("requests to the other host with our token").isZero();
      assertThat(api.requestsWithCredentials()).as("the API endpoint itself was asked").isPositive();
      assertThat(e).as("a redirect is an error, not the other host's cluster").isNotNull();
      assertThat(e.getMessage()).contains("redirect").contains("HTTP 302").contains("clusterresolver.kubernetes.endpoint");
    }
  }

  @Test
  void aSuccessfulAnswerThatIsNotAListIsAnErrorNotAnEmptyCluster() {
    try (HostileEndpoint api = HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"),
        "{\"message\": \"Welcome to the proxy\"}")) {
      ClusterResolverException e = resolveAgainst(api, Map.of());

      assertThat(e).as("not an empty cluster").isNotNull();
      assertThat(e.getMessage()).contains("not a Kubernetes API answer").contains("clusterresolver.kubernetes.endpoint");
      assertThat(e.isRetryable()).isFalse();
    }
  }
}
