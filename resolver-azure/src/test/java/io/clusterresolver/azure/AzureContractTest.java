package io.clusterresolver.azure;

import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.testkit.Fault;
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
    azure.pageSize(5);
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
    p.put("clusterresolver.azure.timeout", "5s");
    p.putAll(extra);
    return p;
  }

  /** The typical VMs' primary NIC private IP, in creation order, at the default port 8888. */
  @Override
  protected java.util.List<String> expectedAddresses(int n) {
    return java.util.stream.IntStream.range(0, n)
        .mapToObj(i -> SimulatedVm.typical(i).build().primaryNic().privateIp() + ":8888").toList();
  }

  @Override
  protected void identifyAs(int index) {
    azure.identifyAs(index < 0 ? null : azure.resourceId(SimulatedVm.typical(index).build()));
  }

  @Override
  protected void failPersistently() {
    azure.inject(Fault.serverError().always());
  }

  @Override
  protected void heal() {
    azure.clearFaults();
  }

  @Override
  protected boolean inject(Fault fault) {
    return azure.inject(fault);
  }

  /** Twelve VMs at five a page (the simulation's page size in this suite): three VM listing pages. */
  @Override
  protected int pagedMemberCount() {
    return 12;
  }

  @Override
  protected Map<String, String> pagedProperties() {
    return Map.of();
  }

  @Override
  protected boolean retriesTransientFaults() {
    return true;
  }
}
