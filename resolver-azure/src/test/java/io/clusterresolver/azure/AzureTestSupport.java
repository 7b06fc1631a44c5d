package io.clusterresolver.azure;

import com.microsoft.aad.msal4j.ManagedIdentityApplication;
import com.microsoft.aad.msal4j.TokenCache;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.SimulatedAzure;
import java.lang.reflect.Field;
import java.util.LinkedHashMap;
import java.util.Map;

/** Properties pointing the provider at a simulation; the simulation's trust store made the JVM's. */
final class AzureTestSupport {

  static final String RG = "cluster-rg";

  private AzureTestSupport() {}

  /** Starts a simulation whose HTTPS endpoint the provider trusts (javax.net.ssl.trustStore, read at create). */
  static SimulatedAzure start() {
    SimulatedAzure azure = SimulatedAzure.start();
    azure.trustStoreProperties().forEach(System::setProperty);
    return azure;
  }

  static Map<String, String> properties(SimulatedAzure azure) {
    Map<String, String> p = new LinkedHashMap<>(azure.providerProperties(RG));
    // The provider's default: a cold JVM's first resolve on a loaded machine is slow; a test of the deadline sets one.
    p.put("clusterresolver.azure.timeout", "30s");
    return p;
  }

  /**
   * Empties msal4j's cache of managed identity tokens, one for the whole JVM: a token one test got through
   * azure-identity would otherwise be another test's answer, and IMDS would not be asked.
   */
  static void forgetManagedIdentityTokens() throws ReflectiveOperationException {
    Field accessTokens = TokenCache.class.getDeclaredField("accessTokens"); // TokenCache has no public way to empty it
    accessTokens.setAccessible(true);
    ((Map<?, ?>) accessTokens.get(ManagedIdentityApplication.getSharedTokenCache())).clear();
  }

  static ClusterResolver resolver(SimulatedAzure azure, String... keyValues) {
    Map<String, String> p = properties(azure);
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put("clusterresolver.azure." + keyValues[i], keyValues[i + 1]);
    }
    p.values().removeIf(v -> v == null);
    return ClusterResolvers.create("azure", p, Map.of());
  }
}
