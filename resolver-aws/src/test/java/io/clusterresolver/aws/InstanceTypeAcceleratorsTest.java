package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.AnswerLimitException;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedInstanceType;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import javax.xml.stream.XMLStreamException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTypesResponse;
import software.amazon.awssdk.services.ec2.model.GpuDeviceInfo;
import software.amazon.awssdk.services.ec2.model.InferenceDeviceInfo;
import software.amazon.awssdk.services.ec2.model.InstanceTypeInfo;
import software.amazon.awssdk.services.ec2.model.NeuronDeviceInfo;

/**
 * The accelerators read from {@code DescribeInstanceTypes} answers against the SDK's own model of the same bytes
 * (counted by the rules of the former model path): on random answers (lists of several devices, counts missing,
 * zero, negative or not numbers, other lists' {@code count}s, types without a name, repeated types) and on the simulation's
 * catalog; truncated, foreign and entity-bearing answers are refused, and an answer over the limit names the limit.
 */
class InstanceTypeAcceleratorsTest {

  /** What the SDK model says of a type: GPUs, Neuron devices and inference accelerators, summed, if positive. */
  static Map<String, Integer> fromModel(InstanceTypeInfo info) {
    Map<String, Integer> devices = new TreeMap<>();
    if (info.gpuInfo() != null) {
      put(devices, "GPU", info.gpuInfo().gpus().stream().map(GpuDeviceInfo::count).filter(c -> c != null)
          .mapToInt(Integer::intValue).sum());
    }
    if (info.neuronInfo() != null) {
      put(devices, "NEURON", info.neuronInfo().neuronDevices().stream().map(NeuronDeviceInfo::count)
          .filter(c -> c != null).mapToInt(Integer::intValue).sum());
    }
    if (info.inferenceAcceleratorInfo() != null) {
      put(devices, "INFERENTIA", info.inferenceAcceleratorInfo().accelerators().stream()
          .map(InferenceDeviceInfo::count).filter(c -> c != null).mapToInt(Integer::intValue).sum());
    }
    return Map.copyOf(devices);
  }

  private static void put(Map<String, Integer> devices, String kind, int sum) {
    if (sum > 0) {
      devices.put(kind, sum);
    }
  }

  private static Map<String, Map<String, Integer>> fromModel(DescribeInstanceTypesResponse response) {
    Map<String, Map<String, Integer>> types = new LinkedHashMap<>();
    for (InstanceTypeInfo info : response.instanceTypes()) {
      if (info.instanceTypeAsString() != null) {
        types.put(info.instanceTypeAsString(), fromModel(info));
      }
    }
    return types;
  }

  @Test
  void readsWhatTheSdkModelSaysOnRandomAnswers() {
    InstancePageDifferentialTest.Canned http = new InstancePageDifferentialTest.Canned();
    try (Ec2Client sdk = InstancePageDifferentialTest.client(http, false);
        Ec2Client streaming = InstancePageDifferentialTest.client(http, true)) {
      int refused = 0;
      for (int seed = 0; seed < 300; seed++) {
        http.body = answer(new Random(seed));
        Map<String, Map<String, Integer>> expected;
        try {
          expected = fromModel(sdk.describeInstanceTypes(r -> r.instanceTypesWithStrings("x")));
        } catch (SdkClientException unreadable) { // a count that is not a number: the SDK refuses the answer
          refused++;
          assertThatThrownBy(() -> streaming.describeInstanceTypes(r -> r.instanceTypesWithStrings("x")
              .overrideConfiguration(c -> c.putExecutionAttribute(StreamingInstances.TYPES_SINK, read -> { })))).as("seed %d:%n%s", seed, http.body)
              .isInstanceOf(SdkClientException.class).hasMessageContaining("Unable to unmarshall");
          continue;
        }
        AtomicReference<InstanceTypeAccelerators> sink = new AtomicReference<>();
        streaming.describeInstanceTypes(r -> r.instanceTypesWithStrings("x")
            .overrideConfiguration(c -> c.putExecutionAttribute(StreamingInstances.TYPES_SINK, sink::set)));
        assertThat(sink.get().types()).as("seed %d:%n%s", seed, http.body).isEqualTo(expected);
      }
      assertThat(refused).as("answers both refuse").isBetween(1, 250);
    }
  }

