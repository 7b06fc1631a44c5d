package io.clusterresolver.aws;

import io.clusterresolver.testkit.Fault;
import static io.clusterresolver.aws.AwsTestSupport.resolver;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverContext;
import io.clusterresolver.testkit.LogCapture;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedInstance;
import io.clusterresolver.testkit.SimulatedInstance.State;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The aws provider with the real AWS SDK against {@link SimulatedEc2}. */
class AwsProviderTest {

  SimulatedEc2 ec2;

  @BeforeEach
  void start() {
    ec2 = SimulatedEc2.start();
  }

  @AfterEach
  void stop() {
    ec2.close();
  }

  /** The DescribeInstances requests, oldest first (the metadata identity is asked concurrently). */
  private static List<SimulatedEc2.RecordedRequest> listings(SimulatedEc2 ec2) {
    return ec2.requests().stream().filter(r -> r.action().equals("DescribeInstances")).collect(Collectors.toList());
  }

  private static String id(int i) {
    return SimulatedInstance.typical(i).build().instanceId();
  }

  @Test
  void rejectedCredentialsSayTheyWereNotAcceptedWithEc2sRequestId() {
    ec2.addTypical(0, 2, b -> b);
    ec2.inject(Fault.credentialsRejected().always());
    Throwable thrown = catchThrowable(() -> resolver(ec2).clusterSpec());
    assertThat(thrown).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("HTTP 401").hasMessageContaining("AuthFailure")
        .hasMessageContaining("check the credentials")
        .hasMessageMatching("(?s).*request id [0-9a-f]{8}-[0-9a-f]{4}-.*")
        .hasMessageNotContaining("unknown error");
  }

  @Test
  void followsEveryPageAndAsksInstanceTypesOncePerJvm() {
    ec2.addTypical(0, 2500, b -> b.instanceType("m5.large"));
    ClusterResolver resolver = resolver(ec2);
    ClusterSpec spec = resolver.clusterSpec();
    assertThat(spec.numTasks("worker")).isEqualTo(2500);
    assertThat(spec.taskAddress("worker", 0)).isEqualTo("10.0.0.0:8888");
    assertThat(spec.taskAddress("worker", 2499)).isEqualTo("10.0.9.195:8888");
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(3);
    assertThat(ec2.callCount("DescribeInstanceTypes")).isEqualTo(1);

    // Membership is asked again, instance types are not (even by another resolver of this JVM).
    resolver(ec2).clusterSpec();
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(6);
    assertThat(ec2.callCount("DescribeInstanceTypes")).isEqualTo(1);
    assertThat(ec2.requests().stream().filter(r -> r.action().equals("DescribeInstances"))
        .map(r -> r.parameters().get("MaxResults")).distinct()).containsExactly("1000");
  }

  @Test
  void smallPagesAreFollowedToo() {
    ec2.addTypical(0, 12, b -> b);
    assertThat(resolver(ec2, "page-size", "5").clusterSpec().numTasks("worker")).isEqualTo(12);
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(3);
    assertThat(listings(ec2).get(1).parameters()).containsKey("NextToken");
  }

