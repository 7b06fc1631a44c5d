package io.clusterresolver.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The simulated Compute Engine's wire format, seen with a plain HTTP client. */
class SimulatedGceTest {

  SimulatedGce gce;
  final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() {
    gce = SimulatedGce.start("p-1");
  }

  @AfterEach
  void stop() {
    gce.close();
  }

  private HttpResponse<String> get(String pathAndQuery, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gce.endpoint() + pathAndQuery));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void moreThan500ResultsIsA400InGooglesErrorShape() throws Exception {
    HttpResponse<String> r = get("/compute/v1/projects/p-1/aggregated/instances?maxResults=501");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body().replaceAll("\\s", "")).contains("\"error\":{\"code\":400,")
        .contains("\"reason\":\"invalid\"").contains("\"status\":\"INVALID_ARGUMENT\"")
        .contains("Mustbelessthanorequalto500");
  }

  @Test
  void aggregatedListKeysItemsByZoneWithWarningsForEmptyScopesAndPagesWithTokens() throws Exception {
    gce.addTypical(0, 3, b -> b.zone("us-east1-b").label("team", "ml"));
    gce.zone("us-east1-c");
    String first = get("/compute/v1/projects/p-1/aggregated/instances?maxResults=2"
        + "&filter=labels.team%20%3D%20%22ml%22").body();
    assertThat(first).contains("\"zones/us-east1-b\":{\"instances\":[").contains("\"name\":\"vm-0\"")
        .contains("\"name\":\"vm-1\"").doesNotContain("\"name\":\"vm-2\"")
        .contains("\"zones/us-east1-c\":{\"warning\":{\"code\":\"NO_RESULTS_ON_PAGE\"").contains("\"nextPageToken\":");
    String token = first.replaceAll("(?s).*\"nextPageToken\":\"([^\"]+)\".*", "$1");
    String second = get("/compute/v1/projects/p-1/aggregated/instances?maxResults=2&pageToken=" + token).body();
    assertThat(second).contains("\"name\":\"vm-2\"").doesNotContain("nextPageToken");
    assertThat(get("/compute/v1/projects/p-1/aggregated/instances?filter=labels.team%20%3D%20%22web%22").body())
        .doesNotContain("\"instances\"");
    assertThat(gce.callCount("instances.aggregatedList")).isEqualTo(3);
  }

  @Test
  void unreachableZonesAreListedWithPartialSuccessElseTheCallFails() throws Exception {
    gce.addTypical(0, 1, b -> b.zone("us-east1-b"));
    gce.unreachable("us-east1-d");
    String partial = get("/compute/v1/projects/p-1/aggregated/instances?returnPartialSuccess=true").body();
    assertThat(partial).contains("\"unreachables\":[\"zones/us-east1-d\"]").contains("\"code\":\"UNREACHABLE\"");
    assertThat(get("/compute/v1/projects/p-1/aggregated/instances").statusCode()).isEqualTo(503);
  }

  @Test
  void throttlingIs429RateLimitExceeded() throws Exception {
    gce.inject(Fault.throttled().status(429));
    HttpResponse<String> r = get("/compute/v1/projects/p-1/aggregated/instances");
    assertThat(r.statusCode()).isEqualTo(429);
    assertThat(r.body()).contains("\"reason\": \"rateLimitExceeded\"").contains("\"status\": \"RESOURCE_EXHAUSTED\"");
    assertThat(get("/compute/v1/projects/p-1/aggregated/instances").statusCode()).isEqualTo(200);
  }

  @Test
  void theMetadataServerNeedsItsHeaderAndSaysItIsGoogle() throws Exception {
    gce.addTypical(0, 1, b -> b.zone("us-east1-b"));
    gce.identifyAs("vm-0");
    assertThat(get("/computeMetadata/v1/instance/id").statusCode()).isEqualTo(403);
    HttpResponse<String> id = get("/computeMetadata/v1/instance/id", "Metadata-Flavor", "Google");
    assertThat(id.body()).isEqualTo(SimulatedGceInstance.typical(0).build().idText());
    assertThat(id.headers().firstValue("Metadata-Flavor")).contains("Google");
    assertThat(get("/computeMetadata/v1/instance/zone", "Metadata-Flavor", "Google").body())
        .endsWith("/zones/us-east1-b");
  }

  @Test
  void groupsListOnlyUrlsAndMachineTypesTheirAccelerators() throws Exception {
    gce.addTypical(0, 2, b -> b.zone("us-east1-b"));
    gce.defineInstanceGroup("us-east1-b", "g", java.util.List.of("vm-1", "vm-0"));
    HttpResponse<String> members = http.send(HttpRequest.newBuilder(URI.create(gce.endpoint()
            + "/compute/v1/projects/p-1/zones/us-east1-b/instanceGroups/g/listInstances"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"instanceState\":\"ALL\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(members.body()).contains("/zones/us-east1-b/instances/vm-1\"").doesNotContain("networkIP");
    assertThat(get("/compute/v1/projects/p-1/zones/us-east1-b/machineTypes/a2-highgpu-8g").body())
        .contains("\"guestAcceleratorType\":\"nvidia-tesla-a100\",\"guestAcceleratorCount\":8");
    assertThat(get("/compute/v1/projects/p-1/zones/us-east1-b/machineTypes/no-such-type").statusCode()).isEqualTo(404);
  }

  @Test
  void aRateLimitAnswersCallsPastTheBucketAsComputeEngineDocuments403RateLimitExceeded() throws Exception {
    TokenBucket bucket = TokenBucket.of(2, 1, () -> 0L); // a clock that never moves: no refill
    gce.rateLimit(bucket);
    String list = "/compute/v1/projects/p-1/aggregated/instances";
    assertThat(get(list).statusCode()).isEqualTo(200);
    assertThat(get(list).statusCode()).isEqualTo(200);
    HttpResponse<String> third = get(list);
    // "If your project exceeds a rate quota, you receive a 403 error with the reason rateLimitExceeded"
    // (cloud.google.com/compute/api-quota).
    assertThat(third.statusCode()).isEqualTo(403);
    assertThat(third.body()).contains("\"reason\": \"rateLimitExceeded\"").contains("\"domain\": \"usageLimits\"");
    assertThat(bucket.served()).isEqualTo(2);
    assertThat(bucket.throttled()).isEqualTo(1);
    gce.rateLimit(null);
    assertThat(get(list).statusCode()).isEqualTo(200);
  }
}
