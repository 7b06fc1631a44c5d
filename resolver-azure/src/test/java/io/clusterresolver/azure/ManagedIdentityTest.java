package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.util.Configuration;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.SimulatedAzure;
import io.clusterresolver.testkit.SimulatedVm;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A resolve with no credential settings, on an Azure VM, through azure-identity's default chain (kept to its managed
 * identity by {@code AZURE_TOKEN_CREDENTIALS}, which also keeps the provider's own IMDS token request, {@code
 * ImdsTokens}, out of the way): the chain gets the managed identity's token from IMDS (msal4j's {@code
 * ManagedIdentityApplication}, after azure-identity's probe of the endpoint), and the listings carry it. Both are pointed at the simulated IMDS the way they are pointed at another IMDS: {@code
 * AZURE_POD_IDENTITY_AUTHORITY_HOST} (azure-core's global configuration for azure-identity; msal4j's environment
 * for msal4j, which reads only its own).
 */
class ManagedIdentityTest {

  private static final String IMDS_HOST = "AZURE_POD_IDENTITY_AUTHORITY_HOST";
  private static final String TOKEN_PATH = "/metadata/identity/oauth2/token";
  private static final String CHAIN_SOURCES = "AZURE_TOKEN_CREDENTIALS";

  static SimulatedAzure azure;

  @BeforeAll
  static void start() {
    azure = AzureTestSupport.start();
  }

  @AfterAll
  static void stop() {
    azure.close();
  }

  @Test
  void aResolveWithoutCredentialSettingsListsWithTheManagedIdentitysTokenFromImds() throws Exception {
    azure.clear().resetCounts();
    azure.addTypical(0, 4, b -> b);
    List<SimulatedVm> members = Expected.members(azure, vm -> true);
    String imds = azure.imdsEndpoint().toString();
    Map<String, String> p = AzureTestSupport.properties(azure);
    p.remove("clusterresolver.azure.access-token");
    Configuration.getGlobalConfiguration().put(IMDS_HOST, imds);
    msalEnvironment(name -> IMDS_HOST.equals(name) ? imds : System.getenv(name));
    System.setProperty(CHAIN_SOURCES, "ManagedIdentityCredential"); // read as azure-core reads it: property first
    AzureTestSupport.forgetManagedIdentityTokens(); // else another test's token is the chain's answer
    try {
      var spec = ClusterResolvers.create("azure", p, Map.of()).clusterSpec();

      assertThat(Expected.asMap(spec)).isEqualTo(Expected.cluster(members, vm -> "worker", Expected::privateIp));
    } finally {
      System.clearProperty(CHAIN_SOURCES);
      msalEnvironment(null);
      Configuration.getGlobalConfiguration().remove(IMDS_HOST);
    }
    assertThat(azure.requests()).filteredOn(r -> r.path().equals(TOKEN_PATH) && "true".equals(r.header("Metadata")))
        .as("the managed identity's token asked of IMDS by the chain").isNotEmpty()
        .allSatisfy(r -> assertThat(r.header("User-Agent")).as("azure-identity's, not ImdsTokens'")
            .startsWith("azsdk-java-azure-identity/"))
        .allSatisfy(r -> assertThat(r.parameters()).containsEntry("resource", "https://management.azure.com"));
    assertThat(azure.requests()).filteredOn(r -> r.path().startsWith("/subscriptions/"))
        .as("the listings, each with IMDS's token").isNotEmpty()
        .allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer " + SimulatedAzure.ACCESS_TOKEN));
  }

  /** msal4j's environment variables ({@code null}: the process's), through its package's own hook. */
  private static void msalEnvironment(java.util.function.UnaryOperator<String> variables) throws Exception {
    Class<?> application = Class.forName("com.microsoft.aad.msal4j.ManagedIdentityApplication");
    Class<?> environment = Class.forName("com.microsoft.aad.msal4j.IEnvironmentVariables");
    Object value = variables == null ? null : Proxy.newProxyInstance(environment.getClassLoader(),
        new Class<?>[] {environment}, (proxy, method, args) -> switch (method.getName()) {
          case "getEnvironmentVariable" -> variables.apply((String) args[0]);
          case "toString" -> "the test's environment";
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          default -> throw new UnsupportedOperationException(method.getName());
        });
    Method set = application.getDeclaredMethod("setEnvironmentVariables", environment);
    set.setAccessible(true);
    set.invoke(null, value);
  }
}
