package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link MetadataClient} against a real HTTP server on loopback that answers as the clouds document. */
class MetadataClientTest {

  private HttpServer server;
  private URI base;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.start();
    base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void answer(String path, Handler handler) {
    server.createContext(path, exchange -> {
      requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
      handler.handle(exchange);
      exchange.close();
    });
  }

  private interface Handler {
    void handle(HttpExchange exchange) throws IOException;
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
  }

  @Test
  void imdsV2AsksForATokenWithItsTtlThenSendsItOnTheGet() {
    // docs.aws.amazon.com/AWSEC2/latest/UserGuide/configuring-instance-metadata-service.html:
    // PUT /latest/api/token with X-aws-ec2-metadata-token-ttl-seconds (1..21600), then X-aws-ec2-metadata-token.
    answer("/latest/api/token", e -> {
      String ttl = e.getRequestHeaders().getFirst("X-aws-ec2-metadata-token-ttl-seconds");
      send(e, "PUT".equals(e.getRequestMethod()) && "21600".equals(ttl) ? 200 : 400, "AQAEAtoken");
    });
    answer("/latest/meta-data/instance-id", e -> send(e,
        "AQAEAtoken".equals(e.getRequestHeaders().getFirst("X-aws-ec2-metadata-token")) ? 200 : 401, "i-0abc\n"));
    MetadataClient imds = MetadataClient.builder("aws", base)
        .token("PUT", "/latest/api/token", Map.of("X-aws-ec2-metadata-token-ttl-seconds", "21600"),
            "X-aws-ec2-metadata-token")
        .build();
    assertThat(imds.get("/latest/meta-data/instance-id")).contains("i-0abc");
    assertThat(requests).containsExactly("PUT /latest/api/token", "GET /latest/meta-data/instance-id");
  }

  @Test
  void withoutATokenNoGetGoesOutAndTheReasonSaysWhy() {
    answer("/latest/api/token", e -> send(e, 503, ""));
    answer("/latest/meta-data/instance-id", e -> send(e, 200, "i-0abc"));
    MetadataClient imds = MetadataClient.builder("aws", base)
        .token("PUT", "/latest/api/token", Map.of("X-aws-ec2-metadata-token-ttl-seconds", "21600"),
            "X-aws-ec2-metadata-token")
        .build();
    List<String> why = new CopyOnWriteArrayList<>();
    assertThat(imds.get("/latest/meta-data/instance-id", why::add)).isEmpty();
    assertThat(why).containsExactly("the metadata service answered PUT " + base + "/latest/api/token with HTTP 503");
    assertThat(requests).containsExactly("PUT /latest/api/token");
  }

  @Test
  void absenceIsEmptyAndAnyOtherAnswerIsAnErrorNamingTheRequestAndStatus() throws Exception {
    answer("/missing", e -> send(e, 404, "not found"));
    answer("/empty", e -> send(e, 200, "  \n"));
    answer("/denied", e -> send(e, 403, "no"));
    MetadataClient client = MetadataClient.builder("azure", base).build();
    assertThat(client.get("missing")).isEmpty();
    List<String> why = new CopyOnWriteArrayList<>();
    assertThat(client.get("missing", why::add)).isEmpty();
    assertThat(client.get("denied", why::add)).isEmpty();
    assertThat(why).containsExactly("HTTP 404 from " + base + "/missing",
        "the metadata service answered GET " + base + "/denied with HTTP 403");
    assertThat(client.get("empty")).isEmpty();
    assertThatThrownBy(() -> client.get("denied")).isInstanceOf(MetadataClient.BadAnswer.class)
        .isInstanceOf(io.clusterresolver.ClusterResolverException.class)
        .hasMessageStartingWith("azure: ").hasMessageContaining("GET " + base + "/denied").hasMessageContaining("HTTP 403");
    assertThat(client.answers("denied")).isFalse();

    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    long start = System.nanoTime();
    assertThat(MetadataClient.builder("gce", URI.create("http://127.0.0.1:" + closed)).timeout(Duration.ofMillis(200))
        .build().get("instance/id")).isEmpty();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void aServiceThatMustSayWhoItIsIsNotTakenForAnotherPage() {
    // cloud.google.com/compute/docs/metadata/querying-metadata: every answer has Metadata-Flavor: Google.
    answer("/computeMetadata/v1/project/project-id", e -> {
      boolean asked = "Google".equals(e.getRequestHeaders().getFirst("Metadata-Flavor"));
      if (asked) {
        e.getResponseHeaders().add("Metadata-Flavor", "Google");
      }
      send(e, asked ? 200 : 403, "my-project");
    });
    answer("/portal/project/project-id", e -> send(e, 200, "<html>Sign in to the Wi-Fi</html>"));
    MetadataClient google = MetadataClient.builder("gce", URI.create(base + "/computeMetadata/v1/"))
        .header("Metadata-Flavor", "Google").answersWith("Metadata-Flavor", "Google").build();
    assertThat(google.get("project/project-id")).contains("my-project");
    assertThat(google.answers("project/project-id")).isTrue();

    MetadataClient portal = MetadataClient.builder("gce", URI.create(base + "/portal"))
        .header("Metadata-Flavor", "Google").answersWith("Metadata-Flavor", "Google").build();
    assertThatThrownBy(() -> portal.get("project/project-id")).isInstanceOf(MetadataClient.BadAnswer.class)
        .hasMessageContaining("without Metadata-Flavor: Google");
    assertThat(portal.answers("project/project-id")).isFalse();
  }

  @Test
  void anAnswerOverTheLimitIsAnErrorAndOneAtTheLimitIsAValue() {
    answer("/big", e -> send(e, 200, "x".repeat(1025)));
    answer("/fits", e -> send(e, 200, "y".repeat(1024)));
    MetadataClient client = MetadataClient.builder("tpu", base).maxAnswerBytes(1024).build();
    assertThat(client.get("fits")).contains("y".repeat(1024));
    assertThatThrownBy(() -> client.get("big")).isInstanceOf(MetadataClient.BadAnswer.class)
        .hasMessageContaining("over 1 KiB");
  }

  @Test
  void serverErrorsAreRetriedOnlyWhenAskedAndClientErrorsNever() {
    AtomicInteger calls = new AtomicInteger();
    answer("/flaky", e -> send(e, calls.incrementAndGet() <= 2 ? 503 : 200, "ok"));
    answer("/gone", e -> send(e, 410, ""));
    assertThatThrownBy(() -> MetadataClient.builder("aws", base).build().get("flaky"))
        .hasMessageContaining("HTTP 503");
    assertThat(calls).hasValue(1);
    calls.set(0);
    assertThat(MetadataClient.builder("aws", base).retries(2).build().get("flaky")).contains("ok");
    assertThat(calls).hasValue(3);
    requests.clear();
    assertThatThrownBy(() -> MetadataClient.builder("aws", base).retries(2).build().get("gone"))
        .hasMessageContaining("HTTP 410");
    assertThat(requests).containsExactly("GET /gone");
  }
}
