package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.SimulatedAzure;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The azure provider against an endpoint that is not Azure Resource Manager: one that trickles its
 * answer, one whose answer does not end, and one that answers 200 with something else (issue 20,
 * attacks 4 and 7). The endpoint speaks HTTPS with the simulation's certificate, since the SDK sends
 * its bearer token only over https.
 */
class AzureHostileEndpointTest {

  SimulatedAzure azure;

  @BeforeEach
  void start() {
    azure = AzureTestSupport.start();
  }

  @AfterEach
  void stop() {
    azure.close();
  }

  private ClusterResolverException resolveAgainst(HostileEndpoint api, String... keyValues) {
    Map<String, String> p = AzureTestSupport.properties(azure);
    p.put("clusterresolver.azure.endpoint", api.httpsUri().toString());
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put("clusterresolver.azure." + keyValues[i], keyValues[i + 1]);
    }
    return catchThrowableOfType(() -> ClusterResolvers.create("azure", p, Map.of()).resolve(),
        ClusterResolverException.class);
  }

  @Test
  void anAnswerTrickledOneByteEveryHalfSecondEndsAtTheTimeout() {
    // 40 bytes at 2 per second: 20 s for the whole answer, every single read well within any read timeout.
    String body = "{\"value\": []" + " ".repeat(27) + "}";
    try (HostileEndpoint api = HostileEndpoint.trickle(body, Duration.ofMillis(500))) {
      long start = System.nanoTime();
      ClusterResolverException e = resolveAgainst(api, "timeout", "3s");
      long millis = (System.nanoTime() - start) / 1_000_000;

      assertThat(e).as("a trickled answer is an error, not a cluster").isNotNull();
      assertThat(millis).as("the timeout of 3 s covers the body too").isLessThan(8_000);
      assertThat(e.getMessage()).contains("VirtualMachines.List").contains("clusterresolver.azure.timeout");
      assertThat(api.bytesSent()).isLessThan(body.length());
    }
  }

  @Test
  void anAnswerThatDoesNotEndStopsAtTheSizeLimitNamingTheEndpointAndTheLimit() {
    try (HostileEndpoint api = HostileEndpoint.endless("{\"value\":[",
        "{\"name\":\"vm\",\"id\":\"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm\"},",
        64L << 20)) {
      ClusterResolverException e = resolveAgainst(api, "max-answer-mib", "1", "timeout", "20s");

      assertThat(e).isNotNull();
      assertThat(e.getMessage()).contains(api.httpsUri().getHost() + ":" + api.httpsUri().getPort())
          .contains("larger than the limit of 1 MiB").contains("clusterresolver.azure.max-answer-mib");
      // What the socket buffers held besides the 1 MiB read: far from the 64 MiB the endpoint would send.
      assertThat(api.bytesSent()).isLessThan(16L << 20);
    }
  }

  @Test
  void aSuccessfulAnswerThatIsNotResourceManagersIsAnErrorNotAnEmptyCluster() {
    try (HostileEndpoint api = HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"),
        "{\"message\": \"Welcome to the proxy\"}")) {
      ClusterResolverException e = resolveAgainst(api);

      assertThat(e).as("not an empty cluster").isNotNull();
      assertThat(e.getMessage()).contains("not an Azure Resource Manager answer").contains("VirtualMachines.List")
          .contains("clusterresolver.azure.endpoint");
      assertThat(e.isRetryable()).as("waiting does not fix an endpoint").isFalse();
    }
  }

  @Test
  void aProxysWelcomePageIsNotAResourceManagerAnswerNamingTheEndpoint() {
    try (HostileEndpoint api = HostileEndpoint.answer(200, Map.of("Content-Type", "text/html"),
        "<html><body>Welcome to nginx!</body></html>")) {
      ClusterResolverException e = resolveAgainst(api);

      assertThat(e).as("not an empty cluster").isNotNull();
      assertThat(e.getMessage()).contains("not an Azure Resource Manager answer")
          .contains(api.httpsUri().getHost() + ":" + api.httpsUri().getPort()).contains("not a JSON object");
      assertThat(e.isRetryable()).isFalse();
    }
  }

  /**
   * The default chain's client-secret credential (AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET,
   * AZURE_AUTHORITY_HOST, which azure-core's configuration also reads from system properties) asking a
   * token endpoint whose answer does not end: the token request is read under the same limit, and
   * not retried. (No time is asserted: the chain takes about 24 s here even for a quick 400, and a
   * 64 MiB body over loopback would not take much longer; the bytes sent tell the two apart.)
   */
  @Test
  void aTokenAnswerThatDoesNotEndStopsAtTheSizeLimit() {
    try (HostileEndpoint entra = HostileEndpoint.endless("{\"token_type\":\"Bearer\",\"access_token\":\"", "a",
        64L << 20)) {
      Map<String, String> identity = Map.of("AZURE_CLIENT_ID", "00000000-0000-0000-0000-00000000c11e",
          "AZURE_TENANT_ID", "00000000-0000-0000-0000-0000000071e7", "AZURE_CLIENT_SECRET", "not-a-real-secret",
          "AZURE_AUTHORITY_HOST", entra.httpsUri().toString());
      identity.forEach(System::setProperty);
      try {
        Map<String, String> p = AzureTestSupport.properties(azure);
        p.remove("clusterresolver.azure.access-token");
        p.put("clusterresolver.azure.max-answer-mib", "1");
        p.put("clusterresolver.azure.timeout", "20s");
        Throwable e = catchThrowable(() -> ClusterResolvers.create("azure", p, Map.of()).resolve());

        assertThat(e).as("no token, no cluster").isNotNull();
        assertThat(e).hasStackTraceContaining("larger than the limit of 1 MiB");
        assertThat(e).hasStackTraceContaining(entra.httpsUri().getHost() + ":" + entra.httpsUri().getPort());
        // Each token attempt reads at most 1 MiB (plus what the socket buffers held): not the 64 MiB sent.
        assertThat(entra.bytesSent()).isLessThan(32L << 20);
      } finally {
        identity.keySet().forEach(System::clearProperty);
      }
    }
  }
}
