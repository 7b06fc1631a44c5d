package io.clusterresolver.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The simulation's wire format, checked with a plain HTTP client (google-cloud-tpu is exercised in resolver-tpu). */
class SimulatedTpuTest {

  private final HttpClient http = HttpClient.newHttpClient();
  private SimulatedTpu tpu;

  @BeforeEach
  void start() {
    tpu = SimulatedTpu.start("p1", "us-central2-b");
  }

  @AfterEach
  void stop() {
    tpu.close();
  }

  private HttpResponse<String> get(String pathAndQuery, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(tpu.endpoint() + pathAndQuery)).timeout(Duration.ofSeconds(10));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void nodesGetAnswersTheNodeInApiOrderWithEnumsAsNamesOrNumbers() throws Exception {
    tpu.add(SimulatedTpuNode.builder("n1").acceleratorType("v4-32").workers("10.0.0.9", "10.0.0.3")
        .state(SimulatedTpuNode.State.PREEMPTED).build());
    HttpResponse<String> named = get("/v2/projects/p1/locations/us-central2-b/nodes/n1");
    assertThat(named.statusCode()).isEqualTo(200);
    assertThat(named.body()).contains("\"name\": \"projects/p1/locations/us-central2-b/nodes/n1\"")
        .contains("\"acceleratorType\": \"v4-32\"").contains("\"state\": \"PREEMPTED\"")
        .contains("\"health\": \"HEALTHY\"");
    assertThat(named.body().indexOf("10.0.0.9")).isLessThan(named.body().indexOf("10.0.0.3"));
    // What the Java client asks for: enums as their numbers (PREEMPTED = 11, HEALTHY = 1 in cloud_tpu.proto).
    HttpResponse<String> numbered = get("/v2/projects/p1/locations/us-central2-b/nodes/n1?%24alt=json%3Benum-encoding%3Dint");
    assertThat(numbered.body()).contains("\"state\": 11").contains("\"health\": 1");
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).isEqualTo(2);
  }

  @Test
  void anUnknownNodeIsGooglesJson404() throws Exception {
    HttpResponse<String> r = get("/v2/projects/p1/locations/us-central2-b/nodes/nope");
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(r.body()).contains("\"code\": 404").contains("\"status\": \"NOT_FOUND\"")
        .contains("Resource projects/p1/locations/us-central2-b/nodes/nope was not found")
        .contains("type.googleapis.com/google.rpc.RequestInfo");
  }

  @Test
  void nodesListPagesWithNextPageToken() throws Exception {
    for (int i = 0; i < 5; i++) {
      tpu.add(SimulatedTpuNode.builder("n" + i).workers("10.0.1." + i).build());
    }
    HttpResponse<String> first = get("/v2/projects/p1/locations/us-central2-b/nodes?pageSize=2");
    assertThat(first.body()).contains("nodes/n0").contains("nodes/n1").doesNotContain("nodes/n2")
        .contains("\"nextPageToken\": \"2-2\"");
    HttpResponse<String> last = get("/v2/projects/p1/locations/us-central2-b/nodes?pageSize=2&pageToken=3-4");
    assertThat(last.body()).contains("nodes/n4").doesNotContain("nextPageToken");
  }

  @Test
  void metadataNeedsTheFlavorHeaderAndDescribesTheChosenWorker() throws Exception {
    tpu.add(SimulatedTpuNode.builder("n1").acceleratorType("v5litepod-16")
        .workers("10.0.0.9", "10.0.0.3", "10.0.0.5", "10.0.0.4").build());
    tpu.identifyAs("n1", 2);
    assertThat(get("/computeMetadata/v1/project/project-id").statusCode()).isEqualTo(403);
    HttpResponse<String> endpoints = get("/computeMetadata/v1/instance/attributes/worker-network-endpoints",
        "Metadata-Flavor", "Google");
    assertThat(endpoints.headers().firstValue("Metadata-Flavor")).contains("Google");
    assertThat(endpoints.body()).isEqualTo("unknown:unknown:10.0.0.9,unknown:unknown:10.0.0.3,"
        + "unknown:unknown:10.0.0.5,unknown:unknown:10.0.0.4");
    assertThat(get("/computeMetadata/v1/instance/attributes/agent-worker-number", "Metadata-Flavor", "Google").body())
        .isEqualTo("2");
    assertThat(get("/computeMetadata/v1/instance/network-interfaces/0/ip", "Metadata-Flavor", "Google").body())
        .isEqualTo("10.0.0.5");
    assertThat(get("/computeMetadata/v1/instance/zone", "Metadata-Flavor", "Google").body())
        .endsWith("/zones/us-central2-b");
    tpu.metadataValue("instance/attributes/agent-worker-number", null);
    assertThat(get("/computeMetadata/v1/instance/attributes/agent-worker-number", "Metadata-Flavor", "Google")
        .statusCode()).isEqualTo(404);
  }

  @Test
  void faultsAndTokens() throws Exception {
    tpu.add(SimulatedTpuNode.builder("n1").workers("10.0.0.9").build());
    tpu.inject(Fault.throttled().times(2));
    assertThat(get("/v2/projects/p1/locations/us-central2-b/nodes/n1").body()).contains("RESOURCE_EXHAUSTED");
    assertThat(get("/v2/projects/p1/locations/us-central2-b/nodes/n1").statusCode()).isEqualTo(429);
    assertThat(get("/v2/projects/p1/locations/us-central2-b/nodes/n1").statusCode()).isEqualTo(200);
    assertThat(get("/v2/projects/p1/locations/us-central2-b/nodes/n1", "Authorization", "Bearer forged").statusCode())
        .isEqualTo(401);
    tpu.requireToken(true);
    assertThat(get("/v2/projects/p1/locations/us-central2-b/nodes/n1").body()).contains("UNAUTHENTICATED");
  }

  @Test
  void aRateLimitAnswersApiCallsPastTheBucket429ResourceExhaustedAndLeavesTheMetadataServerAlone() throws Exception {
    tpu.add(SimulatedTpuNode.builder("n1").workers("10.0.0.9").build());
    TokenBucket bucket = TokenBucket.of(2, 1, () -> 0L); // a clock that never moves: no refill
    tpu.rateLimit(bucket);
    String node = "/v2/projects/p1/locations/us-central2-b/nodes/n1";
    assertThat(get(node).statusCode()).isEqualTo(200);
    assertThat(get("/v2/projects/p1/locations/us-central2-b/nodes").statusCode()).isEqualTo(200);
    HttpResponse<String> third = get(node);
    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(third.body()).contains("\"code\": 429").contains("\"status\": \"RESOURCE_EXHAUSTED\"")
        .contains("tpu.googleapis.com").contains("type.googleapis.com/google.rpc.RequestInfo");
    assertThat(get("/computeMetadata/v1/project/project-id", "Metadata-Flavor", "Google").statusCode()).isEqualTo(200);
    assertThat(bucket.served()).isEqualTo(2);
    assertThat(bucket.throttled()).isEqualTo(1);
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET) + tpu.callCount(SimulatedTpu.NODES_LIST)).isEqualTo(3);
    tpu.rateLimit(null);
    assertThat(get(node).statusCode()).isEqualTo(200);
  }
}