  @Test
  void filtersByTagsAsgStatesZonesAndVpc() {
    ec2.add(
        SimulatedInstance.typical(0).tag("team", "ml").tag("aws:autoscaling:groupName", "trainers").build(),
        SimulatedInstance.typical(1).tag("team", "ml").availabilityZone("us-east-1b").build(),
        SimulatedInstance.typical(2).tag("team", "web").tag("aws:autoscaling:groupName", "trainers").build(),
        SimulatedInstance.typical(3).tag("team", "ml").state(State.STOPPED).build(),
        SimulatedInstance.typical(4).tag("team", "ml").vpcId("vpc-other").build());
    assertThat(ids(resolver(ec2, "tags", "team=ml"))).containsExactly(id(0), id(1), id(4));
    assertThat(ids(resolver(ec2, "asg", "trainers"))).containsExactly(id(0), id(2));
    assertThat(ids(resolver(ec2, "tags", "team=ml", "states", "running,stopped"))).containsExactly(id(0), id(1),
        id(3), id(4));
    assertThat(ids(resolver(ec2, "zones", "us-east-1b"))).containsExactly(id(1));
    assertThat(ids(resolver(ec2, "vpc-id", "vpc-other"))).containsExactly(id(4));
    assertThat(ids(resolver(ec2, "tags", "team=m*", "asg", "trainers"))).containsExactly(id(0));

    List<SimulatedEc2.RecordedRequest> listings = ec2.requests().stream()
        .filter(r -> r.action().equals("DescribeInstances")).collect(Collectors.toList());
    Map<String, String> sent = listings.get(listings.size() - 1).parameters();
    assertThat(sent).containsEntry("Filter.1.Name", "tag:team").containsEntry("Filter.1.Value.1", "m*")
        .containsEntry("Filter.2.Name", "tag:aws:autoscaling:groupName")
        .containsEntry("Filter.3.Name", "instance-state-name").containsEntry("Filter.3.Value.1", "running");
  }

  private static List<String> ids(ClusterResolver resolver) {
    return ((io.clusterresolver.cloud.MemberClusterResolver) resolver).placement().tasks().stream()
        .map(t -> t.member().id()).collect(Collectors.toList());
  }

