package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.SimulatedKubernetes;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Label selectors against the grammar of the Kubernetes documentation ("Labels and Selectors": syntax
 * and character set of keys and values, equality- and set-based requirements): its examples are
 * accepted, malformed selectors are exit 2 naming the key before any request (issue 20).
 */
class LabelSelectorSyntaxTest {

  @ParameterizedTest
  @ValueSource(strings = {
      // The documentation's examples.
      "environment = production", "tier != frontend", "environment=production,tier!=frontend",
      "environment in (production, qa)", "tier notin (frontend, backend)", "partition", "!partition",
      "partition,environment notin (qa)", "environment==production", "release=stable,environment in (production, qa)",
      // Keys with a prefix, a name and a value of 63 characters (the limit), an empty value.
      "app.kubernetes.io/name=mysql", "kubernetes.io/hostname", "example.com/my_app-1.x in (a, b.c, D_e)",
      "a", "key=", "key in (a,)", "gpu-count>3", "rank<-1",
      "k012345678901234567890123456789012345678901234567890123456789ab=v012345678901234567890123456789012345678901234567890123456789ab"})
  void theDocumentedFormsAreAccepted(String selector) {
    assertThat(LabelSelectorSyntax.problem(selector)).as(selector).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "app=trainer,", ",app=trainer", "app=trainer,,role", "=trainer", "role in (worker", "role in ()",
      "role in worker", "role notin", "-app=trainer", "app-=trainer", "a/b/c=x", "Example.com/name=x",
      "example.com/=x", "app=tr ainer", "app=a=b", "!app=x", "!", "app in (a b)", "app=-x", "app=x.",
      "gpu-count>three", "in", "app===x",
      // a name of 64 characters, a value of 64 characters
      "k012345678901234567890123456789012345678901234567890123456789abc=v",
      "k=v012345678901234567890123456789012345678901234567890123456789abc"})
  void malformedSelectorsAreRejected(String selector) {
    assertThat(LabelSelectorSyntax.problem(selector)).as(selector).isPresent();
  }

  @Test
  void aMalformedSelectorIsExit2NamingTheKeyBeforeAnyRequest() {
    try (SimulatedKubernetes k8s = SimulatedKubernetes.start();
        HostileEndpoint api = HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"), "{}")) {
      Map<String, String> p = new LinkedHashMap<>(new KubernetesTestSupport(k8s, "training", "resolver")
          .properties(k8s, Map.of()));
      p.put("clusterresolver.kubernetes.endpoint", api.uri().toString());
      p.put("clusterresolver.kubernetes.selector", "app=trainer,role in (worker");

      ConfigurationException e = catchThrowableOfType(
          () -> ClusterResolvers.create("kubernetes", p, Map.of()).resolve(), ConfigurationException.class);

      assertThat(e).isNotNull();
      assertThat(e.getMessage()).contains("clusterresolver.kubernetes.selector").contains("role in (worker");
      assertThat(api.requests()).as("no request made").isEmpty();
    }
  }
}
