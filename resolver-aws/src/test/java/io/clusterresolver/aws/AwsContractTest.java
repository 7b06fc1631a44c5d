package io.clusterresolver.aws;

import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.testkit.Fault;
import io.clusterresolver.testkit.ProviderContractTest;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedInstance;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The provider contract (TCK) against a simulated EC2 with the real AWS SDK. */
class AwsContractTest extends ProviderContractTest {

  static SimulatedEc2 ec2;

  @BeforeAll
  static void start() {
    ec2 = SimulatedEc2.start();
  }

  @AfterAll
  static void stop() {
    ec2.close();
  }

  @Override
  protected ClusterResolverProvider provider() {
    return new AwsClusterResolverProvider();
  }

  @Override
  protected void setMembers(int n) {
    ec2.clear().addTypical(0, n, b -> b);
  }

  @Override
  protected Map<String, String> properties(Map<String, String> extra) {
    Map<String, String> p = new LinkedHashMap<>(AwsTestSupport.properties(ec2));
    p.put("clusterresolver.aws.timeout", "5s");
    p.putAll(extra);
    return p;
  }

  /** The typical instances' private IPv4, in launch order, at the default port 8888. */
  @Override
  protected java.util.List<String> expectedAddresses(int n) {
    return java.util.stream.IntStream.range(0, n)
        .mapToObj(i -> SimulatedInstance.typical(i).build().privateIpv4().orElseThrow() + ":8888").toList();
  }

  @Override
  protected void identifyAs(int index) {
    ec2.identifyAs(index < 0 ? null : SimulatedInstance.typical(index).build().instanceId());
  }

  @Override
  protected void failPersistently() {
    ec2.inject(Fault.serverError().always());
  }

  @Override
  protected void heal() {
    ec2.clearFaults();
  }

  @Override
  protected boolean inject(Fault fault) {
    return ec2.inject(fault);
  }

  /** Twelve instances at five a page: three DescribeInstances pages. */
  @Override
  protected int pagedMemberCount() {
    return 12;
  }

  @Override
  protected Map<String, String> pagedProperties() {
    return Map.of("clusterresolver.aws.page-size", "5");
  }

  @Override
  protected boolean retriesTransientFaults() {
    return true;
  }
}
