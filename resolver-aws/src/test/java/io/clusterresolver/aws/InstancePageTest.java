package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedInstance;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.xml.stream.XMLStreamException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceIpv6Address;
import software.amazon.awssdk.services.ec2.model.InstanceNetworkInterface;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * The StAX page reader against the SDK's own unmarshaller (the independent oracle): the same
 * answers, read both ways, give the same instances.
 */
class InstancePageTest {

  private static Ec2Client client(SimulatedEc2 ec2, boolean streaming) {
    return Ec2Client.builder()
        .endpointOverride(URI.create(ec2.endpoint().toString()))
        .region(Region.of(ec2.region()))
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .httpClient(UrlConnectionHttpClient.builder().build())
        .overrideConfiguration(o -> {
          if (streaming) {
            o.addExecutionInterceptor(new StreamingInstances());
          }
        })
        .build();
  }

  /** What the SDK model says of an instance, in the reader's terms. */
  private static InstancePage.Instance fromModel(Instance i) {
    Map<AddressType, String> addresses = new EnumMap<>(AddressType.class);
    put(addresses, AddressType.PRIVATE_IPV4, i.privateIpAddress());
    put(addresses, AddressType.PUBLIC_IPV4, i.publicIpAddress());
    put(addresses, AddressType.PRIVATE_DNS, i.privateDnsName());
    put(addresses, AddressType.PUBLIC_DNS, i.publicDnsName());
    String ipv6 = i.ipv6Address();
    if (ipv6 == null || ipv6.isEmpty()) {
      String primary = null;
      String first = null;
      for (InstanceNetworkInterface eni : i.networkInterfaces()) {
        for (InstanceIpv6Address a : eni.ipv6Addresses()) {
          if (Boolean.TRUE.equals(a.isPrimaryIpv6()) && primary == null) {
            primary = a.ipv6Address();
          }
          if (first == null) {
            first = a.ipv6Address();
          }
        }
      }
      ipv6 = primary != null ? primary : first;
    }
    put(addresses, AddressType.IPV6, ipv6);
    Map<String, String> tags = new LinkedHashMap<>();
    for (Tag t : i.tags()) {
      tags.put(t.key(), t.value());
    }
    return new InstancePage.Instance(i.instanceId(), i.state().nameAsString(), i.instanceTypeAsString(),
        i.launchTime(), tags, Map.copyOf(addresses));
  }

  private static void put(Map<AddressType, String> addresses, AddressType type, String value) {
    if (value != null && !value.isEmpty()) {
      addresses.put(type, value);
    }
  }

  @Test
  void readsWhatTheSdkReadsFromTheSameAnswers() {
    try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
      ec2.addTypical(0, 30, b -> b.tag("team", "ml & <infra>").tag("Name", "n\"1'"));
      ec2.add(SimulatedInstance.builder("i-0000000000000ipv6").ipv6("2600:1f18::1")
          .launchTime(Instant.parse("2026-02-01T10:00:00.123Z")).build());
      ec2.add(SimulatedInstance.builder("i-000000000000public").privateIpv4("10.9.0.1").publicIpv4("54.1.2.3")
          .privateDns("ip-10-9-0-1.ec2.internal").publicDns("ec2-54-1-2-3.compute-1.amazonaws.com")
          .launchTime(Instant.parse("2026-02-01T10:00:01Z")).build());
      ec2.add(SimulatedInstance.builder("i-00000000000pending").state(SimulatedInstance.State.PENDING)
          .launchTime(Instant.parse("2026-02-01T10:00:02Z")).build());
      ec2.add(SimulatedInstance.builder("i-000000000000000gone").state(SimulatedInstance.State.TERMINATED)
          .launchTime(Instant.parse("2026-02-01T10:00:03Z")).build());

      List<InstancePage.Instance> expected = new ArrayList<>();
      try (Ec2Client sdk = client(ec2, false)) {
        String token = null;
        do {
          String t = token;
          DescribeInstancesResponse page = sdk.describeInstances(r -> r.maxResults(7).nextToken(t));
          for (Reservation r : page.reservations()) {
            r.instances().forEach(i -> expected.add(fromModel(i)));
          }
          token = page.nextToken();
        } while (token != null);
      }

      List<InstancePage.Instance> streamed = new ArrayList<>();
      int pages = 0;
      try (Ec2Client streaming = client(ec2, true)) {
        String token = null;
        do {
          String t = token;
          AtomicReference<InstancePage> sink = new AtomicReference<>();
          DescribeInstancesResponse left = streaming.describeInstances(r -> r.maxResults(7).nextToken(t)
              .overrideConfiguration(c -> c.putExecutionAttribute(StreamingInstances.SINK, sink)));
          assertThat(left.reservations()).as("the SDK unmarshals an empty page instead").isEmpty();
          streamed.addAll(sink.get().instances());
          token = sink.get().nextToken();
          pages++;
        } while (token != null);
      }

      assertThat(expected).hasSize(34);
      assertThat(pages).isEqualTo(5);
      assertThat(streamed).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void aTruncatedOrForeignAnswerIsAnError() {
    String truncated = "<?xml version=\"1.0\"?><DescribeInstancesResponse><reservationSet><item><instancesSet><item>"
        + "<instanceId>i-1</instanceId>";
    assertThatThrownBy(() -> InstancePage.read(new ByteArrayInputStream(truncated.getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(XMLStreamException.class);
    String entity = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
        + "<DescribeInstancesResponse><nextToken>&e;</nextToken></DescribeInstancesResponse>";
    assertThatThrownBy(() -> InstancePage.read(new ByteArrayInputStream(entity.getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(XMLStreamException.class);
  }
}
