package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.testkit.RecordingHttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class CloudHttpTest {

  private static final Duration TIME = Duration.ofSeconds(10);
  private static final AnswerLimit LIMIT = AnswerLimit.ofBytes(64 * 1024);

  private static CloudHttp http(CloudHttp.Redirects redirects) {
    return new CloudHttp(LIMIT, redirects, null);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aGetCarriesItsHeadersInOrderAndTheBearerTokenAndItsAnswerIsRead() throws Exception {
    try (RecordingHttpServer server = RecordingHttpServer.start((request, exchange) ->
        RecordingHttpServer.send(exchange, 200, Map.of("Content-Type", "application/json"), utf8("{\"items\":[]}")))) {
      CloudHttp.Request request = CloudHttp.Request.get(server.uri().resolve("/api/v1/pods?limit=500&labelSelector=a%3Db"))
          .with("Accept", "application/json").with("X-Trace", "1").with("X-Trace", "2");
      try (CloudHttp.Answer answer = http(CloudHttp.Redirects.REPORTED).send(request,
          CloudHttp.Authorization.bearer(() -> "t0k3n"), TIME)) {
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.header("content-type")).isEqualTo("application/json");
        assertThat(answer.text()).isEqualTo("{\"items\":[]}");
      }
      RecordingHttpServer.Request seen = server.requests().get(0);
      assertThat(seen.method()).isEqualTo("GET");
      assertThat(seen.path()).isEqualTo("/api/v1/pods");
      assertThat(seen.query()).isEqualTo("limit=500&labelSelector=a%3Db");
      assertThat(seen.header("Authorization")).isEqualTo("Bearer t0k3n");
      assertThat(seen.header("Accept")).isEqualTo("application/json");
      assertThat(seen.headers().get("X-Trace")).containsExactly("1", "2");
    }
  }

  @Test
  void aPostSendsItsBodyWithItsTypeAndLengthAndTheSignatureSeesTheWholeRequest() throws Exception {
    List<byte[]> bodies = new CopyOnWriteArrayList<>();
    try (RecordingHttpServer server = RecordingHttpServer.start((request, exchange) -> {
      bodies.add(exchange.getRequestBody().readAllBytes());
      RecordingHttpServer.send(exchange, 200, Map.of(), utf8("<ok/>"));
    })) {
      byte[] form = utf8("Action=DescribeInstances&Version=2016-11-15&MaxResults=1000");
      List<CloudHttp.Request> signed = new CopyOnWriteArrayList<>();
      CloudHttp.Authorization signature = request -> {
        signed.add(request);
        return Map.of("Authorization", List.of("SIG " + request.method() + " " + request.body().length));
      };
      CloudHttp.Request post = CloudHttp.Request.post(server.uri().resolve("/"),
          "application/x-www-form-urlencoded; charset=utf-8", form);
      try (CloudHttp.Answer answer = http(CloudHttp.Redirects.REPORTED).send(post, signature, TIME)) {
        assertThat(answer.text()).isEqualTo("<ok/>");
      }
      RecordingHttpServer.Request seen = server.requests().get(0);
      assertThat(seen.method()).isEqualTo("POST");
      assertThat(seen.header("Content-Type")).isEqualTo("application/x-www-form-urlencoded; charset=utf-8");
      assertThat(seen.header("Content-Length")).isEqualTo(String.valueOf(form.length));
      assertThat(seen.header("Authorization")).isEqualTo("SIG POST " + form.length);
      assertThat(bodies.get(0)).isEqualTo(form);
      assertThat(signed.get(0).body()).isEqualTo(form);
    }
  }

  @Test
  void a401IsSentAgainOnceWhenTheCredentialsWereRenewedAndIsTheAnswerWhenNot() throws Exception {
    try (RecordingHttpServer server = RecordingHttpServer.start((request, exchange) -> {
      boolean good = "Bearer new".equals(request.header("Authorization"));
      RecordingHttpServer.send(exchange, good ? 200 : 401, Map.of(), utf8(good ? "yes" : "{\"reason\":\"Unauthorized\"}"));
    })) {
      String[] token = {"old"};
      AtomicInteger renewals = new AtomicInteger();
      CloudHttp.Authorization renewing = CloudHttp.Authorization.bearer(() -> token[0], () -> {
        renewals.incrementAndGet();
        token[0] = "new";
        return true;
      });
      try (CloudHttp.Answer answer = http(CloudHttp.Redirects.REPORTED).send(CloudHttp.Request.get(server.uri()),
          renewing, TIME)) {
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.text()).isEqualTo("yes");
      }
      assertThat(renewals).hasValue(1);
      assertThat(server.requests()).extracting(r -> r.header("Authorization")).containsExactly("Bearer old",
          "Bearer new");

      token[0] = "old";
      try (CloudHttp.Answer answer = http(CloudHttp.Redirects.REPORTED).send(CloudHttp.Request.get(server.uri()),
          CloudHttp.Authorization.bearer(() -> token[0]), TIME)) {
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.text()).isEqualTo("{\"reason\":\"Unauthorized\"}");
      }
      assertThat(server.requests()).hasSize(3);
    }
  }

  @Test
  void aRedirectIsReportedOrFollowedWithoutTheCredentialsAndA303TurnsAPostIntoAGet() throws Exception {
    List<byte[]> bodies = new CopyOnWriteArrayList<>();
    try (RecordingHttpServer server = RecordingHttpServer.start((request, exchange) -> {
      bodies.add(exchange.getRequestBody().readAllBytes());
      switch (request.path()) {
        case "/moved" -> RecordingHttpServer.send(exchange, 307, Map.of("Location", "/there?x=1"), new byte[0]);
        case "/seeother" -> RecordingHttpServer.send(exchange, 303, Map.of("Location", "/there"), new byte[0]);
        default -> RecordingHttpServer.send(exchange, 200, Map.of(), utf8("here"));
      }
    })) {
      CloudHttp.Authorization token = CloudHttp.Authorization.bearer(() -> "secret");
      try (CloudHttp.Answer answer = http(CloudHttp.Redirects.REPORTED).send(
          CloudHttp.Request.get(server.uri().resolve("/moved")), token, TIME)) {
        assertThat(answer.status()).isEqualTo(307);
      }
      assertThat(server.requests()).hasSize(1);

      try (CloudHttp.Answer answer = http(CloudHttp.Redirects.FOLLOWED_WITHOUT_CREDENTIALS).send(
          CloudHttp.Request.get(server.uri().resolve("/moved")), token, TIME)) {
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.text()).isEqualTo("here");
        assertThat(answer.request().uri().getRawQuery()).isEqualTo("x=1");
      }
      RecordingHttpServer.Request followed = server.requests().get(2);
      assertThat(followed.path()).isEqualTo("/there");
      assertThat(followed.header("Authorization")).isNull();
      assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer secret");

      try (CloudHttp.Answer answer = http(CloudHttp.Redirects.FOLLOWED_WITHOUT_CREDENTIALS).send(
          CloudHttp.Request.post(server.uri().resolve("/seeother"), "application/json", utf8("{}")), token, TIME)) {
        assertThat(answer.status()).isEqualTo(200);
      }
      RecordingHttpServer.Request afterSeeOther = server.requests().get(4);
      assertThat(afterSeeOther.method()).isEqualTo("GET");
      assertThat(afterSeeOther.header("Content-Type")).isNull();
      assertThat(bodies.get(4)).isEmpty();
    }
  }

  @Test
  void aGzipAnswerIsUnpackedAndWhatItUnpacksToIsBoundedByTheSameLimit() throws Exception {
    byte[] small = gzip(utf8("{\"a\":1}"));
    byte[] bomb = gzip(new byte[1024 * 1024]); // ~1 KB on the wire, 1 MiB unpacked, over the 64 KiB limit
    assertThat(bomb.length).isLessThan(64 * 1024);
    try (RecordingHttpServer server = RecordingHttpServer.start((request, exchange) ->
        RecordingHttpServer.send(exchange, 200, Map.of("Content-Encoding", "gzip"),
            request.path().equals("/bomb") ? bomb : small))) {
      try (CloudHttp.Answer answer = http(CloudHttp.Redirects.REPORTED).send(
          CloudHttp.Request.get(server.uri().resolve("/small")).with("Accept-Encoding", "gzip"),
          CloudHttp.Authorization.NONE, TIME)) {
        assertThat(answer.text()).isEqualTo("{\"a\":1}");
      }
      try (CloudHttp.Answer answer = http(CloudHttp.Redirects.REPORTED).send(
          CloudHttp.Request.get(server.uri().resolve("/bomb")).with("Accept-Encoding", "gzip"),
          CloudHttp.Authorization.NONE, TIME)) {
        assertThatThrownBy(answer::text).isInstanceOf(AnswerLimitException.class)
            .hasMessageContaining("/bomb (unpacked)");
      }
    }
  }

  @Test
  void aGzipAnswerReadToItsEndLeavesItsConnectionForTheNextCall() throws Exception {
    byte[] page = gzip(utf8("{\"value\":[]}"));
    List<Integer> clientPorts = new CopyOnWriteArrayList<>();
    try (RecordingHttpServer server = RecordingHttpServer.start((request, exchange) -> {
      clientPorts.add(exchange.getRemoteAddress().getPort());
      exchange.getResponseHeaders().set("Content-Encoding", "gzip");
      exchange.sendResponseHeaders(200, 0); // chunked
      exchange.getResponseBody().write(page);
      exchange.getResponseBody().flush();
      try {
        Thread.sleep(100); // the closing chunk comes after the gzip member's end has been read
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    })) {
      for (int call = 0; call < 3; call++) {
        try (CloudHttp.Answer answer = http(CloudHttp.Redirects.REPORTED).send(
            CloudHttp.Request.get(server.uri().resolve("/page")).with("Accept-Encoding", "gzip"),
            CloudHttp.Authorization.NONE, TIME)) {
          assertThat(answer.text()).isEqualTo("{\"value\":[]}");
        }
      }
      assertThat(clientPorts).hasSize(3);
      assertThat(Set.copyOf(clientPorts)).as("one connection for the three calls").hasSize(1);
    }
  }

  @Test
  void headersThatDoNotComeWithinTheTimeAreATimeoutNamingTheRequestWithoutItsQuery() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
      Thread trickle = new Thread(() -> {
        try (Socket socket = server.accept()) {
          socket.getInputStream().read(new byte[4096]);
          OutputStream out = socket.getOutputStream();
          for (byte b : utf8("HTTP/1.1 200 OK\r\n" + "X-Slow: y\r\n".repeat(100))) {
            out.write(b);
            out.flush();
            Thread.sleep(20); // each read well within the read timeout; all of it ~22 s
          }
        } catch (IOException | InterruptedException e) {
          // closed by the client at its deadline
        }
      });
      trickle.setDaemon(true);
      trickle.start();
      URI uri = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/api/v1/pods?continue=abc");
      assertThatThrownBy(() -> http(CloudHttp.Redirects.REPORTED).send(CloudHttp.Request.get(uri),
          CloudHttp.Authorization.NONE, Duration.ofMillis(400)))
          .isInstanceOf(SocketTimeoutException.class)
          .hasMessage("GET http://127.0.0.1:" + server.getLocalPort() + "/api/v1/pods: no answer within 400 ms");
      trickle.interrupt();
    }
  }

  @Test
  void anErrorStatusIsAnAnswerWithItsBody() throws Exception {
    try (RecordingHttpServer server = RecordingHttpServer.start((request, exchange) ->
        RecordingHttpServer.send(exchange, 503, Map.of("Retry-After", "3"), utf8("busy")))) {
      try (CloudHttp.Answer answer = http(CloudHttp.Redirects.REPORTED).send(CloudHttp.Request.get(server.uri()),
          CloudHttp.Authorization.NONE, TIME)) {
        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.reason()).isEqualTo("Service Unavailable");
        assertThat(answer.header("Retry-After")).isEqualTo("3");
        assertThat(answer.text()).isEqualTo("busy");
      }
    }
  }

  @Test
  void throughAProxyAnHttpCallNamesItsWholeUriAndAnHttpsCallIsTunnelled() throws Exception {
    try (ServerSocket proxy = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      // The selector's proxy for every URI; the hosts need not exist: only the proxy is connected to.
      ProxySelector selector = ProxySelector.of(new InetSocketAddress("127.0.0.1", proxy.getLocalPort()));
      CloudHttp viaProxy = new CloudHttp(LIMIT, CloudHttp.Redirects.REPORTED, null, selector);

      CompletableFuture<List<String>> asked = answerOnce(proxy, "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n"
          + "Connection: close\r\n\r\nproxied!");
      try (CloudHttp.Answer answer = viaProxy.send(
          CloudHttp.Request.get(URI.create("http://ec2.example.invalid:8080/list?a=1")), CloudHttp.Authorization.NONE,
          TIME)) {
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.text()).isEqualTo("proxied!");
      }
      // RFC 9112 3.2.2: a request to a proxy names the target in absolute form.
      assertThat(asked.get(10, TimeUnit.SECONDS).get(0))
          .isEqualTo("GET http://ec2.example.invalid:8080/list?a=1 HTTP/1.1");

      asked = answerOnce(proxy, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
      assertThatThrownBy(() -> viaProxy.send(CloudHttp.Request.get(URI.create("https://ec2.example.invalid/")),
          CloudHttp.Authorization.NONE, TIME)).isInstanceOf(IOException.class).hasMessageContaining("502");
      // RFC 9110 9.3.6: an https target is reached through a tunnel the proxy opens to its authority.
      assertThat(asked.get(10, TimeUnit.SECONDS).get(0)).isEqualTo("CONNECT ec2.example.invalid:443 HTTP/1.1");
    }
  }

  @Test
  void aDirectProxyOrNoSelectorGoesStraightToTheHost() throws Exception {
    try (RecordingHttpServer server = RecordingHttpServer.start((request, exchange) ->
        RecordingHttpServer.send(exchange, 200, Map.of(), utf8("direct")))) {
      ProxySelector direct = new ProxySelector() {
        @Override
        public List<Proxy> select(URI uri) {
          return List.of(Proxy.NO_PROXY);
        }

        @Override
        public void connectFailed(URI uri, java.net.SocketAddress address, IOException e) {}
      };
      try (CloudHttp.Answer answer = new CloudHttp(LIMIT, CloudHttp.Redirects.REPORTED, null, direct)
          .send(CloudHttp.Request.get(server.uri().resolve("/x")), CloudHttp.Authorization.NONE, TIME)) {
        assertThat(answer.text()).isEqualTo("direct");
      }
      assertThat(server.requests()).hasSize(1);
    }
  }

  /** Accepts one connection on {@code proxy}, keeps the request's head, answers {@code answer} and closes. */
  private static CompletableFuture<List<String>> answerOnce(ServerSocket proxy, String answer) {
    return CompletableFuture.supplyAsync(() -> {
      try (Socket socket = proxy.accept()) {
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
            StandardCharsets.US_ASCII));
        List<String> head = new java.util.ArrayList<>();
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
          head.add(line);
        }
        OutputStream out = socket.getOutputStream();
        out.write(answer.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return head;
      } catch (IOException e) {
        return List.of(e.toString());
      }
    });
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      zip.write(bytes);
    }
    return out.toByteArray();
  }
}
