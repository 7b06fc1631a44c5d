package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.HostileEndpointContract;
import io.clusterresolver.testkit.SimulatedKubernetes;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The kubernetes provider against an endpoint that is not the API server (issue 20, attacks 4, 6 and
 * 7): the kit's shapes (an answer that does not end, a 200 that is not a list), and a redirect to
 * another host.
 */
class KubernetesHostileEndpointTest extends HostileEndpointContract {

  SimulatedKubernetes k8s;
  KubernetesTestSupport support;

  KubernetesHostileEndpointTest() {
    super("clusterresolver.kubernetes", "list pods");
  }

  @BeforeEach
  void start() {
    k8s = SimulatedKubernetes.start();
    support = new KubernetesTestSupport(k8s, "training", "resolver");
  }

  @AfterEach
  void stop() {
    k8s.close();
  }

  @Override
  protected ClusterResolverException resolveAgainst(URI endpoint, Map<String, String> properties) {
    Map<String, String> extra = new LinkedHashMap<>();
    properties.forEach((k, v) -> extra.put("clusterresolver.kubernetes." + k, v));
    Map<String, String> p = new LinkedHashMap<>(support.properties(k8s, extra));
    p.put("clusterresolver.kubernetes.endpoint", endpoint.toString());
    return catchThrowableOfType(() -> ClusterResolvers.create("kubernetes", p, Map.of()).resolve(),
        ClusterResolverException.class);
  }

  @Override
  protected String endpointAsNamed(URI endpoint) {
    return endpoint.toString();
  }

  @Override
  protected String trickledAnswer() {
    return null;
  }

  @Override
  protected String[] endlessAnswer() {
    return new String[] {"{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":[", "{\"metadata\":{\"name\":\"p\"}},"};
  }

  @Override
  protected Map<String, String> endlessProperties() {
    return Map.of("max-answer-mib", "1");
  }

  @Override
  protected List<String> notTheApiErrorNames() {
    return List.of("not a Kubernetes API answer", "clusterresolver.kubernetes.endpoint");
  }

  @Test
  void aRedirectToAnotherHostIsNotFollowedAndTheTokenStaysHome() {
    try (HostileEndpoint elsewhere = HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"),
        "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"1\"},\"items\":[]}");
        HostileEndpoint api = HostileEndpoint.redirectTo(elsewhere.uri())) {
      ClusterResolverException e = resolveAgainst(api.uri(), Map.of());

      assertThat(elsewhere.requestsWithCredentials()).as("requests to the other host with our token").isZero();
      assertThat(api.requestsWithCredentials()).as("the API endpoint itself was asked").isPositive();
      assertThat(e).as("a redirect is an error, not the other host's cluster").isNotNull();
      assertThat(e.getMessage()).contains("redirect").contains("HTTP 302").contains("clusterresolver.kubernetes.endpoint");
    }
  }

  @Test
  void aPageUnreadableAfterItsContinueTokenFailsTheResolveThoughTheNextPageWasAskedFor() {
    // A readable pod, then the answer breaks: the next page is asked for as soon as the token is read (the same
    // broken answer here), and the resolve still fails as a whole, naming what was wrong.
    String broken = "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"5\","
        + "\"continue\":\"next-page\"},\"items\":[{\"metadata\":{\"name\":\"p-0\"},\"status\":{\"phase\":"
        + "\"Running\",\"podIP\":\"10.0.0.1\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}},"
        + "{\"metadata\":{\"na";
    try (HostileEndpoint api = HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"), broken)) {
      ClusterResolverException e = resolveAgainst(api.uri(), Map.of());

      assertThat(e).as("never the one readable pod as a cluster").isNotNull();
      assertThat(e.getMessage()).contains("list pods").contains("page 1").contains("malformed JSON");
      assertThat(api.requests().size()).as("page 1, and at most the next page asked for early").isBetween(1, 2);
    }
  }
}
