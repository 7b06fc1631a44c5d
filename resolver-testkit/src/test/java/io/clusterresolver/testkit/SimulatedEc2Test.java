package io.clusterresolver.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The simulation's wire format, checked with a plain HTTP client (the AWS SDK is exercised in resolver-aws). */
class SimulatedEc2Test {

  private static final String SIGNED = "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/ec2/aws4_request, "
      + "SignedHeaders=host, Signature=00";
  private final HttpClient http = HttpClient.newHttpClient();
  private SimulatedEc2 ec2;

  @BeforeEach
  void start() {
    ec2 = SimulatedEc2.start();
  }

  @AfterEach
  void stop() {
    ec2.close();
  }

  private HttpResponse<String> post(String form) throws Exception {
    return http.send(HttpRequest.newBuilder(ec2.endpoint()).header("Authorization", SIGNED)
        .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static int count(String body, String element) {
    Matcher m = Pattern.compile("<" + element + ">").matcher(body);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  @Test
  void paginatesFiltersAndValidatesMaxResults() throws Exception {
    ec2.addTypical(0, 12, b -> b.tag("team", "ml"));
    ec2.update(SimulatedInstance.typical(3).build().instanceId(), b -> b.tag("team", "web"));
    String base = "Action=DescribeInstances&Version=2016-11-15&Filter.1.Name=tag%3Ateam&Filter.1.Value.1=ml"
        + "&MaxResults=5";
    HttpResponse<String> first = post(base);
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.body()).contains("xmlns=\"" + SimulatedEc2.NAMESPACE + "\"").contains("<nextToken>");
    assertThat(count(first.body(), "instanceId")).isEqualTo(5);
    int total = count(first.body(), "instanceId");
    String token = first.body().replaceAll("(?s).*<nextToken>(.*)</nextToken>.*", "$1");
    int pages = 1;
    while (token != null) {
      HttpResponse<String> next = post(base + "&NextToken=" + token);
      total += count(next.body(), "instanceId");
      pages++;
      token = next.body().contains("<nextToken>")
          ? next.body().replaceAll("(?s).*<nextToken>(.*)</nextToken>.*", "$1") : null;
      assertThat(pages).isLessThan(10);
    }
    assertThat(total).isEqualTo(11);
    assertThat(pages).isEqualTo(3);
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(3);

    HttpResponse<String> tooMany = post("Action=DescribeInstances&Version=2016-11-15&MaxResults=1001");
    assertThat(tooMany.statusCode()).isEqualTo(400);
    assertThat(tooMany.body()).contains("<Code>InvalidParameterValue</Code>");
  }

  @Test
  void throttlingUsesEc2ErrorXmlAndFaultsCountDown() throws Exception {
    ec2.addTypical(0, 2, b -> b);
    ec2.inject(Fault.throttled().times(1));
    HttpResponse<String> throttled = post("Action=DescribeInstances&Version=2016-11-15");
    assertThat(throttled.statusCode()).isEqualTo(503);
    assertThat(throttled.body()).matches("(?s).*<Response><Errors><Error><Code>RequestLimitExceeded</Code>"
        + "<Message>[^<]+</Message></Error></Errors><RequestID>[0-9a-f-]{36}</RequestID></Response>.*");
    assertThat(post("Action=DescribeInstances&Version=2016-11-15").statusCode()).isEqualTo(200);
  }

  @Test
  void latencyIsAddedToApiCalls() throws Exception {
    ec2.latency(Duration.ofMillis(150));
    long start = System.nanoTime();
    post("Action=DescribeInstances&Version=2016-11-15");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(150));
  }

  @Test
  void instanceTypesReportAccelerators() throws Exception {
    String body = post("Action=DescribeInstanceTypes&Version=2016-11-15&InstanceType.1=p4d.24xlarge"
        + "&InstanceType.2=inf1.xlarge&InstanceType.3=trn1.32xlarge").body();
    assertThat(body).contains("<gpuInfo><gpus><item>").contains("<count>8</count>")
        .contains("<inferenceAcceleratorInfo><accelerators><member><count>1</count>")
        .contains("<neuronInfo><neuronDevices><item><count>16</count>");
  }

  @Test
  void imdsRequiresAToken() throws Exception {
    ec2.addTypical(0, 1, b -> b);
    ec2.identifyAs(SimulatedInstance.typical(0).build().instanceId());
    URI id = ec2.imdsEndpoint().resolve("/latest/meta-data/instance-id");
    assertThat(http.send(HttpRequest.newBuilder(id).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
        .isEqualTo(401);
    String token = http.send(HttpRequest.newBuilder(ec2.imdsEndpoint().resolve("/latest/api/token"))
        .header("x-aws-ec2-metadata-token-ttl-seconds", "60").PUT(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(id).header("x-aws-ec2-metadata-token", token)
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo(SimulatedInstance.typical(0).build().instanceId());
    String doc = http.send(HttpRequest.newBuilder(ec2.imdsEndpoint().resolve("/latest/dynamic/instance-identity/document"))
        .header("x-aws-ec2-metadata-token", token).build(), HttpResponse.BodyHandlers.ofString()).body();
    assertThat(doc).contains("\"region\" : \"us-east-1\"").contains("\"privateIp\" : \"10.0.0.0\"");
  }

  @Test
  void theRateLimitAnswersEc2sThrottlingErrorOnceTheBucketIsEmpty() throws Exception {
    ec2.addTypical(0, 3, b -> b);
    java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();
    ec2.rateLimit(TokenBucket.of(2, 1, now::get));
    String form = "Action=DescribeInstances&Version=2016-11-15";
    assertThat(post(form).statusCode()).isEqualTo(200);
    assertThat(post(form).statusCode()).isEqualTo(200);
    HttpResponse<String> throttled = post(form);
    assertThat(throttled.statusCode()).isEqualTo(503);
    assertThat(throttled.body()).contains("<Code>RequestLimitExceeded</Code>").contains("<RequestID>");
    now.addAndGet(1_000_000_000L);
    assertThat(post(form).statusCode()).isEqualTo(200);
    assertThat(ec2.throttledCount()).isEqualTo(1);
    assertThat(ec2.throttledCount("DescribeInstances")).isEqualTo(1);
    assertThat(ec2.throttledCount("DescribeInstanceTypes")).isZero();
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(4);
  }
}
