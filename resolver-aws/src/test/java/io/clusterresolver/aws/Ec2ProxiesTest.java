package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.RecordingProxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;

/**
 * A resolve goes through the proxy the SDK's {@code Ec2Client} on its url-connection client (built with its builder,
 * as the provider built it for a proxy before) goes through, with the same proxy settings: the oracle is that client,
 * sending to the same endpoint while a proxy in the test records what each asks it (the request line, and the
 * {@code Proxy-Authorization} it is given) and answers 502. The endpoint's host does not exist: a call that is not
 * proxied fails at its name, and the proxy sees nothing.
 */
class Ec2ProxiesTest {

  /** What {@code proxy} was asked, an empty path named {@code /} (RFC 9110 4.2.3: the SDK's client leaves it empty). */
  private static List<String> asked(RecordingProxy proxy) {
    return proxy.take().stream().map(line -> line.replaceFirst("^(\\S+ http://[^/ ]+) ", "$1/ ")).toList();
  }

  private static final List<String> SETTINGS = List.of("http.proxyHost", "http.proxyPort", "http.proxyUser",
      "http.proxyPassword", "http.nonProxyHosts", "https.proxyHost", "https.proxyPort");

  @ParameterizedTest(name = "{0} with {1}: {2} through the proxy")
  @CsvSource(delimiter = '|', value = {
      // the SDK's settings: an HTTP proxy for http and https endpoints alike
      "http://ec2.example.invalid:8080 | http.proxyHost=127.0.0.1,http.proxyPort=PORT | 1",
      "https://ec2.example.invalid     | http.proxyHost=127.0.0.1,http.proxyPort=PORT | 1",
      // its credentials: sent to the proxy with an http endpoint (inside an https tunnel the proxy never sees them)
      "http://ec2.example.invalid:8080 | http.proxyHost=127.0.0.1,http.proxyPort=PORT,http.proxyUser=ann,"
          + "http.proxyPassword=s3cr:t | 1",
      "https://ec2.example.invalid     | http.proxyHost=127.0.0.1,http.proxyPort=PORT,http.proxyUser=ann,"
          + "http.proxyPassword=s3cr:t | 1",
      // a host the SDK's settings leave out, which the JDK's own selector leaves out too
      "http://ec2.example.invalid:8080 | http.proxyHost=127.0.0.1,http.proxyPort=PORT,"
          + "http.nonProxyHosts=*.example.invalid | 0",
      // the JDK's proxy selector: https.proxyHost for an https endpoint only
      "https://ec2.example.invalid     | https.proxyHost=127.0.0.1,https.proxyPort=PORT | 1",
      "http://ec2.example.invalid:8080 | https.proxyHost=127.0.0.1,https.proxyPort=PORT | 0"})
  void aResolveGoesThroughTheProxyTheSdkClientGoesThrough(String endpoint, String settings, int proxied)
      throws Exception {
    Map<String, String> before = new HashMap<>();
    SETTINGS.forEach(key -> before.put(key, System.getProperty(key)));
    try (RecordingProxy proxy = RecordingProxy.refusing()) {
      SETTINGS.forEach(System::clearProperty);
      for (String setting : settings.split(",")) {
        String[] kv = setting.split("=", 2);
        System.setProperty(kv[0], kv[1].replace("PORT", String.valueOf(proxy.port())));
      }
      URI uri = URI.create(endpoint);
      catchThrowable(() -> sdkClient(uri).describeInstances(r -> r.maxResults(5)));
      List<String> bySdk = asked(proxy);
      assertThat(bySdk).as("the SDK client's requests to the proxy").hasSize(proxied);

      Map<String, String> p = new LinkedHashMap<>();
      p.put("clusterresolver.aws.region", "us-east-1");
      p.put("clusterresolver.aws.endpoint", endpoint);
      p.put("clusterresolver.aws.imds-endpoint", "http://127.0.0.1:9");
      p.put("clusterresolver.aws.access-key-id", AwsTestSupport.ACCESS_KEY);
      p.put("clusterresolver.aws.secret-access-key", AwsTestSupport.SECRET_KEY);
      p.put("clusterresolver.aws.shared-listing", "false");
      p.put("clusterresolver.aws.accelerators", "false");
      p.put("clusterresolver.aws.max-attempts", "1");
      p.put("clusterresolver.aws.timeout", "3s");
      Throwable thrown = catchThrowable(() -> ClusterResolvers.create("aws", p, Map.of()).clusterSpec());
      assertThat(thrown).isInstanceOf(ClusterResolverException.class)
          .hasMessageNotContaining("s3cr:t").hasMessageNotContaining("czNjcjp0");
      assertThat(asked(proxy)).as("what the proxy was asked").isEqualTo(bySdk);
    } finally {
      before.forEach(AwsTestSupport::restoreProperty);
    }
  }

  @Test
  void theProxysCredentialsGoOnlyToAProxyThatReadsTheRequest() {
    Map<String, String> before = new HashMap<>();
    SETTINGS.forEach(key -> before.put(key, System.getProperty(key)));
    try {
      SETTINGS.forEach(System::clearProperty);
      System.setProperty("http.proxyHost", "proxy.example.invalid");
      System.setProperty("http.proxyPort", "3128");
      System.setProperty("http.proxyUser", "ann");
      System.setProperty("http.proxyPassword", "s3cr:t");
      System.setProperty("http.nonProxyHosts", "vpce.example.invalid");
      Ec2Proxies proxies = Ec2Proxies.fromSettings();
      // RFC 7617: "Basic " and the Base64 of user ":" password
      assertThat(proxies.authorization(URI.create("http://ec2.example.invalid:8080/")))
          .isEqualTo("Basic " + java.util.Base64.getEncoder().encodeToString("ann:s3cr:t".getBytes(
              StandardCharsets.UTF_8)));
      assertThat(proxies.authorization(URI.create("https://ec2.us-east-1.amazonaws.com/")))
          .as("inside an https tunnel they would go to EC2").isNull();
      assertThat(proxies.authorization(URI.create("http://vpce.example.invalid/"))).as("not proxied").isNull();
      assertThat(proxies.toString()).doesNotContain("s3cr:t").doesNotContain("ann");
    } finally {
      before.forEach(AwsTestSupport::restoreProperty);
    }
  }

  /** The SDK's client as the provider built it for a proxy (the url-connection client's builder), one attempt. */
  private static Ec2Client sdkClient(URI endpoint) {
    return Ec2Client.builder().region(Region.US_EAST_1).endpointOverride(endpoint)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(AwsTestSupport.ACCESS_KEY, AwsTestSupport.SECRET_KEY)))
        .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(3))
            .socketTimeout(Duration.ofSeconds(3)).build())
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }
}
