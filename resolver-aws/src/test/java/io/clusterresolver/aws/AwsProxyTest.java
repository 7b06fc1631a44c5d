package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.Loopback;
import io.clusterresolver.testkit.SimulatedEc2;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * With a proxy configured the way the SDK reads it ({@code http.proxyHost}/{@code http.proxyPort}), the EC2 calls
 * go through the SDK's own url-connection client, which opens them to the proxy: here a loopback port that relays
 * the bytes to the simulation (an HTTP proxy for {@code http} URLs, which the request line names in full).
 */
class AwsProxyTest {

  /** A loopback server socket that counts the connections it accepts. */
  private static final class CountingServer extends ServerSocket {
    final AtomicInteger accepted = new AtomicInteger();

    CountingServer() throws IOException {
      super(0, 50, InetAddress.getLoopbackAddress());
    }

    @Override
    public Socket accept() throws IOException {
      Socket socket = super.accept();
      accepted.incrementAndGet();
      return socket;
    }
  }

  @Test
  void withAProxyTheCallsGoThroughIt() throws Exception {
    try (SimulatedEc2 ec2 = SimulatedEc2.start(); CountingServer proxy = new CountingServer()) {
      ec2.addTypical(0, 3, b -> b);
      Loopback.forward(proxy, ec2.endpoint().getPort());
      Map<String, String> p = new LinkedHashMap<>(AwsTestSupport.properties(ec2));
      p.put("clusterresolver.aws.shared-listing", "false");
      p.put("clusterresolver.aws.max-attempts", "1");
      p.put("clusterresolver.aws.accelerators", "false");
      String host = System.getProperty("http.proxyHost");
      String port = System.getProperty("http.proxyPort");
      System.setProperty("http.proxyHost", "127.0.0.1");
      System.setProperty("http.proxyPort", String.valueOf(proxy.getLocalPort()));
      try {
        ClusterResolver resolver = ClusterResolvers.create("aws", p, Map.of());
        assertThat(resolver.clusterSpec().jobTasks("worker"))
            .containsExactly("10.0.0.0:8888", "10.0.0.1:8888", "10.0.0.2:8888");
      } finally {
        AwsTestSupport.restoreProperty("http.proxyHost", host);
        AwsTestSupport.restoreProperty("http.proxyPort", port);
      }
      assertThat(ec2.callCount("DescribeInstances")).isEqualTo(1);
      assertThat(proxy.accepted.get()).as("connections through the proxy").isGreaterThanOrEqualTo(1);
    }
  }
}
