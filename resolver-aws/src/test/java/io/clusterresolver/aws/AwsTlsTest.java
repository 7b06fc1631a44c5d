package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.Loopback;
import io.clusterresolver.testkit.SimulatedAzure;
import io.clusterresolver.testkit.SimulatedEc2;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;

/**
 * EC2 over {@code https}: the calls go on the JDK's own connections, so they trust what the JDK's
 * default TLS context trusts (what {@code -Djavax.net.ssl.trustStore} configures) and nothing else. The
 * simulation is reached through a TLS front on loopback (the testkit's certificate for 127.0.0.1) that
 * relays the bytes to its plain HTTP port.
 */
class AwsTlsTest {

  private static final String STORES = "/io/clusterresolver/testkit/simulated-azure-";

  private static KeyStore store(String name) throws IOException, GeneralSecurityException {
    try (InputStream in = SimulatedAzure.class.getResourceAsStream(STORES + name + ".p12")) {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(in, SimulatedAzure.STORE_PASSWORD.toCharArray());
      return store;
    }
  }

  private static SSLContext trusting() throws IOException, GeneralSecurityException {
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store("truststore"));
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }

  /** Accepts TLS on a loopback port and relays each connection to {@code port} in plain text. */
  private static SSLServerSocket tlsFront(int port) throws IOException, GeneralSecurityException {
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(store("keystore"), SimulatedAzure.STORE_PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(keys.getKeyManagers(), null, null);
    SSLServerSocket server = (SSLServerSocket) context.getServerSocketFactory()
        .createServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Loopback.forward(server, port);
    return server;
  }

  private static ClusterResolver resolver(SimulatedEc2 ec2, int tlsPort) {
    Map<String, String> p = new java.util.LinkedHashMap<>(AwsTestSupport.properties(ec2));
    p.put("clusterresolver.aws.endpoint", "https://127.0.0.1:" + tlsPort);
    p.put("clusterresolver.aws.shared-listing", "false");
    p.put("clusterresolver.aws.max-attempts", "1");
    return ClusterResolvers.create("aws", p, Map.of());
  }

  @Test
  void overHttpsTheCallsTrustWhatTheJdkTrusts() throws Exception {
    try (SimulatedEc2 ec2 = SimulatedEc2.start(); SSLServerSocket front = tlsFront(ec2.endpoint().getPort())) {
      ec2.addTypical(0, 3, b -> b);

      // The JDK's default trust (cacerts) does not know the test certificate: refused, the operation named.
      Throwable refused = catchThrowable(() -> resolver(ec2, front.getLocalPort()).clusterSpec());
      assertThat(refused).isInstanceOf(ClusterResolverException.class)
          .hasMessageContaining("DescribeInstances").hasMessageContaining("PKIX");
      assertThat(ec2.callCount("DescribeInstances")).isZero();

      // Trusted by the JDK's default for HTTPS connections, as a trust store given to the JVM would make it.
      SSLSocketFactory before = HttpsURLConnection.getDefaultSSLSocketFactory();
      HttpsURLConnection.setDefaultSSLSocketFactory(trusting().getSocketFactory());
      try {
        assertThat(resolver(ec2, front.getLocalPort()).clusterSpec().jobTasks("worker"))
            .containsExactly("10.0.0.0:8888", "10.0.0.1:8888", "10.0.0.2:8888");
        assertThat(ec2.callCount("DescribeInstances")).isEqualTo(1);
      } finally {
        HttpsURLConnection.setDefaultSSLSocketFactory(before);
      }
    }
  }
}
