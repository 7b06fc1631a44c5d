package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.ProxyOptions;
import com.azure.core.http.jdk.httpclient.implementation.JdkHttpClientProxySelector;
import com.azure.core.util.Configuration;
import com.azure.core.util.ConfigurationBuilder;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.RecordingProxy;
import io.clusterresolver.testkit.SimulatedAzure;
import io.clusterresolver.testkit.SimulatedVm;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A resolve's Resource Manager calls go through the proxy azure-core's JDK {@code HttpClient} went through, for the
 * same settings (system properties, and environment variables given to the resolver): the oracle is azure-core's own
 * {@code ProxyOptions.fromConfiguration} on those settings, with its JDK client's own proxy selector deciding a host's
 * bypass. A proxy in the test records each request's first line and its {@code Proxy-Authorization}, and tunnels a
 * {@code CONNECT} to the simulation, so a proxied resolve still lists its cluster.
 */
class ArmProxiesTest {

  private static final List<String> PROPERTIES = List.of("java.net.useSystemProxies", "https.proxyHost",
      "https.proxyPort", "http.proxyHost", "http.proxyPort", "http.proxyUser", "http.proxyPassword",
      "http.nonProxyHosts");
  private static final List<String> VARIABLES = List.of("HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY");

  static SimulatedAzure azure;

  @BeforeAll
  static void start() {
    azure = AzureTestSupport.start();
  }

  @AfterAll
  static void stop() {
    azure.close();
  }

  @BeforeEach
  void reset() {
    azure.clear().clearFaults().resetCounts();
    azure.addTypical(0, 3, b -> b);
  }

  @ParameterizedTest(name = "{0} with {1} and {2}")
  @CsvSource(delimiter = '#', value = {
      // the JVM's proxy properties, https first, each port given
      "127.0.0.1 # https.proxyHost=127.0.0.1,https.proxyPort=PORT # ",
      // http.proxyHost carries https calls too (azure-core's rule; the JDK's own selector would not)
      "127.0.0.1 # http.proxyHost=127.0.0.1,http.proxyPort=PORT # ",
      "localhost # http.proxyHost=127.0.0.1,http.proxyPort=PORT,http.nonProxyHosts=LOCAL* # ",
      "127.0.0.1 # http.proxyHost=127.0.0.1,http.proxyPort=PORT,http.nonProxyHosts=*.example.com|10.* # ",
      // the proxy's credentials never go into an https tunnel
      "127.0.0.1 # http.proxyHost=127.0.0.1,http.proxyPort=PORT,http.proxyUser=ann,http.proxyPassword=s3cr:t # ",
      // the environment's, only with java.net.useSystemProxies=true
      "127.0.0.1 # java.net.useSystemProxies=true # HTTPS_PROXY=http://127.0.0.1:PORT",
      "127.0.0.1 # java.net.useSystemProxies=true # HTTP_PROXY=http://ann:s3cr%3At@127.0.0.1:PORT",
      "127.0.0.1 #                                # HTTPS_PROXY=http://127.0.0.1:PORT",
      "127.0.0.1 # java.net.useSystemProxies=true # HTTPS_PROXY=http://127.0.0.1:PORT,NO_PROXY=127.0.0.1",
      "localhost # java.net.useSystemProxies=true # HTTPS_PROXY=http://127.0.0.1:PORT,NO_PROXY=.example.com;LOCALHOST",
      "localhost # java.net.useSystemProxies=true # HTTPS_PROXY=http://127.0.0.1:PORT,NO_PROXY=*.example.com",
      // the environment's proxy comes before the JVM's properties
      "127.0.0.1 # java.net.useSystemProxies=true,https.proxyHost=127.0.0.1,https.proxyPort=9 "
          + "# HTTPS_PROXY=http://127.0.0.1:PORT"})
  void aResolveGoesThroughTheProxyAzureCoresClientTook(String host, String properties, String variables)
      throws Exception {
    Map<String, String> before = new HashMap<>();
    PROPERTIES.forEach(key -> before.put(key, System.getProperty(key)));
    try (RecordingProxy proxy = RecordingProxy.tunnelling()) {
      String port = String.valueOf(proxy.port());
      PROPERTIES.forEach(System::clearProperty);
      settings(properties, port).forEach(System::setProperty);
      Map<String, String> environment = new HashMap<>(settings(variables, port));
      URI endpoint = URI.create("https://" + host + ":" + azure.endpoint().getPort());

      Proxy expected = azureCoresProxy(environment, endpoint);

      Map<String, String> p = AzureTestSupport.properties(azure);
      p.put("clusterresolver.azure.endpoint", endpoint.toString());
      var spec = ClusterResolvers.create("azure", p, environment).clusterSpec();

      assertThat(spec.numTasks("worker")).as("the cluster, listed through the tunnel or not").isEqualTo(3);
      List<String> asked = proxy.take();
      if (expected == Proxy.NO_PROXY) {
        assertThat(asked).as("azure-core went straight to %s", endpoint).isEmpty();
      } else {
        InetSocketAddress address = (InetSocketAddress) expected.address();
        assertThat(address.getHostString() + ":" + address.getPort()).as("azure-core's proxy is the test's")
            .isEqualTo("127.0.0.1:" + port);
        // RFC 9110 9.3.6: the tunnel to the endpoint's authority, without the proxy's credentials; and IMDS (plain
        // http to the same proxy-less host) never through it.
        assertThat(asked).as("what the proxy was asked").isNotEmpty()
            .allMatch(line -> line.equals("CONNECT " + host + ":" + endpoint.getPort() + " HTTP/1.1"));
        assertThat(azure.callCount("IMDS")).as("IMDS asked, not through the proxy").isEqualTo(1);
      }
      assertThat(azure.requests()).filteredOn(r -> !r.action().equals("IMDS"))
          .allSatisfy(r -> assertThat(r.header("Authorization"))
              .isEqualTo("Bearer " + SimulatedAzure.ACCESS_TOKEN));
    } finally {
      before.forEach(ArmProxiesTest::restore);
    }
  }

  /**
   * The oracle: the proxy azure-core's JDK client took for {@code endpoint}, from azure-core's own {@code
   * ProxyOptions} on these settings, with that client's own selector (its {@code Proxy}, or {@code NO_PROXY}).
   */
  private static Proxy azureCoresProxy(Map<String, String> environment, URI endpoint) {
    Map<String, String> variables = new HashMap<>(environment);
    VARIABLES.forEach(name -> variables.putIfAbsent(name, null)); // not the process's own
    Configuration configuration = new ConfigurationBuilder(path -> Map.of(), path -> Map.of(), path -> variables)
        .build();
    ProxyOptions options = ProxyOptions.fromConfiguration(configuration); // as its JDK client's builder asked
    if (options == null) {
      return Proxy.NO_PROXY;
    }
    List<Proxy> chosen = new JdkHttpClientProxySelector(options.getType().toProxyType(), options.getAddress(),
        options.getNonProxyHosts()).select(endpoint);
    return chosen.isEmpty() ? Proxy.NO_PROXY : chosen.get(0);
  }

  private static void restore(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }

  /** {@code a=b,c=d} with {@code PORT} the proxy's. */
  private static Map<String, String> settings(String list, String port) {
    Map<String, String> settings = new HashMap<>();
    if (list != null) {
      for (String setting : list.split(",")) {
        String[] kv = setting.trim().split("=", 2);
        settings.put(kv[0], kv[1].replace("PORT", port).replace(';', ','));
      }
    }
    return settings;
  }
}
