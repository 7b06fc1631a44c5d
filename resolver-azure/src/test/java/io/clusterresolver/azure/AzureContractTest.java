package io.clusterresolver.azure;

import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.testkit.AzureFault;
import io.clusterresolver.testkit.ProviderContractTest;
import io.clusterresolver.testkit.SimulatedAzure;
import io.clusterresolver.testkit.SimulatedVm;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The provider contract (TCK) against a simulated Azure with the real SDK over HTTPS. */
class AzureContractTest extends ProviderContractTest {

  static SimulatedAzure azure;

  @BeforeAll
  static void start() {
    azure = AzureTestSupport.start();
  }

  @AfterAll
  static void stop() {
    azure.close();
  }

  @Override
  protected ClusterResolverProvider provider() {
    return new AzureClusterResolverProvider();
  }

  @Override
  protected void setMembers(int n) {
    azure.clear().addTypical(0, n, b -> b);
  }

  @Override
  protected Map<String, String> properties(Map<String, String> extra) {
    Map<String, String> p = new LinkedHashMap<>(AzureTestSupport.properties(azure));
    p.putAll(extra);
    return p;
  }

  @Override
  protected void identifyAs(int index) {
    azure.identifyAs(index < 0 ? null : azure.resourceId(SimulatedVm.typical(index).build()));
  }

  @Override
  protected void failPersistently() {
    azure.inject(AzureFault.internalError().always());
  }

  @Override
  protected void heal() {
    azure.clearFaults();
  }
}
