package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.ApiErrorException;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.testkit.RecordingHttpServer;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;

/**
 * The provider's EC2 requests ({@link Ec2Calls}) are the requests the SDK's own {@code Ec2Client} sends (the
 * independent implementation): both are sent to one loopback server, which records them with their bodies, and
 * compared — method, path, body parameters in order, content type, signed header names and credential scope — and
 * each one's signature is checked against the SDK's signer for the request as it came on the wire (its
 * {@code x-amz-date}, the same credentials). EC2's error answers are read as the SDK's client reads them.
 */
class Ec2CallsRequestTest {

  private static final AwsCredentialsProvider CREDENTIALS = StaticCredentialsProvider.create(
      AwsSessionCredentials.create(AwsTestSupport.ACCESS_KEY, AwsTestSupport.SECRET_KEY, "session/token+="));
  private static final String INSTANCES = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      + "<DescribeInstancesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"><requestId>r-1</requestId>"
      + "<reservationSet><item><reservationId>r-1</reservationId><instancesSet><item><instanceId>i-1</instanceId>"
      + "<privateIpAddress>10.0.0.1</privateIpAddress></item></instancesSet></item></reservationSet>"
      + "</DescribeInstancesResponse>";
  private static final String TYPES = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      + "<DescribeInstanceTypesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\"><requestId>r-2</requestId>"
      + "<instanceTypeSet><item><instanceType>p4d.24xlarge</instanceType><gpuInfo><gpus><item><count>8</count>"
      + "</item></gpus></gpuInfo></item></instanceTypeSet></DescribeInstanceTypesResponse>";

  private RecordingHttpServer server;
  private final List<String> bodies = new CopyOnWriteArrayList<>();
  /** The error answer to send, or {@code null} for a 200. */
  private final AtomicReference<String> error = new AtomicReference<>();

  @BeforeEach
  void start() throws IOException {
    server = RecordingHttpServer.start((request, exchange) -> {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      bodies.add(body);
      String failure = error.get();
      if (failure != null) {
        RecordingHttpServer.send(exchange, 503, Map.of("Content-Type", "text/xml;charset=UTF-8",
            "x-amzn-RequestId", "header-request-id"), failure.getBytes(StandardCharsets.UTF_8));
        return;
      }
      String answer = body.startsWith("Action=DescribeInstanceTypes&") ? TYPES : INSTANCES;
      RecordingHttpServer.send(exchange, 200, Map.of("Content-Type", "text/xml;charset=UTF-8",
          "x-amzn-RequestId", "00000000-0000-0000-0000-000000000000"), answer.getBytes(StandardCharsets.UTF_8));
    });
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Ec2Calls ours() {
    return new Ec2Calls(server.uri(), "eu-central-2", CREDENTIALS, AnswerLimit.ofBytes(1 << 20), Clock.systemUTC(), 3,
        Ec2Proxies.fromSettings());
  }

  private Ec2Client sdk() {
    return Ec2Client.builder().region(Region.of("eu-central-2")).endpointOverride(server.uri())
        .credentialsProvider(CREDENTIALS).httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(o -> o.retryStrategy(RetryMode.STANDARD)).build();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "page 2/of 3+=*~"})
  void describeInstancesIsTheRequestOfTheSdksClient(String token) {
    List<Ec2Filter> filters = List.of(new Ec2Filter("tag:cluster", List.of("bench ü*")),
        new Ec2Filter("instance-state-name", List.of("running", "pending")),
        new Ec2Filter("availability-zone", List.of("eu-central-2a")));
    String next = token.isEmpty() ? null : token;
    List<InstancePage> read = new ArrayList<>();
    InstancePage page = ours().describeInstances(filters, 50, next, Duration.ofSeconds(10), read::add);
    assertThat(read).containsExactly(page);
    assertThat(page.instances()).extracting(InstancePage.Instance::id).containsExactly("i-1");
    try (Ec2Client sdk = sdk()) {
      sdk.describeInstances(r -> r.maxResults(50).nextToken(next).filters(filters.stream()
          .map(f -> Filter.builder().name(f.name()).values(f.values()).build()).toList()));
    }
    sameRequests("DescribeInstances");
    assertThat(parameters(bodies.get(0))).contains("Filter.1.Name=tag%3Acluster", "Filter.1.Value.1=bench+%C3%BC*",
        "Filter.2.Value.2=pending", "MaxResults=50");
  }

  @Test
  void describeInstanceTypesIsTheRequestOfTheSdksClient() {
    InstanceTypeAccelerators ours = ours().describeInstanceTypes(List.of("p4d.24xlarge", "c5.xlarge"),
        Duration.ofSeconds(10));
    assertThat(ours.types()).containsEntry("p4d.24xlarge", Map.of("GPU", 8));
    try (Ec2Client sdk = sdk()) {
      sdk.describeInstanceTypes(r -> r.instanceTypesWithStrings("p4d.24xlarge", "c5.xlarge"));
    }
    sameRequests("DescribeInstanceTypes");
  }

