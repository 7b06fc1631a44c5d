package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
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
    // The same two requests under a deadline, each bounded whole.
    requests.clear();
    assertThat(imds.fetch("/latest/meta-data/instance-id", Deadline.after(Duration.ofSeconds(10)))).get()
        .satisfies(answer -> assertThat(answer.status()).isEqualTo(200))
        .satisfies(answer -> assertThat(answer.body()).isEqualTo("i-0abc\n"));
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

  /**
   * Azure IMDS's retry guidance for the managed identity token (learn.microsoft.com, "How to use managed identities
   * for Azure resources on an Azure VM to acquire an access token", error handling): 404 while the identity is being
   * assigned, 410 while IMDS is updated, 429, and 5xx are retried with exponential backoff.
   */
  private static final IntPredicate IMDS_TOKEN_RETRIES = status -> Set.of(404, 408, 410, 429).contains(status)
      || status >= 500;

  private MetadataClient.Builder imdsTokens() {
    return MetadataClient.builder("azure", base).header("Metadata", "true").retries(3)
        .retriedStatuses(IMDS_TOKEN_RETRIES).retriesLostAnswers(false).backoff(Duration.ofMillis(20)).jitter(false);
  }

  @Test
  void theStatusesAServiceRetriesAreRetriedAndTheLastAnswerIsWhatTheyLeave() {
    int[] statuses = {410, 429, 404, 200};
    AtomicInteger calls = new AtomicInteger();
    answer("/token", e -> send(e, statuses[Math.min(calls.getAndIncrement(), 3)], "{\"access_token\":\"t\"}"));
    assertThat(imdsTokens().build().get("token")).contains("{\"access_token\":\"t\"}");
    assertThat(calls).hasValue(4);

    // Not one of them: asked once, whatever the retries left.
    AtomicInteger refused = new AtomicInteger();
    answer("/refused", e -> send(e, refused.incrementAndGet() == 1 ? 400 : 200, "{}"));
    assertThat(imdsTokens().build().fetch("refused", Deadline.after(Duration.ofSeconds(10))))
        .get().extracting(PlatformProbes.Response::status).isEqualTo(400);
    assertThat(refused).hasValue(1);

    // Retried to the last: 1 + 3 requests, and the answer is what a 404 is unretried, no value.
    AtomicInteger missing = new AtomicInteger();
    answer("/missing", e -> {
      missing.incrementAndGet();
      send(e, 404, "");
    });
    assertThat(imdsTokens().build().get("missing")).isEmpty();
    assertThat(missing).hasValue(4);
    // By default a 404 is a value that is not there: asked once.
    missing.set(0);
    assertThat(MetadataClient.builder("azure", base).retries(3).build().get("missing")).isEmpty();
    assertThat(missing).hasValue(1);
  }

  @Test
  void fetchGivesTheLastAnswerWhateverItsStatusWithItsBodyAndHeaders() {
    answer("/token", e -> {
      e.getResponseHeaders().add("X-Ms-Request-Id", "r-1");
      send(e, 400, "{\"error\":\"invalid_request\"}");
    });
    answer("/big", e -> send(e, 200, "x".repeat(1025)));
    answer("/fits", e -> send(e, 200, "y".repeat(1024)));
    Deadline deadline = Deadline.after(Duration.ofSeconds(10));
    MetadataClient client = MetadataClient.builder("azure", base).maxAnswerBytes(1024).build();
    PlatformProbes.Response answer = client.fetch("token", deadline).orElseThrow();
    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.body()).isEqualTo("{\"error\":\"invalid_request\"}");
    assertThat(answer.header("x-ms-request-id")).contains("r-1");
    assertThat(answer.complete()).isTrue();
    // Over the limit: cut there and said to be, as without a deadline.
    for (Deadline d : new Deadline[] {deadline, null}) {
      assertThat(client.fetch("big", d).orElseThrow()).satisfies(big -> {
        assertThat(big.body()).isEqualTo("x".repeat(1024));
        assertThat(big.complete()).isFalse();
      });
      assertThat(client.fetch("fits", d).orElseThrow().complete()).isTrue();
    }
  }

  @Test
  void aLostAnswerIsRetriedByDefaultAndNotWhenTheServiceSaysSo() throws Exception {
    // A listener that takes each connection and never answers, counted. (One that closes at once would not do: the
    // JDK's HttpURLConnection sends a GET again itself after an empty answer.)
    List<Socket> held = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor = new Thread(() -> {
        while (!silent.isClosed()) {
          try {
            held.add(silent.accept());
          } catch (IOException e) {
            return;
          }
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      URI nobody = URI.create("http://127.0.0.1:" + silent.getLocalPort());

      assertThat(MetadataClient.builder("aws", nobody).timeout(Duration.ofMillis(200)).retries(2)
          .backoff(Duration.ofMillis(10)).build().get("latest/meta-data/instance-id")).isEmpty();
      assertThat(held).hasSize(3);
      for (Socket socket : held) {
        socket.close();
      }
      held.clear();
      assertThat(MetadataClient.builder("azure", nobody).timeout(Duration.ofMillis(200)).retries(3)
          .retriesLostAnswers(false).build().fetch("token", Deadline.after(Duration.ofSeconds(10)))).isEmpty();
      assertThat(held).hasSize(1);
    } finally {
      for (Socket socket : held) {
        socket.close();
      }
    }
  }

  @Test
  void underADeadlineNoRetryWaitsWithoutAsMuchTimeAgainLeftForTheNextAttempt() {
    AtomicInteger calls = new AtomicInteger();
    answer("/token", e -> {
      calls.incrementAndGet();
      send(e, 503, "");
    });
    MetadataClient client = MetadataClient.builder("azure", base).retries(5).backoff(Duration.ofMillis(200))
        .jitter(false).build();
    // 1.5 s: the first wait (200 ms) leaves about 1.3 s >= 400 ms, the second (400 ms) about 0.9 s >= 800 ms, the
    // third (800 ms) would leave under 0.9 s of the 1.6 s it needs: three requests, not six.
    assertThat(client.fetch("token", Deadline.after(Duration.ofMillis(1500)))).get()
        .extracting(PlatformProbes.Response::status).isEqualTo(503);
    assertThat(calls).hasValue(3);
  }

  @Test
  void underADeadlineAnAnswerThatTricklesIsCutWhenTheTimeIsUp() {
    // The status line and headers come at once, the body a byte every 100 ms: within each read's timeout, not
    // within the deadline.
    answer("/trickle", e -> {
      e.sendResponseHeaders(200, 100);
      for (int i = 0; i < 100; i++) {
        e.getResponseBody().write('x');
        e.getResponseBody().flush();
        try {
          Thread.sleep(100);
        } catch (InterruptedException interrupted) {
          return;
        }
      }
    });
    MetadataClient client = MetadataClient.builder("azure", base).timeout(Duration.ofSeconds(5)).build();
    long start = System.nanoTime();
    assertThat(client.fetch("trickle", Deadline.after(Duration.ofMillis(500)))).isEmpty();
    // Without the deadline it would take the 10 s the body takes.
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }
}
