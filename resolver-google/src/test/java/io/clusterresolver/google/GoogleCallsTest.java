package io.clusterresolver.google;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.AnswerLimitException;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.MalformedAnswerException;
import io.clusterresolver.testkit.RecordingHttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link GoogleCalls} against a loopback server: the request (path escaped by the template, query, routing
 * header, a bearer token only with credentials), an error status, an answer that is not JSON, and a server
 * that never answers, each read by {@link GoogleFailure} as the kit's {@code CloudApi} needs it.
 */
class GoogleCallsTest {

  private static final GoogleCalls.Method<String> GET_NAME = GoogleCalls.get("test.v1.Things/Get",
      "/v1/{name=projects/*/things/*}", in -> GoogleJson.member(in, "name", GoogleJson::string, ""));

  private final List<String> requests = new CopyOnWriteArrayList<>();
  /** Each request's method, Content-Type and body. */
  private final List<String> bodies = new CopyOnWriteArrayList<>();
  private RecordingHttpServer server;
  private URI endpoint;
  private volatile int status = 200;
  private volatile String body = "{\"name\": \"thing\", \"other\": [1, 2]}";
  /** Headers of every answer. */
  private final Map<String, String> answerHeaders = new java.util.concurrent.ConcurrentHashMap<>();
  /** Whether the answer is gzip-compressed when the request accepts it. */
  private volatile boolean gzip;
  /** The status of the first answer only, then {@link #status} (0: none). */
  private volatile int firstStatus;