  @Test
  void everyAddressTypeAndMembersWithoutItAreLeftOutAndLogged() {
    ec2.add(SimulatedInstance.typical(0).publicIpv4("54.1.2.3").publicDns("ec2-54-1-2-3.compute-1.amazonaws.com")
            .ipv6("2600:1f18::1").build(),
        SimulatedInstance.typical(1).build());
    assertThat(resolver(ec2).clusterSpec().jobTasks("worker")).containsExactly("10.0.0.0:8888", "10.0.0.1:8888");
    assertThat(resolver(ec2, "address", "private-dns").clusterSpec().jobTasks("worker"))
        .containsExactly("ip-10-0-0-0.ec2.internal:8888", "ip-10-0-0-1.ec2.internal:8888");
    try (LogCapture logs = new LogCapture()) {
      assertThat(resolver(ec2, "address", "public-ipv4").clusterSpec().jobTasks("worker"))
          .containsExactly("54.1.2.3:8888");
      assertThat(resolver(ec2, "address", "public-dns").clusterSpec().jobTasks("worker"))
          .containsExactly("ec2-54-1-2-3.compute-1.amazonaws.com:8888");
      assertThat(resolver(ec2, "address", "ipv6").clusterSpec().jobTasks("worker"))
          .containsExactly("[2600:1f18::1]:8888");
      assertThat(logs.messages()).anySatisfy(m -> assertThat(m).contains("without a public-ipv4 address left out")
          .contains(id(1)));
      assertThat(logs.messages()).anySatisfy(m -> assertThat(m).contains("without a ipv6 address").contains(id(1)));
    }
    assertThatThrownBy(() -> resolver(ec2, "address", "elastic-ip")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clusterresolver.aws.address").hasMessageContaining("private-ipv4");
  }

  @Test
  void ipv6OnlyMembers() {
    ec2.add(SimulatedInstance.builder("i-v6a").ipv6("2600:1f18::a").launchTime(Instant.ofEpochSecond(1)).build(),
        SimulatedInstance.builder("i-v6b").ipv6("2600:1f18::b").launchTime(Instant.ofEpochSecond(2)).build());
    ec2.identifyAs("i-v6b");
    ClusterResolver resolver = resolver(ec2, "address", "ipv6", "port", "2222");
    assertThat(resolver.clusterSpec().jobTasks("worker")).containsExactly("[2600:1f18::a]:2222", "[2600:1f18::b]:2222");
    assertThat(resolver.master()).isEqualTo("grpc://[2600:1f18::b]:2222");
    assertThat(resolver(ec2).clusterSpec().numTasks("worker")).isZero();
  }

  @Test
  void pendingMembersWithoutAnAddressAreLeftOut() {
    ec2.addTypical(0, 2, b -> b);
    ec2.add(SimulatedInstance.builder("i-pending").state(State.PENDING).build());
    try (LogCapture logs = new LogCapture()) {
      ClusterSpec spec = resolver(ec2, "states", "pending,running").clusterSpec();
      assertThat(spec.numTasks("worker")).isEqualTo(2);
      assertThat(logs.messages()).anySatisfy(m -> assertThat(m).contains("i-pending (pending)"));
    }
    assertThat(listings(ec2).get(0).parameters()).containsEntry("Filter.1.Value.1", "pending")
        .containsEntry("Filter.1.Value.2", "running");
  }

  @Test
  void selfIdentificationOverImdsV2WithTheTokenOnEveryGet() throws Exception {
    ec2.addTypical(0, 4, b -> b);
    ec2.identifyAs(id(2));
    ClusterResolver resolver = resolver(ec2, "jobs", "chief:1,worker:*");
    assertThat(resolver.taskType()).contains("worker");
    assertThat(resolver.taskId()).isEqualTo(OptionalInt.of(1));
    assertThat(resolver.master()).isEqualTo("grpc://10.0.0.2:8888");
    assertThat(resolver.environment()).isEqualTo("aws");
    assertThat(resolver.clusterSpec().jobTasks("chief")).containsExactly("10.0.0.0:8888");

    List<SimulatedEc2.RecordedRequest> imds = ec2.requests().stream().filter(r -> r.action().equals("IMDS"))
        .collect(Collectors.toList());
    assertThat(imds).isNotEmpty();
    assertThat(imds.get(0).method()).isEqualTo("PUT");
    assertThat(imds.get(0).path()).isEqualTo("/latest/api/token");
    assertThat(imds.stream().filter(r -> r.method().equals("GET")))
        .isNotEmpty()
        .allSatisfy(r -> assertThat(r.header("x-aws-ec2-metadata-token")).isNotBlank());
    // The instance id is asked once per resolver, not per call.
    assertThat(imds.stream().filter(r -> r.path().equals("/latest/meta-data/instance-id")).count()).isEqualTo(1);

    // The simulation refuses token-less GETs as an IMDSv2-only instance does.
    HttpResponse<String> tokenless = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(ec2.imdsEndpoint().resolve("/latest/meta-data/instance-id")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(tokenless.statusCode()).isEqualTo(401);
  }

  @Test
  void everyApiRequestIsSignedWithSigV4() {
    ec2.addTypical(0, 3, b -> b.instanceType("g5.xlarge"));
    resolver(ec2).clusterSpec();
    List<SimulatedEc2.RecordedRequest> api = ec2.requests().stream().filter(r -> !r.action().equals("IMDS"))
        .collect(Collectors.toList());
    assertThat(api).hasSizeGreaterThanOrEqualTo(1).allSatisfy(r -> {
      assertThat(r.header("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=" + AwsTestSupport.ACCESS_KEY
          + "/").contains("/us-east-1/ec2/aws4_request").contains("Signature=")
          .doesNotContain(AwsTestSupport.SECRET_KEY);
      assertThat(r.header("x-amz-date")).isNotBlank();
      assertThat(r.parameters()).containsEntry("Version", "2016-11-15");
    });
  }

  @Test
  void acceleratorsFromInstanceTypes() {
    ec2.add(SimulatedInstance.typical(0).instanceType("p4d.24xlarge").build(),
        SimulatedInstance.typical(1).instanceType("trn1.32xlarge").build(),
        SimulatedInstance.typical(2).instanceType("inf1.xlarge").build(),
        SimulatedInstance.typical(3).instanceType("c5.xlarge").build());
    ec2.identifyAs(id(0));
    ClusterResolver resolver = resolver(ec2);
    assertThat(resolver.numAccelerators()).isEqualTo(Map.of("GPU", 8));
    assertThat(resolver.numAccelerators("worker", 1)).isEqualTo(Map.of("NEURON", 16));
    assertThat(resolver.numAccelerators("worker", 2)).isEqualTo(Map.of("INFERENTIA", 1));
    assertThat(resolver.numAccelerators("worker", 3)).isEmpty();
    assertThat(ec2.callCount("DescribeInstanceTypes")).isEqualTo(1);
    assertThat(ec2.requests().stream().filter(r -> r.action().equals("DescribeInstanceTypes")).findFirst()
        .orElseThrow().parameters())
        .containsValues("p4d.24xlarge", "trn1.32xlarge", "inf1.xlarge", "c5.xlarge");

    ClusterSpec perGpu = resolver(ec2, "tasks-per-instance", "accelerator", "port", "9000").clusterSpec();
    assertThat(perGpu.numTasks("worker")).isEqualTo(8 + 16 + 1 + 1);
    assertThat(perGpu.taskAddress("worker", 7)).isEqualTo("10.0.0.0:9007");
    assertThat(perGpu.taskAddress("worker", 8)).isEqualTo("10.0.0.1:9000");

    resolver(ec2, "accelerators", "false").clusterSpec();
    assertThat(ec2.callCount("DescribeInstanceTypes")).isEqualTo(1);
  }

  @Test
  void transientThrottlingIsRetried() {
    ec2.addTypical(0, 12, b -> b);
    ec2.inject(Fault.throttled().onPage(2).times(2));
    assertThat(resolver(ec2, "page-size", "5").clusterSpec().numTasks("worker")).isEqualTo(12);
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(5);
  }

  private ClusterResolverException failure(Fault fault, String... props) {
    ec2.addTypical(0, 12, b -> b);
    ec2.inject(fault);
    String[] all = new String[props.length + 4];
    all[0] = "page-size";
    all[1] = "5";
    all[2] = "timeout";
    all[3] = "4s";
    System.arraycopy(props, 0, all, 4, props.length);
    ClusterResolver resolver = resolver(ec2, all);
    long start = System.nanoTime();
    Throwable thrown = catchThrowable(resolver::clusterSpec);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(longestTimeout(props).plusMillis(1500));
    assertThat(thrown).isInstanceOf(ClusterResolverException.class);
    assertThat(thrown.getMessage()).startsWith("aws: ").doesNotContain(AwsTestSupport.SECRET_KEY)
        .doesNotContain(AwsTestSupport.ACCESS_KEY);
    return (ClusterResolverException) thrown;
  }

  /** The longer of the 4 s every failure test starts with and a {@code timeout} it sets ("30s", "1500ms"). */
  private static Duration longestTimeout(String... props) {
    Duration timeout = Duration.ofSeconds(4);
    for (int i = 0; i + 1 < props.length; i += 2) {
      if (props[i].equals("timeout")) {
        String v = props[i + 1];
        Duration set = v.endsWith("ms") ? Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)))
            : Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
        timeout = set.compareTo(timeout) > 0 ? set : timeout;
      }
    }
    return timeout;
  }