  @Test
  void readsTheSimulationsCatalogAsTheSdkDoes() {
    try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
      ec2.defineInstanceType(SimulatedInstanceType.withGpus("p4d.24xlarge", 8, "A100"))
          .defineInstanceType(SimulatedInstanceType.withNeuronDevices("trn1.32xlarge", 16))
          .defineInstanceType(SimulatedInstanceType.withInferenceAccelerators("inf1.6xlarge", 4));
      List<String> names = List.of("p4d.24xlarge", "trn1.32xlarge", "inf1.6xlarge", "m5.large");
      try (Ec2Client sdk = client(ec2, false)) {
        Map<String, Map<String, Integer>> expected = fromModel(sdk.describeInstanceTypes(r -> r.instanceTypesWithStrings(names)));
        AtomicReference<InstanceTypeAccelerators> sink = new AtomicReference<>();
        try (Ec2Client streaming = client(ec2, true)) {
          streaming.describeInstanceTypes(r -> r.instanceTypesWithStrings(names)
              .overrideConfiguration(c -> c.putExecutionAttribute(StreamingInstances.TYPES_SINK, sink::set)));
        }
        assertThat(expected).containsEntry("p4d.24xlarge", Map.of("GPU", 8)).containsEntry("m5.large", Map.of());
        assertThat(sink.get().types()).isEqualTo(expected);
      }
    }
  }

  @Test
  void aTruncatedForeignOrEntityAnswerIsRefused() {
    String head = "<?xml version=\"1.0\"?><DescribeInstanceTypesResponse><instanceTypeSet><item>";
    String truncated = head + "<instanceType>p4d.24xlarge</instanceType>";
    String foreign = "<html><body>proxy error</body></html>";
    // An API answer has no DTD: an external entity is never resolved.
    String entity = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
        + "<DescribeInstanceTypesResponse><instanceTypeSet><item><instanceType>&e;</instanceType></item>"
        + "</instanceTypeSet></DescribeInstanceTypesResponse>";
    for (String body : List.of(truncated, foreign, entity)) {
      assertThatThrownBy(() -> InstanceTypeAccelerators.read(
          new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8))))
          .as(body).isInstanceOf(XMLStreamException.class);
    }
  }

  @Test
  void anAnswerOverTheLimitNamesTheLimit() {
    InstancePageDifferentialTest.Canned http = new InstancePageDifferentialTest.Canned();
    StringBuilder big = new StringBuilder("<?xml version=\"1.0\"?><DescribeInstanceTypesResponse><instanceTypeSet>");
    while (big.length() < 64 << 10) {
      big.append("<item><instanceType>m5.large</instanceType></item>");
    }
    http.body = big.append("</instanceTypeSet></DescribeInstanceTypesResponse>").toString();
    try (Ec2Client streaming = Ec2Client.builder()
        .endpointOverride(URI.create("http://127.0.0.1:1"))
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .httpClient(http)
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())
            .addExecutionInterceptor(new StreamingInstances(AnswerLimit.ofBytes(16 << 10), Duration.ofSeconds(30))))
        .build()) {
      // The JDK's parser keeps the stream's exception as its nested one: the limit is still what is reported.
      assertThatThrownBy(() -> streaming.describeInstanceTypes(r -> r.instanceTypesWithStrings("m5.large")
          .overrideConfiguration(c -> c.putExecutionAttribute(StreamingInstances.TYPES_SINK, read -> { }))))
          .isInstanceOf(SdkClientException.class)
          .hasCauseInstanceOf(AnswerLimitException.class);
    }
  }

  private static Ec2Client client(SimulatedEc2 ec2, boolean streaming) {
    return Ec2Client.builder()
        .endpointOverride(ec2.endpoint())
        .region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(AwsTestSupport.ACCESS_KEY, AwsTestSupport.SECRET_KEY)))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(o -> {
          if (streaming) {
            o.addExecutionInterceptor(new StreamingInstances(AnswerLimit.ofBytes(1 << 20), Duration.ofSeconds(10)));
          }
        })
        .build();
  }

  // ---- random answers ----

  private static String count(Random random) {
    return switch (random.nextInt(12)) {
      case 0 -> random.nextBoolean() ? "" : "x";
      case 1 -> "0";
      case 2 -> "-" + random.nextInt(3);
      default -> String.valueOf(1 + random.nextInt(16));
    };
  }

  private static void devices(StringBuilder xml, Random random, String info, String list, String member) {
    if (random.nextInt(3) == 0) {
      return;
    }
    xml.append('<').append(info).append("><").append(list).append('>');
    int n = random.nextInt(3);
    for (int i = 0; i < n; i++) {
      xml.append('<').append(member).append("><name>d</name>");
      if (random.nextInt(4) > 0) {
        xml.append("<count>").append(count(random)).append("</count>");
      }
      xml.append("<memoryInfo><sizeInMiB>1</sizeInMiB></memoryInfo>");
      if (random.nextInt(5) == 0) {
        xml.append("<coreInfo><count>7</count></coreInfo>"); // a count of something else
      }
      xml.append("</").append(member).append('>');
    }
    xml.append("</").append(list).append("><total>3</total></").append(info).append('>');
  }

  static String answer(Random random) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DescribeInstanceTypesResponse"
        + " xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"><requestId>r</requestId><instanceTypeSet>");
    int n = random.nextInt(5);
    String[] names = {"p4d.24xlarge", "trn1.2xlarge", "inf1.xlarge", "m5.large", "g5.xlarge"};
    for (int i = 0; i < n; i++) {
      xml.append("<item>");
      if (random.nextInt(6) > 0) {
        xml.append("<instanceType>").append(names[random.nextInt(names.length)]).append("</instanceType>");
      }
      xml.append("<vCpuInfo><defaultVCpus>4</defaultVCpus><validCores><item>2</item></validCores></vCpuInfo>");
      devices(xml, random, "gpuInfo", "gpus", "item");
      devices(xml, random, "neuronInfo", "neuronDevices", "item");
      devices(xml, random, "inferenceAcceleratorInfo", "accelerators", "member");
      xml.append("</item>");
    }
    return xml.append("</instanceTypeSet></DescribeInstanceTypesResponse>").toString();
  }
}