  @BeforeEach
  void start() throws IOException {
    server = RecordingHttpServer.start((request, exchange) -> {
      requests.add(request.method() + " " + request.path() + "?" + exchange.getRequestURI().getQuery() + " routing="
          + request.header("x-goog-request-params") + " auth=" + request.header("Authorization"));
      bodies.add(request.method() + " " + request.header("Content-Type") + " "
          + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      String accepted = request.header("Accept-Encoding");
      if (gzip && accepted != null && accepted.contains("gzip")) {
        java.io.ByteArrayOutputStream packed = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(packed)) {
          out.write(bytes);
        }
        bytes = packed.toByteArray();
        exchange.getResponseHeaders().set("Content-Encoding", "gzip");
      }
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      answerHeaders.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
      int sent = firstStatus != 0 ? firstStatus : status;
      firstStatus = 0;
      exchange.sendResponseHeaders(sent, bytes.length);
      exchange.getResponseBody().write(bytes);
    });
    endpoint = server.uri();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private GoogleCalls calls(URI at, com.google.api.gax.core.CredentialsProvider credentials) throws IOException {
    return new GoogleCalls(new GoogleRest(at, credentials, AnswerLimit.ofBytes(1 << 20)), "unused.googleapis.com:443");
  }

  /** Credentials whose every refresh gives a new token: ya29.token-1, ya29.token-2… */
  private static GoogleCredentials rotatingTokens() {
    int[] refreshes = {0};
    return new GoogleCredentials() {
      @Override
      public AccessToken refreshAccessToken() {
        refreshes[0]++;
        return new AccessToken("ya29.token-" + refreshes[0], null);
      }
    };
  }

  private static GoogleCalls.Get get(String name) {
    return new GoogleCalls.Get(Map.of("name", name), Map.of("$alt", List.of("json;enum-encoding=int")),
        Map.of("name", name));
  }

  @Test
  void theRequestAndTheAnswer() throws IOException {
    String answer = calls(endpoint, NoCredentialsProvider.create()).call(GET_NAME, get("projects/p/things/a-1"),
        Duration.ofSeconds(10));
    assertThat(answer).isEqualTo("thing");
    // The query as the server decodes it; the header's value percent-encoded (AIP-4222: '/' is %2F).
    assertThat(requests).containsExactly("GET /v1/projects/p/things/a-1?$alt=json;enum-encoding=int"
        + " routing=name=projects%2Fp%2Fthings%2Fa-1 auth=null");
  }

  @Test
  void credentialsSendTheirBearerToken() throws IOException {
    GoogleCredentials token = GoogleCredentials.create(new AccessToken("ya29.test-token", null));
    calls(endpoint, FixedCredentialsProvider.create(token)).call(GET_NAME, get("projects/p/things/a"), Duration.ofSeconds(10));
    assertThat(requests).singleElement().asString().endsWith("auth=Bearer ya29.test-token");
  }

  @Test
  void anErrorStatusIsReadWithGooglesError() throws IOException {
    status = 404;
    body = "{\"error\": {\"code\": 404, \"message\": \"Resource 'a' was not found\", \"status\": \"NOT_FOUND\"}}";
    UncheckedIOException e = catchThrowableOfType(() -> calls(endpoint, NoCredentialsProvider.create())
        .call(GET_NAME, get("projects/p/things/a"), Duration.ofSeconds(10)), UncheckedIOException.class);
    assertThat(GoogleFailure.notFound(e)).isTrue();
    assertThat(GoogleFailure.read(e)).isEqualTo(ApiFailure.http(404, "NOT_FOUND", "Resource 'a' was not found", null, 1));
  }

  @Test
  void anAnswerThatIsNotJsonIsMalformed() throws IOException {
    body = "<html>hello</html>";
    GoogleCalls calls = calls(endpoint, NoCredentialsProvider.create());
    RuntimeException e = catchThrowableOfType(() -> calls.call(GET_NAME, get("projects/p/things/a"),
        Duration.ofSeconds(10)), MalformedAnswerException.class);
    assertThat(GoogleFailure.read(e).kind()).isEqualTo(ApiFailure.Kind.MALFORMED_RESPONSE);
    body = "{\"name\": \"x\"} {\"name\": \"y\"}";
    e = catchThrowableOfType(() -> calls.call(GET_NAME, get("projects/p/things/a"), Duration.ofSeconds(10)),
        MalformedAnswerException.class);
    assertThat(e).hasMessageContaining("test.v1.Things/Get").hasMessageContaining("not the JSON expected");
  }

  @Test
  void aGzipAnswerIsUnpacked() throws IOException {
    gzip = true;
    body = "{\"name\": \"" + "packed ".repeat(500).strip() + "\"}";
    String answer = calls(endpoint, NoCredentialsProvider.create()).call(GET_NAME, get("projects/p/things/a"),
        Duration.ofSeconds(10));
    assertThat(answer).isEqualTo("packed ".repeat(500).strip());
  }

  @Test
  void aGzipAnswerThatUnpacksPastTheAnswerLimitIsCutThere() throws IOException {
    gzip = true;
    // ~2 KB on the wire (under the 1 MiB limit of calls()), 2 MiB once unpacked.
    body = "{\"name\": \"" + "a".repeat(2 << 20) + "\"}";
    RuntimeException e = catchThrowableOfType(() -> calls(endpoint, NoCredentialsProvider.create())
        .call(GET_NAME, get("projects/p/things/a"), Duration.ofSeconds(10)), RuntimeException.class);
    AnswerLimitException limit = AnswerLimitException.find(e);
    assertThat(limit).as("%s", e).isNotNull();
    assertThat(limit).hasMessageContaining("1 MiB").hasMessageContaining("(unpacked)");
  }

  @Test
  void anErrorAnswersRequestIdAndRetryAfterAreRead() throws IOException {
    status = 429;
    answerHeaders.put("x-request-id", "req-42");
    answerHeaders.put("Retry-After", "7");
    body = "{\"error\": {\"code\": 429, \"message\": \"Quota exceeded\", \"status\": \"RESOURCE_EXHAUSTED\"}}";
    UncheckedIOException e = catchThrowableOfType(() -> calls(endpoint, NoCredentialsProvider.create())
        .call(GET_NAME, get("projects/p/things/a"), Duration.ofSeconds(10)), UncheckedIOException.class);
    assertThat(GoogleFailure.read(e)).isEqualTo(ApiFailure.http(429, "RESOURCE_EXHAUSTED", "Quota exceeded", "req-42", 1)
        .withRetryAfter(Duration.ofSeconds(7)));
  }

  @Test
  void a401RefreshesTheCredentialsAndAsksOnceMore() throws IOException {
    firstStatus = 401;
    GoogleCredentials rotating = rotatingTokens();
    String answer = calls(endpoint, FixedCredentialsProvider.create(rotating)).call(GET_NAME,
        get("projects/p/things/a"), Duration.ofSeconds(10));
    assertThat(answer).isEqualTo("thing");
    assertThat(requests).hasSize(2);
    assertThat(requests.get(0)).endsWith("auth=Bearer ya29.token-1");
    assertThat(requests.get(1)).endsWith("auth=Bearer ya29.token-2");
  }

  @Test
  void aRedirectIsFollowedWithoutTheCredentials() throws IOException {
    try (RecordingHttpServer elsewhere = RecordingHttpServer.start((request, exchange) -> RecordingHttpServer.send(
        exchange, 200, Map.of(), "{\"name\": \"moved\"}".getBytes(StandardCharsets.UTF_8)))) {
      firstStatus = 302;
      answerHeaders.put("Location", elsewhere.uri() + "/v1/moved");
      GoogleCredentials token = GoogleCredentials.create(new AccessToken("ya29.secret", null));
      String answer = calls(endpoint, FixedCredentialsProvider.create(token)).call(GET_NAME, get("projects/p/things/a"),
          Duration.ofSeconds(10));
      assertThat(answer).isEqualTo("moved");
      assertThat(requests).singleElement().asString().endsWith("auth=Bearer ya29.secret");
      assertThat(elsewhere.requests()).singleElement().satisfies(r -> {
        assertThat(r.path()).isEqualTo("/v1/moved");
        assertThat(r.header("Authorization")).isNull();
      });
    }
  }

  @Test
  void headersTrickledAByteAtATimeEndAtTheTimeLeft() throws IOException {
    try (ServerSocket trickler = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread serve = new Thread(() -> {
        try (Socket held = trickler.accept()) {
          OutputStream out = held.getOutputStream();
          out.write("HTTP/1.1 200 OK\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
          for (int i = 0; i < 100; i++) { // 20 s of one byte every 200 ms, each well within the read timeout
            out.write('a');
            out.flush();
            Thread.sleep(200);
          }
        } catch (IOException | InterruptedException e) {
          // closed by the client, or the test is over
        }
      });
      serve.setDaemon(true);
      serve.start();
      GoogleCalls calls = calls(URI.create("http://127.0.0.1:" + trickler.getLocalPort()), NoCredentialsProvider.create());
      long start = System.nanoTime();
      RuntimeException e = catchThrowableOfType(() -> calls.call(GET_NAME, get("projects/p/things/a"),
          Duration.ofMillis(1000)), RuntimeException.class);
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(e).as("headers that never end are an error").isNotNull();
      assertThat(millis).as("the 1 s left ends the call, not the 20 s of trickled headers").isBetween(900L, 10_000L);
      serve.interrupt();
    }
  }

  @Test
  void aServerThatNeverAnswersTimesOutWithinTheTimeLeft() throws IOException {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread accept = new Thread(() -> {
        try (Socket held = silent.accept()) {
          Thread.sleep(20_000);
        } catch (IOException | InterruptedException e) {
          // the test is over
        }
      });
      accept.setDaemon(true);
      accept.start();
      GoogleCalls calls = calls(URI.create("http://127.0.0.1:" + silent.getLocalPort()), NoCredentialsProvider.create());
      long start = System.nanoTime();
      RuntimeException e = catchThrowableOfType(() -> calls.call(GET_NAME, get("projects/p/things/a"),
          Duration.ofMillis(500)), RuntimeException.class);
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(millis).as("bounded by the 500 ms left, not the 20 s the server holds").isBetween(400L, 10_000L);
      assertThat(GoogleFailure.read(e).kind()).isEqualTo(ApiFailure.Kind.TIMEOUT);
      accept.interrupt();
    }
  }

  @Test
  void aPostSendsItsJsonBodyBesideTheSameHeaders() throws IOException {
    GoogleCredentials token = GoogleCredentials.create(new AccessToken("ya29.test-token", null));
    String answer = calls(endpoint, FixedCredentialsProvider.create(token)).post(GET_NAME,
        get("projects/p/things/a-1"), "{\"state\":\"RUNNING é\"}", Duration.ofSeconds(10));
    assertThat(answer).isEqualTo("thing");
    assertThat(requests).containsExactly("POST /v1/projects/p/things/a-1?$alt=json;enum-encoding=int"
        + " routing=name=projects%2Fp%2Fthings%2Fa-1 auth=Bearer ya29.test-token");
    assertThat(bodies).containsExactly("POST application/json; charset=utf-8 {\"state\":\"RUNNING é\"}");
  }

  @Test
  void aPostAnsweredWith401IsSentOnceMoreWithItsBody() throws IOException {
    firstStatus = 401;
    GoogleCredentials rotating = rotatingTokens();
    calls(endpoint, FixedCredentialsProvider.create(rotating)).post(GET_NAME, get("projects/p/things/a"), "{}",
        Duration.ofSeconds(10));
    assertThat(requests).hasSize(2);
    assertThat(requests.get(1)).endsWith("auth=Bearer ya29.token-2");
    assertThat(bodies).containsExactly("POST application/json; charset=utf-8 {}", "POST application/json; charset=utf-8 {}");
  }

  @Test
  void aPostsErrorNamesThePost() throws IOException {
    status = 403;
    body = "{\"error\": {\"code\": 403, \"message\": \"Rate Limit Exceeded\", \"errors\": [{\"reason\":"
        + " \"rateLimitExceeded\"}]}}";
    UncheckedIOException e = catchThrowableOfType(() -> calls(endpoint, NoCredentialsProvider.create())
        .post(GET_NAME, get("projects/p/things/a"), "{}", Duration.ofSeconds(10)), UncheckedIOException.class);
    assertThat(e.getCause()).hasMessageContaining("403").hasMessageContaining("POST " + endpoint);
    assertThat(GoogleFailure.read(e).httpStatus()).isEqualTo(403);
  }

  @Test
  void aPostRedirectedWith303IsFollowedAsAGetAndWith307AsThePost() throws IOException {
    List<String> moved = new CopyOnWriteArrayList<>();
    try (RecordingHttpServer elsewhere = RecordingHttpServer.start((request, exchange) -> {
      moved.add(request.method() + " " + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      RecordingHttpServer.send(exchange, 200, Map.of(), "{\"name\": \"moved\"}".getBytes(StandardCharsets.UTF_8));
    })) {
      answerHeaders.put("Location", elsewhere.uri() + "/v1/moved");
      GoogleCalls calls = calls(endpoint, NoCredentialsProvider.create());
      firstStatus = 303;
      assertThat(calls.post(GET_NAME, get("projects/p/things/a"), "{\"a\":1}", Duration.ofSeconds(10)))
          .isEqualTo("moved");
      firstStatus = 307;
      assertThat(calls.post(GET_NAME, get("projects/p/things/a"), "{\"a\":1}", Duration.ofSeconds(10)))
          .isEqualTo("moved");
      assertThat(moved).containsExactly("GET ", "POST {\"a\":1}");
    }
  }
}