  @Test
  void throttlingThatDoesNotEndIsATypedErrorNamingStatusAndRequestId() {
    ClusterResolverException e = failure(Fault.throttled().onPage(2).always(), "max-attempts", "3");
    assertThat(e.getMessage()).contains("DescribeInstances (page 2)").contains("HTTP 503")
        .contains("RequestLimitExceeded").containsPattern("request id [0-9a-f-]{36}").contains("3 attempts");
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(1 + 3);
  }

  @Test
  void aThrottledOrFailingPageIsRetriedThroughTheSdkAndTheClusterIsWhole() {
    ec2.addTypical(0, 2500, b -> b.instanceType("m5.large"));
    ec2.inject(Fault.throttled().onPage(2).times(2));
    ec2.inject(Fault.serverError().onPage(3).times(1));
    ClusterSpec spec = resolver(ec2).clusterSpec();
    List<String> expected = ec2.instances().stream().map(i -> i.privateIpv4().orElseThrow() + ":8888")
        .collect(Collectors.toList());
    assertThat(spec.jobTasks("worker")).containsExactlyElementsOf(expected);
    assertThat(ec2.callCount("DescribeInstances")).isEqualTo(3 + 2 + 1);
  }

  @Test
  void internalErrorOnTheLastPageFailsTheWholeResolve() {
    // Two attempts: the 500s, not the 4 s deadline, end it even on a busy machine.
    ClusterResolverException e = failure(Fault.serverError().onPage(3).always(), "max-attempts", "2");
    assertThat(e.getMessage()).contains("DescribeInstances (page 3)").contains("HTTP 500").contains("InternalError")
        .containsPattern("request id [0-9a-f-]{36}").contains("after 2 attempts");
  }

