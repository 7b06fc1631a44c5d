package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.RecordingHttpServer;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pod lists a resolve sends on the JDK's {@code HttpURLConnection} ({@link UrlConnectionCalls}) against the
 * requests of fabric8's own {@code KubernetesClient} ({@code pods().inNamespace(ns).withLabelSelector(s).list(...)}
 * with the same limit and continue token), on one recording server: method, path, query (its order and escaping),
 * the bearer token and {@code User-Agent}. fabric8's client sends no {@code Accept} (the API server answers JSON by
 * default); a resolve asks for {@code application/json}, as it did on fabric8's HTTP client. After a 401 the token
 * file is read again and the request sent once more, as fabric8's {@code TokenRefreshInterceptor} is written to do
 * for a token provider.
 */
class PodListRequestTest {

  private static final String SELECTOR = "app=trainer,tier in (a, b),!canary";
  private static final String CONTINUE = "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NX0+/=";

  /** One ready pod a page ({@code %1$s}: its number), so that the resolve ends with a cluster. */
  private static final String POD = "{\"metadata\":{\"name\":\"w-%1$s\",\"namespace\":\"ml\",\"labels\":{\"app\":"
      + "\"trainer\"}},\"status\":{\"phase\":\"Running\",\"podIP\":\"10.0.0.%1$s\",\"conditions\":[{\"type\":"
      + "\"Ready\",\"status\":\"True\"}]}}";

  @TempDir
  Path dir;
  private RecordingHttpServer server;
  private Path tokenFile;
  /** Whether the server refuses the next request with 401 (once). */
  private final AtomicBoolean refuseOnce = new AtomicBoolean();

  @BeforeEach
  void start() throws Exception {
    tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, "first-token\n", StandardCharsets.UTF_8);
    server = RecordingHttpServer.start((request, exchange) -> {
      if (refuseOnce.getAndSet(false)) {
        Files.writeString(tokenFile, "second-token", StandardCharsets.UTF_8); // the kubelet rotated it meanwhile
        RecordingHttpServer.send(exchange, 401, Map.of("Content-Type", "application/json"),
            ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Unauthorized\","
                + "\"code\":401}").getBytes(StandardCharsets.UTF_8));
        return;
      }
      String next = request.query() != null && request.query().contains("continue=") ? "" : CONTINUE;
      String pod = String.format(POD, next.isEmpty() ? 2 : 1);
      RecordingHttpServer.send(exchange, 200, Map.of("Content-Type", "application/json"),
          ("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"5\",\"continue\":\""
              + next + "\"},\"items\":[" + pod + "]}").getBytes(StandardCharsets.UTF_8));
    });
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** What the API server sees of a request: the line, and the headers a resolve's request must match. */
  private static List<String> seen(List<RecordingHttpServer.Request> requests) {
    List<String> seen = new ArrayList<>();
    for (RecordingHttpServer.Request r : requests) {
      seen.add(r.method() + " " + r.path() + "?" + r.query() + " | Authorization: " + r.header("Authorization")
          + " | User-Agent: " + r.header("User-Agent"));
    }
    return seen;
  }

  /** Both pages through a resolve (on HttpURLConnection: an endpoint and a token file, no kubeconfig). */
  private List<String> ours() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("clusterresolver.kubernetes.endpoint", server.uri().toString());
    p.put("clusterresolver.kubernetes.token-file", tokenFile.toString());
    p.put("clusterresolver.kubernetes.namespace", "ml");
    p.put("clusterresolver.kubernetes.selector", SELECTOR);
    p.put("clusterresolver.kubernetes.timeout", "20s");
    p.put("clusterresolver.kubernetes.shared-listing", "false");
    p.put("clusterresolver.kubernetes.port", "2222");
    int before = server.requests().size();
    ClusterResolvers.create("kubernetes", p, Map.of()).resolve();
    List<RecordingHttpServer.Request> sent = server.requests().subList(before, server.requests().size());
    assertThat(sent).allSatisfy(r -> assertThat(r.header("Accept")).isEqualTo("application/json"));
    return seen(sent);
  }

  /** Both pages through fabric8's own client, configured as a resolve configures it for the same settings. */
  private List<String> fabric8s() {
    Config config = Config.empty();
    config.setMasterUrl(server.uri().toString());
    config.setOauthTokenProvider(new TokenFile(tokenFile, "token-file")::getToken);
    config.setRequestRetryBackoffLimit(0);
    config.setHttp2Disable(true);
    int before = server.requests().size();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      PodList first = client.pods().inNamespace("ml").withLabelSelector(SELECTOR)
          .list(new ListOptionsBuilder().withLimit(PodSource.PAGE_SIZE).build());
      assertThat(first.getMetadata().getContinue()).isEqualTo(CONTINUE);
      client.pods().inNamespace("ml").withLabelSelector(SELECTOR)
          .list(new ListOptionsBuilder().withLimit(PodSource.PAGE_SIZE).withContinue(CONTINUE).build());
    }
    return seen(server.requests().subList(before, server.requests().size()));
  }

  @Test
  void bothPagesAreTheRequestsOfFabric8sOwnClient() {
    List<String> ours = ours();
    List<String> fabric8 = fabric8s();

    assertThat(ours).hasSize(2);
    assertThat(ours.get(0)).contains("Bearer first-token").contains("limit=500");
    assertThat(ours).isEqualTo(fabric8);
  }

  @Test
  void after401TheTokenFileIsReadAgainAndTheRequestSentOnce() {
    refuseOnce.set(true);
    List<String> ours = ours();

    String page1 = "GET /api/v1/namespaces/ml/pods?labelSelector=app%3Dtrainer%2Ctier%20in%20%28a%2C%20b%29%2C%21canary"
        + "&limit=500 | Authorization: Bearer ";
    assertThat(ours).hasSize(3);
    assertThat(ours.get(0)).startsWith(page1 + "first-token |");
    assertThat(ours.get(1)).startsWith(page1 + "second-token |");
    assertThat(ours.get(2)).contains("continue=").contains("Bearer second-token");
  }
}
