package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.testkit.SimulatedEc2;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.services.ec2.Ec2Client;

/**
 * What the SDK's own settings ask of the endpoint and the connection takes the SDK's {@code Ec2Client} path: a FIPS or
 * dual-stack endpoint (system property, profile), which its endpoint rules give, and the JDK's {@code https.proxyHost},
 * which its connections follow. The oracle is an {@code Ec2Client} given the same flags on its builder.
 */
class Ec2EndpointVariantTest {

  /** An HTTP client that keeps where the request was going and sends nothing. */
  private static final class Recording implements SdkHttpClient {
    final AtomicReference<URI> sent = new AtomicReference<>();

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
      sent.set(request.httpRequest().getUri());
      return new ExecutableHttpRequest() {
        @Override
        public HttpExecuteResponse call() throws IOException {
          throw new IOException("not sent: a test");
        }

        @Override
        public void abort() {}
      };
    }

    @Override
    public void close() {}
  }

  @ParameterizedTest
  @CsvSource({
      "us-east-1, aws.useFipsEndpoint", "us-gov-west-1, aws.useFipsEndpoint", "cn-north-1, aws.useFipsEndpoint",
      "us-east-1, aws.useDualstackEndpoint", "us-gov-west-1, aws.useDualstackEndpoint",
      "cn-north-1, aws.useDualstackEndpoint"})
  void aFipsOrDualstackEndpointAskedByASystemPropertyIsTheSdkClientsOne(String region, String property) {
    assumeThat(Ec2Http.fipsOrDualstackAsked()).as("neither asked for by this machine's settings").isFalse();
    boolean fips = property.equals("aws.useFipsEndpoint");
    URI expected = Ec2EndpointTest.sentBy(Ec2Client.builder().fipsEnabled(fips).dualstackEnabled(!fips), region);
    URI regional = Ec2Calls.regionalEndpoint(region);
    assertThat(AwsResolverFactory.needsSdkClient(regional, false, "standard")).isFalse();
    String before = System.getProperty(property);
    System.setProperty(property, "true");
    try {
      assertThat(AwsResolverFactory.needsSdkClient(regional, false, "standard")).as("the SDK client's path").isTrue();
      assertThat(AwsResolverFactory.needsSdkClient(URI.create("https://vpce-1.ec2.example"), true, "standard"))
          .as("an endpoint override is kept").isFalse();
      assertThat(sentByOurClient(region)).isEqualTo(expected);
    } finally {
      AwsTestSupport.restoreProperty(property, before);
    }
  }

  @Test
  void dualstackAskedByTheProfileIsTheSdkClientsOne(@TempDir Path dir) throws IOException {
    assumeThat(Ec2Http.fipsOrDualstackAsked()).as("neither asked for by this machine's settings").isFalse();
    assumeThat(System.getenv("AWS_PROFILE")).isNull();
    URI expected = Ec2EndpointTest.sentBy(Ec2Client.builder().dualstackEnabled(true), "eu-central-2");
    Path config = Files.writeString(dir.resolve("config"), "[default]\nuse_dualstack_endpoint = true\n");
    String before = System.getProperty("aws.configFile");
    System.setProperty("aws.configFile", config.toString());
    try {
      assertThat(AwsResolverFactory.needsSdkClient(Ec2Calls.regionalEndpoint("eu-central-2"), false, "standard"))
          .isTrue();
      assertThat(sentByOurClient("eu-central-2")).isEqualTo(expected);
    } finally {
      AwsTestSupport.restoreProperty("aws.configFile", before);
    }
  }

  @Test
  void aFlagThatIsNotABooleanIsAConfigurationError() {
    assumeThat(Ec2Http.fipsOrDualstackAsked()).as("neither asked for by this machine's settings").isFalse();
    Map<String, String> p = Map.of("clusterresolver.aws.region", "us-gov-west-1",
        "clusterresolver.aws.imds-endpoint", "http://127.0.0.1:9",
        "clusterresolver.aws.access-key-id", AwsTestSupport.ACCESS_KEY,
        "clusterresolver.aws.secret-access-key", AwsTestSupport.SECRET_KEY);
    String before = System.getProperty("aws.useFipsEndpoint");
    System.setProperty("aws.useFipsEndpoint", "yes");
    try {
      assertThat(catchThrowable(() -> ClusterResolvers.create("aws", p, Map.of())))
          .isInstanceOf(ConfigurationException.class)
          .hasMessageContaining("aws.useFipsEndpoint").hasMessageContaining("'yes'")
          .hasMessageContaining("clusterresolver.aws.endpoint");
      Map<String, String> overridden = new LinkedHashMap<>(p);
      overridden.put("clusterresolver.aws.endpoint", "http://127.0.0.1:9");
      assertThat(ClusterResolvers.create("aws", overridden, Map.of())).as("not asked with an override").isNotNull();
    } finally {
      AwsTestSupport.restoreProperty("aws.useFipsEndpoint", before);
    }
  }

  @Test
  void theJdksHttpsProxyIsUsedForTheRegionalEndpoint() throws Exception {
    try (SimulatedEc2 imds = SimulatedEc2.start();
        ServerSocket proxy = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      CompletableFuture<String> firstLine = CompletableFuture.supplyAsync(() -> {
        try (Socket socket = proxy.accept()) {
          return new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
              .readLine();
        } catch (IOException e) {
          return e.toString();
        }
      });
      Map<String, String> p = new LinkedHashMap<>();
      p.put("clusterresolver.aws.region", "us-east-1");
      p.put("clusterresolver.aws.imds-endpoint", imds.imdsEndpoint().toString());
      p.put("clusterresolver.aws.access-key-id", AwsTestSupport.ACCESS_KEY);
      p.put("clusterresolver.aws.secret-access-key", AwsTestSupport.SECRET_KEY);
      p.put("clusterresolver.aws.shared-listing", "false");
      p.put("clusterresolver.aws.max-attempts", "1");
      p.put("clusterresolver.aws.timeout", "2s");
      String host = System.getProperty("https.proxyHost");
      String port = System.getProperty("https.proxyPort");
      System.setProperty("https.proxyHost", "127.0.0.1");
      System.setProperty("https.proxyPort", String.valueOf(proxy.getLocalPort()));
      try {
        assertThat(AwsResolverFactory.needsSdkClient(Ec2Calls.regionalEndpoint("us-east-1"), false, "standard"))
            .isTrue();
        Throwable thrown = catchThrowable(() -> ClusterResolvers.create("aws", p, Map.of()).clusterSpec());
        assertThat(thrown).isInstanceOf(ClusterResolverException.class);
      } finally {
        AwsTestSupport.restoreProperty("https.proxyHost", host);
        AwsTestSupport.restoreProperty("https.proxyPort", port);
      }
      assertThat(firstLine.get(10, TimeUnit.SECONDS)).as("what the proxy was asked")
          .startsWith("CONNECT ec2.us-east-1.amazonaws.com:443 ");
    }
  }

  /** Where our factory's SDK client sends {@code DescribeInstances} in {@code region}, with no endpoint override. */
  private static URI sentByOurClient(String region) {
    Map<String, String> p = Map.of("clusterresolver.aws.access-key-id", "AKIDEXAMPLE",
        "clusterresolver.aws.secret-access-key", "secret", "clusterresolver.aws.region", region);
    ResolverConfig config =
        ResolverConfig.resolve("aws", AwsProperties.ALL, PropertySources.withEnvironment(p, Map.of()));
    Recording http = new Recording();
    try (Ec2Client ours = AwsResolverFactory.sdkClient(config, region, null, "standard", 1, AnswerLimit.of(config),
        http)) {
      catchThrowable(() -> new SdkEc2(ours).describeInstances(List.of(), 5, null, Duration.ofSeconds(5), page -> { }));
    }
    return http.sent.get();
  }
}