  @Test
  void connectionResetIsATypedError() {
    ClusterResolverException e = failure(Fault.connectionReset().always());
    assertThat(e.getMessage()).contains("DescribeInstances (page 1)").contains("without a valid HTTP response");
  }

  @Test
  void truncatedXmlIsATypedError() {
    ClusterResolverException e = failure(Fault.truncatedBody().onPage(2).always());
    assertThat(e.getMessage()).contains("DescribeInstances (page 2)").contains("not the API's format");
  }

  @Test
  void malformedXmlIsATypedError() {
    // Not a deadline test (aSlowAnswerNeverHangsPastTheDeadline is): an unreadable answer's cold error path must
    // not race a 4 s timeout on a loaded machine.
    ClusterResolverException e = failure(Fault.malformedBody().always(), "timeout", "30s");
    assertThat(e.getMessage()).contains("DescribeInstances (page 1)").contains("not the API's format");
  }

  @Test
  void aSlowAnswerNeverHangsPastTheDeadline() {
    ClusterResolverException e = failure(Fault.slow(Duration.ofSeconds(20)).onPage(2).always(), "timeout", "1500ms");
    assertThat(e.getMessage()).contains("DescribeInstances (page 2)").contains("timeout of 1500 ms")
        .contains("clusterresolver.aws.timeout");
  }

  @Test
  void aFailingInstanceTypeCallFailsTheResolve() {
    ec2.addTypical(0, 3, b -> b.instanceType("x9.simulated"));
    ec2.inject(Fault.serverError().onOperation("DescribeInstanceTypes").always());
    assertThatThrownBy(() -> resolver(ec2, "max-attempts", "2").clusterSpec())
        .isInstanceOf(ClusterResolverException.class).hasMessageContaining("DescribeInstanceTypes")
        .hasMessageContaining("HTTP 500");
  }

