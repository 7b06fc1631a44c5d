package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.RecordingProxy;
import io.clusterresolver.testkit.SimulatedEc2;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.ec2.Ec2Client;

/**
 * What the SDK's own settings ask of the endpoint and the connection, without the SDK's {@code Ec2Client}: a FIPS or
 * dual-stack endpoint (variable, system property, profile) from the regions module's table, and the JDK's
 * {@code https.proxyHost}, which the calls' connections follow. The oracle is an {@code Ec2Client} given the same
 * flags on its builder: its endpoint rules.
 */
class Ec2EndpointVariantTest {

  @ParameterizedTest
  @CsvSource({
      "us-east-1, true, false", "us-east-1, false, true", "us-east-1, true, true",
      "us-gov-west-1, true, false", "us-gov-west-1, false, true", "us-gov-west-1, true, true",
      "cn-north-1, true, false", "cn-north-1, false, true", "cn-north-1, true, true",
      "eu-central-2, true, false", "eu-central-2, false, true", "ca-west-1, true, true",
      "ap-southeast-5, false, true"})
  void aFipsOrDualstackEndpointIsTheSdkClientsOne(String region, boolean fips, boolean dualstack) {
    assertThat(Ec2Calls.regionalEndpoint(region, fips, dualstack))
        .isEqualTo(Ec2EndpointTest.sentBy(Ec2Client.builder().fipsEnabled(fips).dualstackEnabled(dualstack), region));
  }

  @ParameterizedTest
  @CsvSource({"us-east-1, aws.useFipsEndpoint", "us-gov-west-1, aws.useDualstackEndpoint"})
  void aFlagAskedByASystemPropertyChoosesTheEndpoint(String region, String property) {
    assumeThat(neitherAsked()).as("neither asked for by this machine's settings").isTrue();
    boolean fips = property.equals("aws.useFipsEndpoint");
    URI expected = Ec2EndpointTest.sentBy(Ec2Client.builder().fipsEnabled(fips).dualstackEnabled(!fips), region);
    String before = System.getProperty(property);
    System.setProperty(property, "true");
    try {
      assertThat(AwsResolverFactory.regionalEndpoint(region)).isEqualTo(expected);
    } finally {
      AwsTestSupport.restoreProperty(property, before);
    }
  }

  @Test
  void dualstackAskedByTheProfileChoosesTheEndpoint(@TempDir Path dir) throws IOException {
    assumeThat(neitherAsked()).as("neither asked for by this machine's settings").isTrue();
    assumeThat(System.getenv("AWS_PROFILE")).isNull();
    URI expected = Ec2EndpointTest.sentBy(Ec2Client.builder().dualstackEnabled(true), "eu-central-2");
    Path config = Files.writeString(dir.resolve("config"), "[default]\nuse_dualstack_endpoint = true\n");
    String before = System.getProperty("aws.configFile");
    System.setProperty("aws.configFile", config.toString());
    try {
      assertThat(AwsResolverFactory.regionalEndpoint("eu-central-2")).isEqualTo(expected);
    } finally {
      AwsTestSupport.restoreProperty("aws.configFile", before);
    }
  }

  /** Whether this machine's own SDK settings ask for neither a FIPS nor a dual-stack endpoint. */
  private static boolean neitherAsked() {
    return AwsResolverFactory.regionalEndpoint("us-east-1").equals(Ec2Calls.regionalEndpoint("us-east-1"));
  }

  @Test
  void aFlagThatIsNotABooleanIsAConfigurationError() {
    assumeThat(neitherAsked()).as("neither asked for by this machine's settings").isTrue();
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
    try (SimulatedEc2 imds = SimulatedEc2.start(); RecordingProxy proxy = RecordingProxy.refusing()) {
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
      System.setProperty("https.proxyPort", String.valueOf(proxy.port()));
      try {
        Throwable thrown = catchThrowable(() -> ClusterResolvers.create("aws", p, Map.of()).clusterSpec());
        assertThat(thrown).isInstanceOf(ClusterResolverException.class);
      } finally {
        AwsTestSupport.restoreProperty("https.proxyHost", host);
        AwsTestSupport.restoreProperty("https.proxyPort", port);
      }
      assertThat(proxy.take()).as("what the proxy was asked").first().asString()
          .startsWith("CONNECT ec2.us-east-1.amazonaws.com:443 ");
    }
  }
}