  private void sameRequests(String action) {
    assertThat(server.requests()).hasSize(2);
    RecordingHttpServer.Request ours = server.requests().get(0);
    RecordingHttpServer.Request sdks = server.requests().get(1);
    assertThat(ours.method()).isEqualTo(sdks.method()).isEqualTo("POST");
    assertThat(ours.path()).isEqualTo(sdks.path()).isEqualTo("/");
    assertThat(ours.query()).isEqualTo(sdks.query()).isNull();
    assertThat(parameters(bodies.get(0))).isEqualTo(parameters(bodies.get(1)))
        .startsWith("Action=" + action, "Version=2016-11-15");
    assertThat(ours.header("Content-Type")).isEqualTo(sdks.header("Content-Type"))
        .isEqualTo("application/x-www-form-urlencoded; charset=utf-8");
    assertThat(signedHeaders(ours)).isEqualTo(signedHeaders(sdks)).contains("host", "x-amz-date",
        "x-amz-security-token");
    assertThat(scope(ours)).isEqualTo(scope(sdks)).endsWith("/eu-central-2/ec2/aws4_request");
    assertThat(ours.header("amz-sdk-request")).isEqualTo(sdks.header("amz-sdk-request"));
    assertThat(ours.header("User-Agent")).startsWith(sdks.header("User-Agent").split(" ")[0]);
    assertThat(ours.header("X-Amz-Security-Token")).isEqualTo(sdks.header("X-Amz-Security-Token"));
    for (int i = 0; i < 2; i++) {
      RecordingHttpServer.Request request = server.requests().get(i);
      assertThat(request.header("Authorization")).as("request %d's signature", i)
          .isEqualTo(resigned(request, bodies.get(i)));
    }
  }

  /**
   * The Authorization header the SDK's signer writes for {@code request} as it came on the wire, at its
   * {@code x-amz-date}, with the same credentials.
   */
  private static String resigned(RecordingHttpServer.Request request, String body) {
    Instant at = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssX").parse(request.header("x-amz-date"), Instant::from);
    SdkHttpRequest.Builder unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.fromValue(request.method()))
        .uri(URI.create("http://" + request.header("Host") + request.path()));
    for (String name : signedHeaders(request)) {
      if (!name.equals("x-amz-date") && !name.equals("x-amz-security-token")) {
        unsigned.putHeader(name, request.headers().get(name));
      }
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return AwsV4HttpSigner.create().sign(r -> r.identity(CREDENTIALS.resolveCredentials()).request(unsigned.build())
        .payload(ContentStreamProvider.fromByteArray(bytes))
        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "ec2")
        .putProperty(AwsV4HttpSigner.REGION_NAME, "eu-central-2")
        .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC)))
        .request().firstMatchingHeader("Authorization").orElseThrow();
  }

  private static List<String> parameters(String body) {
    return Arrays.asList(body.split("&"));
  }

  private static List<String> signedHeaders(RecordingHttpServer.Request request) {
    String authorization = request.header("Authorization");
    int from = authorization.indexOf("SignedHeaders=") + "SignedHeaders=".length();
    return Arrays.asList(authorization.substring(from, authorization.indexOf(',', from)).split(";"));
  }

  /** The credential's scope: key, date, region, service. */
  private static String scope(RecordingHttpServer.Request request) {
    String authorization = request.header("Authorization");
    int from = authorization.indexOf("Credential=") + "Credential=".length();
    return authorization.substring(from, authorization.indexOf(',', from));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Response><Errors><Error><Code>RequestLimitExceeded</Code>"
          + "<Message>Request limit exceeded.</Message></Error></Errors><RequestID>5f1c-1</RequestID></Response>",
      "<Response><Errors><Error><Message>first &amp; only</Message><Code>Unavailable</Code></Error></Errors>"
          + "<RequestID>5f1c-2</RequestID></Response>",
      "<Response><Errors><Error><Code>InternalError</Code></Error></Errors></Response>"})
  void errorAnswersAreReadAsTheSdksClientReadsThem(String answer) {
    error.set(answer);
    ApiFailure ours = catchThrowableOfType(() -> new Ec2Calls(server.uri(), "eu-central-2", CREDENTIALS,
        AnswerLimit.ofBytes(1 << 20), Clock.systemUTC(), 1, Ec2Proxies.fromSettings())
        .describeInstanceTypes(List.of("c5.xlarge"), Duration.ofSeconds(10)), ApiErrorException.class).failure();
    AwsServiceException sdks;
    try (Ec2Client sdk = Ec2Client.builder().region(Region.of("eu-central-2")).endpointOverride(server.uri())
        .credentialsProvider(CREDENTIALS).httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(o -> o.retryStrategy(s -> s.maxAttempts(1))).build()) {
      sdks = catchThrowableOfType(() -> sdk.describeInstanceTypes(r -> r.instanceTypesWithStrings("c5.xlarge")),
          AwsServiceException.class);
    }
    assertThat(ours.httpStatus()).isEqualTo(sdks.statusCode()).isEqualTo(503);
    assertThat(ours.errorCode()).isEqualTo(sdks.awsErrorDetails().errorCode());
    assertThat(ours.message()).isEqualTo(sdks.awsErrorDetails().errorMessage());
    assertThat(ours.requestId()).isEqualTo(sdks.requestId());
  }
}
