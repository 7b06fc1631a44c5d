package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.AnswerLimit;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceIpv6Address;
import software.amazon.awssdk.services.ec2.model.InstanceNetworkInterface;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * Randomized answers in shapes the simulation never sends (IPv6 only on network interfaces, primary
 * or not, fields missing or empty, a network interface's own addresses, tags whose value comes first,
 * escapes and non-ASCII text, offsets in timestamps): the SDK's model unmarshalling of each answer is
 * the oracle for what the streaming reader must keep.
 */
class InstancePageDifferentialTest {

  /** An HTTP client that answers every request with the same canned body. */
  static final class Canned implements SdkHttpClient {
    volatile String body;

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      return new ExecutableHttpRequest() {
        @Override
        public HttpExecuteResponse call() {
          return HttpExecuteResponse.builder()
              .response(SdkHttpResponse.builder().statusCode(200).putHeader("Content-Type", "text/xml;charset=UTF-8")
                  .putHeader("x-amzn-RequestId", "00000000-0000-0000-0000-000000000000").build())
              .responseBody(AbortableInputStream.create(new ByteArrayInputStream(bytes)))
              .build();
        }

        @Override
        public void abort() {}
      };
    }

    @Override
    public void close() {}
  }

  static Ec2Client client(Canned http, boolean streaming) {
    return Ec2Client.builder()
        .endpointOverride(java.net.URI.create("http://127.0.0.1:1"))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .httpClient(http)
        .overrideConfiguration(o -> {
          o.retryStrategy(AwsRetryStrategy.doNotRetry()); // an answer is the same on every attempt
          if (streaming) {
            o.addExecutionInterceptor(new StreamingInstances(AnswerLimit.ofBytes(64L << 20), Duration.ofSeconds(30)));
          }
        })
        .build();
  }

  @Test
  void theStreamingReaderKeepsWhatTheSdkModelSaysOnRandomAnswers() {
    Canned http = new Canned();
    try (Ec2Client sdk = client(http, false); Ec2Client streaming = client(http, true)) {
      for (int seed = 0; seed < 300; seed++) {
        Random random = new Random(seed);
        http.body = answer(random);

        DescribeInstancesResponse model = sdk.describeInstances(r -> r.maxResults(1000));
        List<InstancePage.Instance> expected = new ArrayList<>();
        for (Reservation r : model.reservations()) {
          for (Instance i : r.instances()) {
            expected.add(fromModel(i));
          }
        }

        AtomicReference<InstancePage> sink = new AtomicReference<>();
        streaming.describeInstances(r -> r.maxResults(1000)
            .overrideConfiguration(c -> c.putExecutionAttribute(StreamingInstances.SINK, sink::set)));
        InstancePage page = sink.get();

        assertThat(page.instances()).as("seed %d:%n%s", seed, http.body).containsExactlyElementsOf(expected);
        String token = model.nextToken() == null || model.nextToken().isEmpty() ? null : model.nextToken();
        assertThat(page.nextToken()).as("seed %d", seed).isEqualTo(token);
      }
    }
  }

  /** What the SDK model says of an instance, in the reader's terms (the rules of the former model path). */
  static InstancePage.Instance fromModel(Instance i) {
    Map<AddressType, String> addresses = new EnumMap<>(AddressType.class);
    put(addresses, AddressType.PRIVATE_IPV4, i.privateIpAddress());
    put(addresses, AddressType.PUBLIC_IPV4, i.publicIpAddress());
    put(addresses, AddressType.PRIVATE_DNS, i.privateDnsName());
    put(addresses, AddressType.PUBLIC_DNS, i.publicDnsName());
    String ipv6 = i.ipv6Address();
    if (ipv6 == null || ipv6.isEmpty()) {
      ipv6 = null;
      String first = null;
      for (InstanceNetworkInterface eni : i.networkInterfaces()) {
        for (InstanceIpv6Address a : eni.ipv6Addresses()) {
          if (a.ipv6Address() == null || a.ipv6Address().isEmpty()) {
            continue;
          }
          if (Boolean.TRUE.equals(a.isPrimaryIpv6()) && ipv6 == null) {
            ipv6 = a.ipv6Address();
          }
          if (first == null) {
            first = a.ipv6Address();
          }
        }
      }
      ipv6 = ipv6 != null ? ipv6 : first;
    }
    put(addresses, AddressType.IPV6, ipv6);
    Map<String, String> tags = new LinkedHashMap<>();
    for (Tag t : i.tags()) {
      if (t.key() != null) {
        tags.put(t.key(), t.value() == null ? "" : t.value());
      }
    }
    return new InstancePage.Instance(i.instanceId(), i.state() == null ? null : i.state().nameAsString(),
        i.instanceTypeAsString(), i.launchTime(), tags, Map.copyOf(addresses));
  }

  private static void put(Map<AddressType, String> addresses, AddressType type, String value) {
    if (value != null && !value.isEmpty()) {
      addresses.put(type, value);
    }
  }

  // ---- random answers ----

  private static final String[] TEXT = {"a", "Z", "9", "-", "_", " ", "&", "<", ">", "\"", "'", "é", "名", "😀", ":", "/", "="};

  private static String text(Random random, int max) {
    StringBuilder s = new StringBuilder();
    int n = 1 + random.nextInt(max);
    for (int i = 0; i < n; i++) {
      s.append(TEXT[random.nextInt(TEXT.length)]);
    }
    return s.toString();
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
        .replace("'", "&apos;");
  }

  /** An element with text, sometimes empty, sometimes as CDATA. */
  private static void element(StringBuilder xml, Random random, String name, String value) {
    if (value.isEmpty() && random.nextBoolean()) {
      xml.append('<').append(name).append("/>");
    } else if (random.nextInt(8) == 0 && !value.contains("]]>")) {
      xml.append('<').append(name).append("><![CDATA[").append(value).append("]]></").append(name).append('>');
    } else {
      xml.append('<').append(name).append('>').append(esc(value)).append("</").append(name).append('>');
    }
  }

  private static void maybe(StringBuilder xml, Random random, String name, String value) {
    int dice = random.nextInt(4);
    if (dice == 0) {
      return; // missing
    }
    element(xml, random, name, dice == 1 ? "" : value);
  }

  private static String ipv6(Random random) {
    return String.format("2600:1f18:%x::%x", random.nextInt(65536), random.nextInt(65536));
  }

  static String answer(Random random) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DescribeInstancesResponse xmlns=\""
        + "http://ec2.amazonaws.com/doc/2016-11-15/\"><requestId>59dbff89-35bd-4eac-99ed-be587EXAMPLE</requestId>"
        + "<reservationSet>");
    int reservations = random.nextInt(4);
    int id = 0;
    for (int r = 0; r < reservations; r++) {
      xml.append("<item><reservationId>r-").append(r).append("</reservationId><ownerId>123456789012</ownerId><groupSet/>")
          .append("<instancesSet>");
      int instances = random.nextInt(4);
      for (int n = 0; n < instances; n++) {
        xml.append("<item>");
        element(xml, random, "instanceId", "i-" + Integer.toHexString(random.nextInt()) + "-" + id++);
        xml.append("<imageId>ami-0abcdef1234567890</imageId>");
        if (random.nextInt(5) > 0) {
          String[] states = {"pending", "running", "stopped", "terminated"};
          xml.append("<instanceState><code>16</code><name>").append(states[random.nextInt(states.length)])
              .append("</name></instanceState>");
        }
        maybe(xml, random, "privateDnsName", "ip-10-0-0-" + random.nextInt(255) + ".ec2.internal");
        maybe(xml, random, "dnsName", "ec2-54-0-0-" + random.nextInt(255) + ".compute-1.amazonaws.com");
        if (random.nextInt(5) > 0) {
          xml.append("<instanceType>").append(random.nextBoolean() ? "m5.large" : "p4d.24xlarge").append("</instanceType>");
        }
        if (random.nextInt(5) > 0) {
          String[] times = {"2026-02-01T10:00:00.000Z", "2026-02-01T10:00:00Z", "2026-03-04T05:06:07.891Z"};
          xml.append("<launchTime>").append(times[random.nextInt(times.length)]).append("</launchTime>");
        }
        xml.append("<placement><availabilityZone>us-east-1a</availabilityZone></placement>");
        maybe(xml, random, "privateIpAddress", "10.0." + random.nextInt(255) + "." + random.nextInt(255));
        maybe(xml, random, "ipAddress", "54.1." + random.nextInt(255) + "." + random.nextInt(255));
        if (random.nextInt(3) == 0) {
          xml.append("<tagSet>");
          int tags = random.nextInt(4);
          for (int t = 0; t < tags; t++) {
            String key = random.nextInt(4) == 0 ? "Name" : text(random, 6);
            String value = random.nextInt(5) == 0 ? "" : text(random, 12);
            xml.append("<item>");
            if (random.nextInt(4) == 0) {
              element(xml, random, "value", value);
              element(xml, random, "key", key);
            } else {
              element(xml, random, "key", key);
              element(xml, random, "value", value);
            }
            xml.append("</item>");
          }
          xml.append("</tagSet>");
        }
        if (random.nextBoolean()) {
          xml.append("<networkInterfaceSet>");
          int enis = random.nextInt(3);
          for (int e = 0; e < enis; e++) {
            xml.append("<item><networkInterfaceId>eni-").append(e).append("</networkInterfaceId>")
                // A network interface's own fields never stand in for the instance's.
                .append("<privateIpAddress>10.99.0.").append(e).append("</privateIpAddress>")
                .append("<privateDnsName>eni-").append(e).append(".internal</privateDnsName>")
                .append("<association><publicIp>3.3.3.").append(e).append("</publicIp><ipOwnerId>amazon</ipOwnerId>")
                .append("</association><privateIpAddressesSet><item><privateIpAddress>10.98.0.").append(e)
                .append("</privateIpAddress><primary>true</primary></item></privateIpAddressesSet>");
            if (random.nextBoolean()) {
              xml.append("<ipv6AddressesSet>");
              int addresses = random.nextInt(3);
              for (int a = 0; a < addresses; a++) {
                xml.append("<item>");
                int flag = random.nextInt(3);
                if (flag == 0 && random.nextBoolean()) {
                  xml.append("<isPrimaryIpv6>true</isPrimaryIpv6>");
                }
                maybe(xml, random, "ipv6Address", ipv6(random));
                if (flag == 1) {
                  xml.append("<isPrimaryIpv6>").append(random.nextBoolean()).append("</isPrimaryIpv6>");
                }
                xml.append("</item>");
              }
              xml.append("</ipv6AddressesSet>");
            }
            xml.append("<tagSet><item><key>eni-tag</key><value>not the instance's</value></item></tagSet>");
            xml.append("</item>");
          }
          xml.append("</networkInterfaceSet>");
        }
        if (random.nextInt(3) == 0) {
          maybe(xml, random, "ipv6Address", ipv6(random));
        }
        xml.append("</item>");
      }
      xml.append("</instancesSet></item>");
    }
    xml.append("</reservationSet>");
    if (random.nextInt(5) == 0) {
      xml.append("<nextToken/>");
    } else if (random.nextBoolean()) {
      xml.append("<nextToken>").append(esc("eyJ2IjoxLCJjIjoi" + text(random, 10))).append("</nextToken>");
    }
    xml.append("</DescribeInstancesResponse>");
    return xml.toString();
  }
}