  @Test
  void retryModeAndSharedListingAgeAreChecked() {
    Map<String, String> p = new HashMap<>(AwsTestSupport.properties(ec2));
    p.put("clusterresolver.aws.retry-mode", "legacy");
    assertThatThrownBy(() -> ClusterResolvers.create("aws", p, Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 problem")
        .hasMessageContaining("clusterresolver.aws.retry-mode: 'legacy' is not a retry mode");
    p.put("clusterresolver.aws.retry-mode", "standard");
    p.put("clusterresolver.aws.shared-listing-max-age", "-1s");
    assertThatThrownBy(() -> ClusterResolvers.create("aws", p, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clusterresolver.aws.shared-listing-max-age: '-1s' is not a duration");
    ec2.addTypical(0, 3, b -> b);
    assertThat(resolver(ec2, "retry-mode", "adaptive").clusterSpec().numTasks("worker")).isEqualTo(3);
  }

  @Test
  void configurationProblemsAreReportedTogetherByKey() {
    Map<String, String> p = new HashMap<>(AwsTestSupport.properties(ec2));
    p.remove("clusterresolver.aws.secret-access-key");
    p.put("clusterresolver.aws.endpoint", "not a url");
    p.put("clusterresolver.aws.states", "running,sleeping");
    p.put("clusterresolver.aws.order", "random");
    Throwable thrown = catchThrowable(() -> ClusterResolvers.create("aws", p, Map.of()));
    assertThat(thrown).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("4 problems")
        .hasMessageContaining("clusterresolver.aws.secret-access-key")
        .hasMessageContaining("clusterresolver.aws.endpoint")
        .hasMessageContaining("'sleeping'")
        .hasMessageContaining("clusterresolver.aws.order")
        .hasMessageNotContaining(AwsTestSupport.ACCESS_KEY);

    Map<String, String> noRegion = new HashMap<>(AwsTestSupport.properties(ec2));
    noRegion.remove("clusterresolver.aws.region");
    noRegion.remove("clusterresolver.aws.imds-endpoint");
    assertThatThrownBy(() -> ClusterResolvers.create("aws", noRegion, Map.of("AWS_EC2_METADATA_DISABLED", "true")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clusterresolver.aws.region");
    assertThat(ClusterResolvers.create("aws", noRegion, Map.of("AWS_REGION", "eu-west-1",
        "AWS_EC2_METADATA_DISABLED", "true")).environment()).isEqualTo("aws");
  }

  @Test
  void regionFromInstanceMetadataWhenNotConfigured() {
    ec2.addTypical(0, 2, b -> b);
    ec2.identifyAs(id(0));
    Map<String, String> p = new HashMap<>(AwsTestSupport.properties(ec2));
    p.remove("clusterresolver.aws.region");
    assertThat(ClusterResolvers.create("aws", p, Map.of()).clusterSpec().numTasks("worker")).isEqualTo(2);
    assertThat(ec2.requests().stream().anyMatch(r -> r.path().equals("/latest/meta-data/placement/region"))).isTrue();
  }

  @Test
  void detectionProbesImdsOnlyWithAHintAndQuickly() throws Exception {
    AwsClusterResolverProvider provider = new AwsClusterResolverProvider();
    ResolverContext simulated = ResolverContext.of(PropertySources.of(
        Map.of("clusterresolver.aws.imds-endpoint", ec2.imdsEndpoint().toString()), Map.of(), Map.of(), Map.of()))
        // A cold test server on a loaded machine may take longer than the 90 ms default to answer;
        // this case checks that the probe is made and understood, the one below that it is quick.
        .withProbeTimeout(Duration.ofSeconds(5));
    assertThat(provider.isAvailable(simulated)).isTrue();
    assertThat(ec2.requests()).anySatisfy(r -> assertThat(r.path()).isEqualTo("/latest/api/token"));

    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    ResolverContext nothing = ResolverContext.of(PropertySources.of(
        Map.of("clusterresolver.aws.imds-endpoint", "http://127.0.0.1:" + closed), Map.of(), Map.of(), Map.of()));
    long start = System.nanoTime();
    assertThat(provider.isAvailable(nothing)).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(500));

    // No hint on this machine (no EC2 DMI vendor, no AWS compute variables): no probe at all.
    if (!new java.io.File("/sys/hypervisor/uuid").exists() && !new java.io.File("/sys/class/dmi/id/sys_vendor").exists()) {
      start = System.nanoTime();
      assertThat(provider.isAvailable(ResolverContext.of(PropertySources.of(Map.of(), Map.of(), Map.of(), Map.of()))))
          .isFalse();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(50));
    }
  }

  @Test
  void jobsFromTagsAndOrderByTag() {
    ec2.add(SimulatedInstance.typical(0).tag("role", "ps").tag("rank", "2").build(),
        SimulatedInstance.typical(1).tag("role", "worker").tag("rank", "1").build(),
        SimulatedInstance.typical(2).tag("role", "worker").tag("rank", "0").build());
    ClusterSpec spec = resolver(ec2, "job-tag", "role", "order", "tag:rank").clusterSpec();
    assertThat(spec.asMap()).isEqualTo(Map.of("ps", List.of("10.0.0.0:8888"),
        "worker", List.of("10.0.0.2:8888", "10.0.0.1:8888")));
  }

  @Test
  void unsignedRequestsAreRefusedBySimulation() throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(ec2.endpoint()).header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString("Action=DescribeInstances&Version=2016-11-15")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.body()).contains("<Code>AuthFailure</Code>").contains("<RequestID>");
    assertThat(URI.create(ec2.endpoint().toString()).getHost()).isEqualTo("127.0.0.1");
  }
}
