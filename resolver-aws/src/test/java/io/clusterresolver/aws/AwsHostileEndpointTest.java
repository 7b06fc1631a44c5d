package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.HostileEndpointContract;
import io.clusterresolver.testkit.SimulatedEc2;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The aws provider against an endpoint that is not EC2 (issue 20, attacks 4 and 7). The instance
 * metadata is the simulation's; the API endpoint is the hostile one.
 */
class AwsHostileEndpointTest extends HostileEndpointContract {

  SimulatedEc2 ec2;

  AwsHostileEndpointTest() {
    super("clusterresolver.aws", "DescribeInstances");
  }

  @BeforeEach
  void start() {
    ec2 = SimulatedEc2.start();
  }

  @AfterEach
  void stop() {
    ec2.close();
  }

  @Override
  protected ClusterResolverException resolveAgainst(URI endpoint, Map<String, String> properties) {
    Map<String, String> p = AwsTestSupport.properties(ec2);
    p.put("clusterresolver.aws.endpoint", endpoint.toString());
    p.put("clusterresolver.aws.max-attempts", "1");
    properties.forEach((k, v) -> p.put("clusterresolver.aws." + k, v));
    return catchThrowableOfType(() -> ClusterResolvers.create("aws", p, Map.of()).resolve(),
        ClusterResolverException.class);
  }

  /** 80 bytes: the whole answer takes 40 s, so the contract's bound (half that) leaves a cold client on a loaded machine room. */
  @Override
  protected String trickledAnswer() {
    return "<DescribeInstancesResponse>" + " ".repeat(53);
  }

  @Override
  protected String[] endlessAnswer() {
    return new String[] {"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<DescribeInstancesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">"
        + "<requestId>r-1</requestId><reservationSet><item><reservationId>r-1</reservationId><instancesSet>",
        "<item><instanceId>i-0123456789abcdef0</instanceId><privateIpAddress>10.0.0.1</privateIpAddress></item>"};
  }

  /** Well-formed XML (XHTML), so only the answer's kind tells it from an empty EC2 page. */
  @Override
  protected HostileEndpoint notTheApi() {
    return HostileEndpoint.answer(200, Map.of("Content-Type", "text/html"),
        "<html><body><h1>Welcome to the proxy</h1></body></html>");
  }

  @Override
  protected List<String> notTheApiErrorNames() {
    return List.of("not an EC2 answer", "DescribeInstances", "clusterresolver.aws.endpoint");
  }
}
