package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.SimulatedEc2;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The aws provider against an endpoint that is not EC2: one that trickles its answer, one whose
 * answer does not end, and one that answers 200 with something else (issue 20, attacks 4 and 7).
 * The instance metadata is the simulation's; the API endpoint is the hostile one.
 */
class AwsHostileEndpointTest {

  private static final String EC2_HEAD = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      + "<DescribeInstancesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">"
      + "<requestId>r-1</requestId><reservationSet><item><reservationId>r-1</reservationId><instancesSet>";

  SimulatedEc2 ec2;

  @BeforeEach
  void start() {
    ec2 = SimulatedEc2.start();
  }

  @AfterEach
  void stop() {
    ec2.close();
  }

  private ClusterResolverException resolveAgainst(HostileEndpoint api, String... keyValues) {
    Map<String, String> p = AwsTestSupport.properties(ec2);
    p.put("clusterresolver.aws.endpoint", api.uri().toString());
    p.put("clusterresolver.aws.max-attempts", "1");
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put("clusterresolver.aws." + keyValues[i], keyValues[i + 1]);
    }
    return catchThrowableOfType(() -> ClusterResolvers.create("aws", p, Map.of()).resolve(),
        ClusterResolverException.class);
  }

  @Test
  void anAnswerTrickledOneByteEveryHalfSecondEndsAtTheTimeout() {
    // 40 bytes at 2 per second: 20 s for the whole answer, every single read well within the socket timeout.
    String body = "<DescribeInstancesResponse>" + " ".repeat(13);
    try (HostileEndpoint api = HostileEndpoint.trickle(body, Duration.ofMillis(500))) {
      long start = System.nanoTime();
      ClusterResolverException e = resolveAgainst(api, "timeout", "2s");
      long millis = (System.nanoTime() - start) / 1_000_000;

      assertThat(e).as("a trickled answer is an error, not a cluster").isNotNull();
      assertThat(millis).as("the timeout of 2 s covers the body too").isLessThan(6_000);
      assertThat(e.getMessage()).contains("DescribeInstances").contains("clusterresolver.aws.timeout");
      assertThat(api.bytesSent()).isLessThan(body.length());
    }
  }

  @Test
  void anAnswerThatDoesNotEndStopsAtTheSizeLimitNamingTheEndpointAndTheLimit() {
    try (HostileEndpoint api = HostileEndpoint.endless(EC2_HEAD,
        "<item><instanceId>i-0123456789abcdef0</instanceId><privateIpAddress>10.0.0.1</privateIpAddress></item>",
        64L << 20)) {
      ClusterResolverException e = resolveAgainst(api, "max-answer-mib", "1", "timeout", "20s");

      assertThat(e).isNotNull();
      assertThat(e.getMessage()).contains(api.uri().getHost() + ":" + api.uri().getPort())
          .contains("larger than the limit of 1 MiB").contains("clusterresolver.aws.max-answer-mib");
      // What the socket buffers held besides the 1 MiB read: far from the 64 MiB the endpoint would send.
      assertThat(api.bytesSent()).isLessThan(16L << 20);
    }
  }

  @Test
  void aSuccessfulAnswerThatIsNotEc2sIsAnErrorNotAnEmptyCluster() {
    // Well-formed XML (XHTML), so only the answer's kind tells it from an empty EC2 page.
    try (HostileEndpoint api = HostileEndpoint.answer(200, Map.of("Content-Type", "text/html"),
        "<html><body><h1>Welcome to the proxy</h1></body></html>")) {
      ClusterResolverException e = resolveAgainst(api);

      assertThat(e).as("not an empty cluster").isNotNull();
      assertThat(e.getMessage()).contains("not an EC2 answer").contains("DescribeInstances")
          .contains("clusterresolver.aws.endpoint");
      assertThat(e.isRetryable()).as("waiting does not fix an endpoint").isFalse();
    }
  }
}
