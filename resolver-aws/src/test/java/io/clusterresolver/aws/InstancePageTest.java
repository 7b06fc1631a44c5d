package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedInstance;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import javax.xml.stream.XMLStreamException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.Reservation;

/**
 * The StAX page reader against randomized simulated fleets: what it reads equals the fleet's own
 * fields (computed here from {@link SimulatedInstance}), and equals what the SDK's own unmarshaller
 * reads from the same answers.
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
            o.addExecutionInterceptor(new StreamingInstances(AnswerLimit.ofBytes(64L << 20), Duration.ofSeconds(30)));
          }
        })
        .build();
  }

  private static final String[] TEXT = {"a", "Z", "0", "-", " ", "&", "<", ">", "\"", "'", "é", "名", "&amp;", "]]>"};

  private static String text(Random random) {
    StringBuilder s = new StringBuilder();
    for (int i = 0, n = 1 + random.nextInt(8); i < n; i++) {
      s.append(TEXT[random.nextInt(TEXT.length)]);
    }
    return s.toString();
  }

  /** A random fleet: every address type present or not, tags with XML's special characters, every state. */
  private static void randomFleet(SimulatedEc2 ec2, Random random, int n) {
    SimulatedInstance.State[] states = SimulatedInstance.State.values();
    for (int k = 0; k < n; k++) {
      SimulatedInstance.Builder b = SimulatedInstance.builder(String.format("i-%017x", random.nextLong() & 0xfffffffffffL))
          .state(states[random.nextInt(states.length)])
          .instanceType(random.nextBoolean() ? "m5.large" : "p4d.24xlarge")
          .launchTime(Instant.parse("2026-01-01T00:00:00Z").plusMillis(random.nextInt(1_000_000_000)));
      b.privateIpv4(random.nextInt(4) == 0 ? null : "10.1." + random.nextInt(256) + "." + random.nextInt(256));
      b.publicIpv4(random.nextBoolean() ? null : "54.2." + random.nextInt(256) + "." + random.nextInt(256));
      b.privateDns(random.nextInt(4) == 0 ? null : "ip-" + k + ".ec2.internal");
      b.publicDns(random.nextBoolean() ? null : "ec2-" + k + ".compute-1.amazonaws.com");
      b.ipv6(random.nextBoolean() ? null : "2600:1f18::" + Integer.toHexString(k + 1));
      for (int t = random.nextInt(4); t > 0; t--) {
        b.tag(random.nextInt(3) == 0 ? "Name" : text(random), random.nextInt(6) == 0 ? "" : text(random));
      }
      ec2.add(b.build());
    }
  }

  /** What the fleet says an instance is, from the simulation's own fields. */
  private static InstancePage.Instance fromFleet(SimulatedInstance i) {
    Map<AddressType, String> addresses = new EnumMap<>(AddressType.class);
    i.privateIpv4().ifPresent(a -> addresses.put(AddressType.PRIVATE_IPV4, a));
    i.publicIpv4().ifPresent(a -> addresses.put(AddressType.PUBLIC_IPV4, a));
    i.privateDns().ifPresent(a -> addresses.put(AddressType.PRIVATE_DNS, a));
    i.publicDns().ifPresent(a -> addresses.put(AddressType.PUBLIC_DNS, a));
    i.ipv6().ifPresent(a -> addresses.put(AddressType.IPV6, a));
    return new InstancePage.Instance(i.instanceId(), i.state().apiName(), i.instanceType(),
        i.launchTime().truncatedTo(ChronoUnit.MILLIS), i.tags(), Map.copyOf(addresses));
  }

  @Test
  void readsTheFleetAndWhatTheSdkReadsOnRandomFleets() {
    for (int seed = 0; seed < 6; seed++) {
      Random random = new Random(seed);
      try (SimulatedEc2 ec2 = SimulatedEc2.start();
          Ec2Client sdk = client(ec2, false);
          Ec2Client streaming = client(ec2, true)) {
        int n = random.nextInt(60);
        randomFleet(ec2, random, n);
        int pageSize = 5 + random.nextInt(20);

        List<InstancePage.Instance> bySdk = new ArrayList<>();
        String token = null;
        do {
          String t = token;
          DescribeInstancesResponse page = sdk.describeInstances(r -> r.maxResults(pageSize).nextToken(t));
          for (Reservation r : page.reservations()) {
            r.instances().forEach(i -> bySdk.add(InstancePageDifferentialTest.fromModel(i)));
          }
          token = page.nextToken();
        } while (token != null);

        List<InstancePage.Instance> streamed = new ArrayList<>();
        int pages = 0;
        token = null;
        do {
          String t = token;
          AtomicReference<InstancePage> sink = new AtomicReference<>();
          DescribeInstancesResponse left = streaming.describeInstances(r -> r.maxResults(pageSize).nextToken(t)
              .overrideConfiguration(c -> c.putExecutionAttribute(StreamingInstances.SINK, sink::set)));
          assertThat(left.reservations()).as("the SDK unmarshals an empty page instead").isEmpty();
          streamed.addAll(sink.get().instances());
          token = sink.get().nextToken();
          pages++;
        } while (token != null);

        List<InstancePage.Instance> fleet = new ArrayList<>();
        ec2.instances().forEach(i -> fleet.add(fromFleet(i)));
        assertThat(streamed).as("seed %d", seed).containsExactlyElementsOf(fleet);
        assertThat(streamed).as("seed %d", seed).containsExactlyElementsOf(bySdk);
        assertThat(pages).isEqualTo(Math.max(1, (n + pageSize - 1) / pageSize));
      }
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
    String noId = "<?xml version=\"1.0\"?><DescribeInstancesResponse><reservationSet><item><instancesSet><item>"
        + "<instanceType>m5.large</instanceType></item></instancesSet></item></reservationSet></DescribeInstancesResponse>";
    assertThatThrownBy(() -> InstancePage.read(new ByteArrayInputStream(noId.getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(XMLStreamException.class).hasMessageContaining("instanceId");
  }

  /** The JDK's ISO-8601 formatter: the oracle of the launch-time reading, whatever form a time comes in. */
  private static Instant byFormatter(String text) {
    try {
      return java.time.OffsetDateTime.parse(text.trim(), java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME)
          .toInstant();
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }

  private static Instant read(String text) {
    try {
      return InstancePage.instant(text);
    } catch (XMLStreamException e) {
      return null;
    }
  }

  @Test
  void launchTimesReadAsTheIsoFormatterReadsThem() {
    Random random = new Random(23);
    List<String> times = new ArrayList<>(List.of("2026-11-27T04:00:00.000Z", "2026-11-27T04:00:00Z",
        " 2024-02-29T23:59:59.999Z ", "2023-02-29T00:00:00.000Z", "2026-13-01T00:00:00.000Z",
        "2026-00-10T00:00:00.000Z", "2026-01-01T24:00:00.000Z", "2026-01-01T00:60:00.000Z",
        "2026-01-01T00:00:60.000Z", "2026-01-01T00:00:00.000+02:00", "2026-01-01T00:00:00.5Z",
        "2026-01-01T00:00:00.123456Z", "2026-01-01T00:00:00,000Z", "2026-01-01 00:00:00.000Z",
        "2026-1-01T00:00:00.000Z", "+026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.00aZ", "", "yesterday"));
    for (int i = 0; i < 2_000; i++) {
      Instant t = Instant.ofEpochMilli(random.nextLong() % 4_000_000_000_000L + 1_000_000_000_000L);
      times.add(t.toString()); // with milliseconds unless they are 0
      times.add(t.truncatedTo(ChronoUnit.SECONDS) + "");
      times.add(java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
          .format(t.atOffset(java.time.ZoneOffset.UTC))); // EC2's form: always milliseconds
    }
    for (String time : times) {
      assertThat(read(time)).as(time).isEqualTo(byFormatter(time));
    }
    assertThatThrownBy(() -> InstancePage.instant("2023-02-29T00:00:00.000Z"))
        .isInstanceOf(XMLStreamException.class).hasMessageContaining("launchTime '2023-02-29T00:00:00.000Z'");
  }
}
