package io.clusterresolver.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The simulated API server speaks the pods list wire format: paging, selectors, Status errors. */
class SimulatedKubernetesTest {

  private static final Pattern ITEM_NAME = Pattern.compile("\\{\"metadata\":\\{\"name\":\"([^\"]+)\",\"namespace\":\"([^\"]+)\"");
  private static final Pattern CONTINUE = Pattern.compile("\"continue\":\"([^\"]+)\"");

  private final SimulatedKubernetes k8s = SimulatedKubernetes.start();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() {
    k8s.close();
  }

  private HttpResponse<String> get(String pathAndQuery, String token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(k8s.endpoint() + pathAndQuery)).timeout(Duration.ofSeconds(10));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String q(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Test
  void listsEveryMatchingPodOfTheNamespaceInKeyOrderOverContinuePages() throws Exception {
    for (int i = 0; i < 7; i++) {
      k8s.add(SimulatedPod.builder("ml", "w-" + i).label("app", "t").podIps("10.0.0." + i).build());
    }
    k8s.add(SimulatedPod.builder("ml", "other").label("app", "x").build());
    k8s.add(SimulatedPod.builder("elsewhere", "w-9").label("app", "t").build());
    List<String> names = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      HttpResponse<String> r = get("/api/v1/namespaces/ml/pods?labelSelector=" + q("app in (t)") + "&limit=3"
          + (token == null ? "" : "&continue=" + q(token)), "simulated-token");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).startsWith("{\"kind\":\"PodList\",\"apiVersion\":\"v1\"");
      assertThat(r.headers().firstValue("Audit-Id")).isPresent();
      Matcher m = ITEM_NAME.matcher(r.body());
      while (m.find()) {
        assertThat(m.group(2)).isEqualTo("ml");
        names.add(m.group(1));
      }
      Matcher c = CONTINUE.matcher(r.body());
      token = c.find() ? c.group(1) : null;
      pages++;
    } while (token != null);
    assertThat(pages).isEqualTo(3);
    assertThat(names).containsExactly("w-0", "w-1", "w-2", "w-3", "w-4", "w-5", "w-6");
    assertThat(k8s.listCalls()).isEqualTo(3);
  }

  @Test
  void anExpiredContinueTokenIs410GoneWithReasonExpired() throws Exception {
    for (int i = 0; i < 4; i++) {
      k8s.add(SimulatedPod.builder("ml", "w-" + i).build());
    }
    HttpResponse<String> first = get("/api/v1/namespaces/ml/pods?limit=2", "simulated-token");
    Matcher c = CONTINUE.matcher(first.body());
    assertThat(c.find()).isTrue();
    k8s.expireContinueTokens();
    HttpResponse<String> gone = get("/api/v1/namespaces/ml/pods?limit=2&continue=" + q(c.group(1)), "simulated-token");
    assertThat(gone.statusCode()).isEqualTo(410);
    assertThat(gone.body()).contains("\"kind\":\"Status\"", "\"reason\":\"Expired\"", "\"code\":410");
  }

  @Test
  void authenticationAndAuthorizationFailuresAreStatusObjects() throws Exception {
    k8s.acceptTokens(Map.of("new-token", "system:serviceaccount:ml:trainer"));
    HttpResponse<String> none = get("/api/v1/namespaces/ml/pods", null);
    HttpResponse<String> old = get("/api/v1/namespaces/ml/pods", "simulated-token");
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(old.statusCode()).isEqualTo(401);
    assertThat(old.body()).contains("\"reason\":\"Unauthorized\"", "\"code\":401");
    k8s.forbid("ml");
    HttpResponse<String> forbidden = get("/api/v1/namespaces/ml/pods", "new-token");
    assertThat(forbidden.statusCode()).isEqualTo(403);
    assertThat(forbidden.body()).contains("\"reason\":\"Forbidden\"",
        "User \\\"system:serviceaccount:ml:trainer\\\" cannot list resource \\\"pods\\\" in API group \\\"\\\" in the namespace \\\"ml\\\"");
    assertThat(get("/api/v1/namespaces/other/pods", "new-token").statusCode()).isEqualTo(200);
    assertThat(k8s.requests()).extracting(SimulatedKubernetes.RecordedRequest::bearerToken)
        .containsExactly(null, "simulated-token", "new-token", "new-token");
  }

  @Test
  void podsCarryTheFieldsOfTheRealApi() throws Exception {
    k8s.add(SimulatedPod.builder("ml", "web-3").statefulSet("web", 3).podIps("10.1.0.3", "fd00::3")
        .port("grpc", 2222).limit("nvidia.com/gpu", "2").ready(false).build());
    String body = get("/api/v1/namespaces/ml/pods", "simulated-token").body();
    assertThat(body).contains("\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"name\":\"web\"",
        "\"apps.kubernetes.io/pod-index\":\"3\"", "\"podIP\":\"10.1.0.3\"",
        "\"podIPs\":[{\"ip\":\"10.1.0.3\"},{\"ip\":\"fd00::3\"}]", "\"hostIP\":\"192.168.0.1\"",
        "{\"type\":\"Ready\",\"status\":\"False\"", "\"ports\":[{\"name\":\"grpc\",\"containerPort\":2222",
        "\"limits\":{\"nvidia.com/gpu\":\"2\"}", "\"creationTimestamp\":\"2025-01-01T00:00:00Z\"");
  }

  @Test
  void faultsHitTheirPageOnly() throws Exception {
    for (int i = 0; i < 4; i++) {
      k8s.add(SimulatedPod.builder("ml", "w-" + i).build());
    }
    k8s.inject(new Fault(Fault.Kind.SERVER_ERROR, 2, false, Duration.ZERO));
    HttpResponse<String> first = get("/api/v1/namespaces/ml/pods?limit=2", "simulated-token");
    assertThat(first.statusCode()).isEqualTo(200);
    Matcher c = CONTINUE.matcher(first.body());
    assertThat(c.find()).isTrue();
    HttpResponse<String> second = get("/api/v1/namespaces/ml/pods?limit=2&continue=" + q(c.group(1)), "simulated-token");
    assertThat(second.statusCode()).isEqualTo(500);
    assertThat(second.body()).contains("\"reason\":\"InternalError\"");
    assertThat(get("/api/v1/namespaces/ml/pods?limit=2&continue=" + q(c.group(1)), "simulated-token").statusCode())
        .isEqualTo(200);
    assertThat(k8s.inject(new Fault(Fault.Kind.METADATA_ABSENT, 0, true, Duration.ZERO))).isFalse();
  }

  @Test
  void aRateLimitRejectsAuthenticatedRequestsPastTheBucketAsPriorityAndFairnessDoes() throws Exception {
    k8s.add(SimulatedPod.builder("ml", "w-0").label("app", "t").podIps("10.0.0.1").build());
    TokenBucket bucket = TokenBucket.of(1, 1, () -> 0L); // a clock that never moves: no refill
    k8s.rateLimit(bucket);
    assertThat(get("/api/v1/namespaces/ml/pods", "simulated-token").statusCode()).isEqualTo(200);
    assertThat(get("/api/v1/namespaces/ml/pods", "not-a-token").statusCode()).as("authentication first").isEqualTo(401);
    HttpResponse<String> rejected = get("/api/v1/namespaces/ml/pods", "simulated-token");
    assertThat(rejected.statusCode()).isEqualTo(429);
    assertThat(rejected.headers().firstValue("Retry-After")).contains("1");
    assertThat(rejected.body()).startsWith("{\"kind\":\"Status\",\"apiVersion\":\"v1\"")
        .contains("\"status\":\"Failure\"").contains("\"reason\":\"TooManyRequests\"").contains("\"code\":429");
    assertThat(bucket.served()).isEqualTo(1);
    assertThat(bucket.throttled()).isEqualTo(1);
    assertThat(k8s.listCalls()).isEqualTo(3);
    k8s.rateLimit(null);
    assertThat(get("/api/v1/namespaces/ml/pods", "simulated-token").statusCode()).isEqualTo(200);
  }
}
