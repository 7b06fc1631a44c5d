package io.clusterresolver.gce;

import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.testkit.Fault;
import io.clusterresolver.testkit.ProviderContractTest;
import io.clusterresolver.testkit.SimulatedGce;
import io.clusterresolver.testkit.SimulatedGceInstance;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider contract (TCK) against a simulated Compute Engine with the real google-cloud-compute
 * client, signed with a service-account key whose tokens the simulation issues (and requires).
 */
class GceContractTest extends ProviderContractTest {

  static SimulatedGce gce;
  static GceTestSupport.KeyFile key;

  @BeforeAll
  static void start(@TempDir Path dir) {
    // Five instances a page, so that the fault matrix's twelve members take three pages.
    gce = SimulatedGce.start().requireAuthorization(true).pageCap(5);
    key = new GceTestSupport.KeyFile(dir, gce);
  }

  @AfterAll
  static void stop() {
    gce.close();
  }

  @Override
  protected ClusterResolverProvider provider() {
    return new GceClusterResolverProvider();
  }

  @Override
  protected void setMembers(int n) {
    gce.clear().addTypical(0, n, b -> b);
  }

  @Override
  protected Map<String, String> properties(Map<String, String> extra) {
    Map<String, String> p = new LinkedHashMap<>(GceTestSupport.properties(gce));
    p.put("clusterresolver.gce.credentials", key.path.toString());
    p.put("clusterresolver.gce.timeout", "5s"); // the contract's fault bound (10 s) is this deadline and slack
    p.putAll(extra);
    return p;
  }

  @Override
  protected Collection<String> extraSecrets() {
    List<String> secrets = new ArrayList<>(gce.issuedTokens());
    secrets.add(key.secretFragment());
    return secrets;
  }

  /** The typical instances' nic0 networkIP, in creation order, at the default port 8888. */
  @Override
  protected List<String> expectedAddresses(int n) {
    return java.util.stream.IntStream.range(0, n)
        .mapToObj(i -> SimulatedGceInstance.typical(i).build().networkIp().orElseThrow() + ":8888").toList();
  }

  @Override
  protected void identifyAs(int index) {
    gce.identifyAs(index < 0 ? null : SimulatedGceInstance.typical(index).build().name());
  }

  @Override
  protected void failPersistently() {
    gce.inject(Fault.serverError().always());
  }

  @Override
  protected void heal() {
    gce.clearFaults();
  }

  @Override
  protected boolean inject(Fault fault) {
    return gce.inject(fault);
  }

  /** Twelve instances at five a page: three aggregatedList pages. */
  @Override
  protected int pagedMemberCount() {
    return 12;
  }

  /** The SDK retries 429, 500 and 503 answers and resets (idempotent reads) within the deadline. */
  @Override
  protected boolean retriesTransientFaults() {
    return true;
  }
}
