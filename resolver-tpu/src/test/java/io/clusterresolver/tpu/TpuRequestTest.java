package io.clusterresolver.tpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.cloud.tpu.v2.TpuClient;
import com.google.cloud.tpu.v2.TpuSettings;
import com.sun.net.httpserver.HttpServer;
import io.clusterresolver.cloud.AnswerLimit;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider's {@code nodes.get} is the request google-cloud-tpu's own {@code TpuClient} sends over REST (the
 * independent implementation): both are sent to one loopback server, which records them.
 */
class TpuRequestTest {

  /** What a request is, as a server sees it. */
  private record Seen(String method, String path, String query, String routing, String apiClient, String authorization,
      String acceptEncoding, String userAgent) {}

  private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
  private HttpServer server;
  private URI endpoint;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      var headers = exchange.getRequestHeaders();
      seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
          exchange.getRequestURI().getRawQuery(), headers.getFirst("x-goog-request-params"),
          headers.getFirst("x-goog-api-client"), headers.getFirst("Authorization"), headers.getFirst("Accept-Encoding"),
          headers.getFirst("User-Agent")));
      byte[] body = "{\"name\": \"projects/p/locations/z/nodes/n\"}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void nodesGetIsTheRequestOfTheSdksClient() throws Exception {
    String name = "projects/my-project/locations/us-central2-b/nodes/pod slice+1";
    TpuApi api = new TpuApi(endpoint, NoCredentialsProvider.create(), AnswerLimit.ofBytes(1 << 20));
    try (var lease = api.lease()) {
      assertThat(api.getNode(name, Duration.ofSeconds(10)).name()).isEqualTo("projects/p/locations/z/nodes/n");
    }
    TpuSettings settings = TpuSettings.newHttpJsonBuilder().setEndpoint(endpoint.toString())
        .setCredentialsProvider(NoCredentialsProvider.create()).build();
    try (TpuClient sdk = TpuClient.create(settings)) {
      sdk.getNode(name);
    }

    assertThat(seen).hasSize(2);
    Seen ours = seen.get(0);
    Seen sdks = seen.get(1);
    assertThat(ours.method()).isEqualTo(sdks.method()).isEqualTo("GET");
    assertThat(ours.path()).isEqualTo(sdks.path()).startsWith("/v2/projects/my-project/");
    assertThat(ours.query()).isEqualTo(sdks.query());
    assertThat(ours.routing()).isEqualTo(sdks.routing()).isNotBlank();
    assertThat(ours.authorization()).isNull();
    // Both ask for a gzip answer, which Google's front ends give only to a user agent that says "gzip".
    assertThat(ours.acceptEncoding()).isEqualTo(sdks.acceptEncoding()).contains("gzip");
    assertThat(ours.userAgent()).contains("gzip");
    assertThat(sdks.userAgent()).contains("gzip");
    // The SDK adds its own library's token (gapic/…) to gl-java/…, gax/… and rest/…: ours is the same less that one.
    assertThat(tokens(sdks.apiClient())).containsAll(tokens(ours.apiClient()));
    assertThat(tokens(ours.apiClient())).anyMatch(t -> t.startsWith("gl-java/")).anyMatch(t -> t.startsWith("gax/"))
        .anyMatch(t -> t.startsWith("rest/"));
  }

  private static List<String> tokens(String header) {
    return List.of(header.split(" "));
  }
}
