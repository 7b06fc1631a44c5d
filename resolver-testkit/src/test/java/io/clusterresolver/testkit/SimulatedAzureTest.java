package io.clusterresolver.testkit;

import java.time.Duration;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** SimulatedAzure's wire format, seen with a plain HTTPS client trusting its test certificate. */
class SimulatedAzureTest {

  static SimulatedAzure azure;
  static HttpClient http;

  @BeforeAll
  static void start() {
    azure = SimulatedAzure.start();
    http = HttpClient.newBuilder().sslContext(azure.sslContext()).build();
  }

  @AfterAll
  static void stop() {
    azure.close();
  }

  private HttpResponse<String> get(String pathAndQuery, boolean token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(pathAndQuery.startsWith("https") ? pathAndQuery
        : azure.endpoint() + pathAndQuery));
    if (token) {
      b.header("Authorization", "Bearer t");
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String vms() {
    return "/subscriptions/" + azure.subscription() + "/resourceGroups/cluster-rg/providers/Microsoft.Compute/virtualMachines";
  }

  @Test
  void listingsPageByAbsoluteNextLinkAndCountEachPage() throws Exception {
    azure.clear().resetCounts().addTypical(0, 250, b -> b);
    HttpResponse<String> first = get(vms() + "?api-version=2024-07-01&$expand=instanceView", true);
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.headers().firstValue("x-ms-request-id")).isPresent();
    assertThat(first.headers().firstValue("x-ms-ratelimit-remaining-subscription-reads")).isPresent();
    assertThat(first.body()).contains("\"PowerState/running\"").contains("\"timeCreated\"");
    Matcher next = Pattern.compile("\"nextLink\":\"([^\"]+)\"").matcher(first.body());
    assertThat(next.find()).isTrue();
    assertThat(next.group(1)).startsWith(azure.endpoint().toString()).contains("api-version=2024-07-01").contains("$skiptoken=");
    HttpResponse<String> second = get(next.group(1), true);
    Matcher third = Pattern.compile("\"nextLink\":\"([^\"]+)\"").matcher(second.body());
    assertThat(third.find()).isTrue();
    assertThat(get(third.group(1), true).body()).doesNotContain("nextLink").contains("vm-0249");
    assertThat(azure.callCount("ListVirtualMachines")).isEqualTo(3);
  }

  @Test
  void armSaysWhatIsWrongInItsErrorShape() throws Exception {
    azure.clear().addTypical(0, 1, b -> b);
    HttpResponse<String> noToken = get(vms() + "?api-version=2024-07-01", false);
    assertThat(noToken.statusCode()).isEqualTo(401);
    assertThat(noToken.body()).contains("{\"error\":{\"code\":\"AuthenticationFailed\"");
    assertThat(get(vms(), true).body()).contains("MissingApiVersionParameter");
    assertThat(get(vms().replace("cluster-rg", "nope") + "?api-version=1", true).statusCode()).isEqualTo(404);
    azure.inject(Fault.throttled().retryAfter(Duration.ofSeconds(7)));
    HttpResponse<String> throttled = get(vms() + "?api-version=2024-07-01", true);
    assertThat(throttled.statusCode()).isEqualTo(429);
    assertThat(throttled.headers().firstValue("Retry-After")).contains("7");
    assertThat(throttled.headers().firstValue("x-ms-ratelimit-remaining-subscription-reads")).contains("0");
    assertThat(throttled.body()).contains("\"code\":\"TooManyRequests\"");
    assertThat(get(vms() + "?api-version=2024-07-01", true).statusCode()).isEqualTo(200);
  }

  @Test
  void uniformScaleSetNicsAnswerOnTheLowerCaseSdkPath() throws Exception {
    azure.clear();
    AzureScenarios.uniformScaleSet(azure, "rg", "set", 3);
    String path = "/subscriptions/" + azure.subscription()
        + "/resourceGroups/rg/providers/microsoft.Compute/virtualMachineScaleSets/set/networkInterfaces?api-version=2018-10-01";
    HttpResponse<String> nics = get(path, true);
    assertThat(nics.statusCode()).isEqualTo(200);
    assertThat(nics.body()).contains("/virtualMachineScaleSets/set/virtualMachines/2\"").contains("10.3.0.6");
  }

  @Test
  void imdsNeedsTheMetadataHeaderAndAnApiVersion() throws Exception {
    azure.clear().addTypical(0, 1, b -> b);
    azure.identifyAs(azure.resourceId(azure.vms().get(0)));
    URI uri = URI.create(azure.imdsEndpoint() + "/metadata/instance/compute?api-version=2021-02-01");
    HttpClient plain = HttpClient.newHttpClient();
    assertThat(plain.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(400);
    HttpResponse<String> ok = plain.send(HttpRequest.newBuilder(uri).header("Metadata", "true").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.body()).contains("\"resourceId\":\"" + azure.resourceId(azure.vms().get(0)) + "\"");
  }

  @Test
  void aRateLimitAnswersCallsPastTheBucket429WithRetryAfter() throws Exception {
    azure.clear().addTypical(0, 1, b -> b);
    TokenBucket bucket = TokenBucket.of(1, 1, () -> 0L); // a clock that never moves: no refill
    azure.rateLimit(bucket);
    try {
      assertThat(get(vms() + "?api-version=2024-07-01", true).statusCode()).isEqualTo(200);
      HttpResponse<String> throttled = get(vms() + "?api-version=2024-07-01", true);
      assertThat(throttled.statusCode()).isEqualTo(429);
      assertThat(throttled.headers().firstValue("Retry-After")).contains("1");
      assertThat(throttled.body()).contains("TooManyRequests");
      assertThat(bucket.throttled()).isEqualTo(1);
    } finally {
      azure.rateLimit(null);
    }
  }
}
