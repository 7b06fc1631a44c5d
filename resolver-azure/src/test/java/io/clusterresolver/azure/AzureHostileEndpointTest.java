package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.HostileEndpointContract;
import io.clusterresolver.testkit.SimulatedAzure;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The azure provider against an endpoint that is not Azure Resource Manager (issue 20, attacks 4 and
 * 7). The endpoint speaks HTTPS with the simulation's certificate, since the SDK sends its bearer
 * token only over https.
 */
class AzureHostileEndpointTest extends HostileEndpointContract {

  SimulatedAzure azure;

  AzureHostileEndpointTest() {
    super("clusterresolver.azure", "VirtualMachines.List");
  }

  @BeforeEach
  void start() {
    azure = AzureTestSupport.start();
  }

  @AfterEach
  void stop() {
    azure.close();
  }

  @Override
  protected URI endpoint(HostileEndpoint api) {
    return api.httpsUri();
  }

  @Override
  protected ClusterResolverException resolveAgainst(URI endpoint, Map<String, String> properties) {
    Map<String, String> p = AzureTestSupport.properties(azure);
    p.put("clusterresolver.azure.endpoint", endpoint.toString());
    properties.forEach((k, v) -> p.put("clusterresolver.azure." + k, v));
    return catchThrowableOfType(() -> ClusterResolvers.create("azure", p, Map.of()).resolve(),
        ClusterResolverException.class);
  }

  @Override
  protected String trickledAnswer() {
    return "{\"value\": []" + " ".repeat(27) + "}";
  }

  @Override
  protected Duration trickleTimeout() {
    return Duration.ofSeconds(3);
  }

  @Override
  protected Duration trickleBound() {
    return Duration.ofSeconds(8);
  }

  @Override
  protected String[] endlessAnswer() {
    return new String[] {"{\"value\":[",
        "{\"name\":\"vm\",\"id\":\"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm\"},"};
  }

  @Override
  protected List<String> notTheApiErrorNames() {
    return List.of("not an Azure Resource Manager answer", "VirtualMachines.List", "clusterresolver.azure.endpoint");
  }

  @Test
  void aProxysWelcomePageIsNotAResourceManagerAnswerNamingTheEndpoint() {
    try (HostileEndpoint api = HostileEndpoint.answer(200, Map.of("Content-Type", "text/html"),
        "<html><body>Welcome to nginx!</body></html>")) {
      ClusterResolverException e = resolveAgainst(endpoint(api), Map.of());

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
        // The token endpoint is not Resource Manager's: the advice names the identity settings instead.
        assertThat(e.getMessage()).contains("AZURE_AUTHORITY_HOST").doesNotContain("clusterresolver.azure.endpoint");
        // Each token attempt reads at most 1 MiB (plus what the socket buffers held): not the 64 MiB sent.
        assertThat(entra.bytesSent()).isLessThan(32L << 20);
      } finally {
        identity.keySet().forEach(System::clearProperty);
      }
    }
  }
}
