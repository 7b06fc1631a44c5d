package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.Deadline;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.LogCapture;
import io.clusterresolver.testkit.RecordingHttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What {@link ImdsTokens} keeps now that the kit's {@code MetadataClient} sends its requests: every ask within the
 * resolve's deadline (a trickled answer cut there, no retry started without time for it), a lost answer not asked
 * again, the answer limit, and the log line that says why the chain is asked, without the request's query or a token.
 */
class ImdsTokensBoundsTest {

  private static final BoundedAnswers BOUNDS = BoundedAnswers.of(AnswerLimit.ofBytes(1 << 20), Duration.ofSeconds(10));
  private static final String CHAIN_TOKEN = "token-of-the-chain";
  private static final String CLIENT_ID = "0b6f7c1e-1d7a-4c8e-9d2a-3f4e5a6b7c8d";

  private static BearerTokens chain() {
    return BearerTokens.fixed(CHAIN_TOKEN);
  }

  private static String answer(String token) {
    return "{\"access_token\":\"" + token + "\",\"expires_in\":\"3599\",\"expires_on\":\""
        + (Instant.now().getEpochSecond() + 3599) + "\",\"token_type\":\"Bearer\"}";
  }

  @Test
  void aTrickledAnswerIsCutWhenTheResolvesTimeIsUpAndTheChainAsked() {
    // The whole answer takes 20 s, each byte well within a read's timeout.
    try (HostileEndpoint imds = HostileEndpoint.trickle(answer("x".repeat(100)), Duration.ofMillis(100))) {
      ImdsTokens tokens = ImdsTokens.of(imds.uri(), null, ArmClients.SCOPE, BOUNDS, ImdsTokensBoundsTest::chain);
      long start = System.nanoTime();
      assertThat(tokens.token(Deadline.after(Duration.ofMillis(500)))).isEqualTo(CHAIN_TOKEN);
      // Cut by the deadline, not by the 2 s an ask has at most.
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
      assertThat(imds.requests()).hasSize(1);
    }
  }

  @Test
  void anAnswerOverTheLimitIsNoTokenAndIsNotReadToItsEnd() throws IOException {
    try (HostileEndpoint imds = HostileEndpoint.endless("{\"access_token\":\"", "a", 8 << 20)) {
      ImdsTokens tokens = ImdsTokens.of(imds.uri(), null, ArmClients.SCOPE, BOUNDS, ImdsTokensBoundsTest::chain);
      assertThat(tokens.token(Deadline.after(Duration.ofSeconds(10)))).isEqualTo(CHAIN_TOKEN);
      assertThat(imds.bytesSent()).isLessThan(8 << 20);
    }
    try (RecordingHttpServer imds = RecordingHttpServer.start((request, exchange) -> RecordingHttpServer.send(exchange,
        200, Map.of("Content-Type", "application/json"), answer("t").getBytes(StandardCharsets.UTF_8)))) {
      int size = answer("t").length();
      BoundedAnswers tight = BoundedAnswers.of(AnswerLimit.ofBytes(size - 1), Duration.ofSeconds(10));
      assertThat(ImdsTokens.of(imds.uri(), null, ArmClients.SCOPE, tight, ImdsTokensBoundsTest::chain).token(null))
          .isEqualTo(CHAIN_TOKEN);
      BoundedAnswers enough = BoundedAnswers.of(AnswerLimit.ofBytes(size), Duration.ofSeconds(10));
      assertThat(ImdsTokens.of(imds.uri(), null, ArmClients.SCOPE, enough, ImdsTokensBoundsTest::chain).token(null))
          .isEqualTo("t");
    }
  }

  @Test
  void aRequestThatGotNoAnswerIsNotSentAgain() throws IOException {
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
      ImdsTokens tokens = ImdsTokens.of(nobody, null, ArmClients.SCOPE, BOUNDS, ImdsTokensBoundsTest::chain);
      assertThat(tokens.token(Deadline.after(Duration.ofMillis(300)))).isEqualTo(CHAIN_TOKEN);
      assertThat(held).hasSize(1);
    } finally {
      for (Socket socket : held) {
        socket.close();
      }
    }
  }

  @Test
  void noRetryIsStartedWithoutAsMuchTimeAgainLeftForTheNextAsk() throws IOException {
    AtomicInteger asked = new AtomicInteger();
    try (RecordingHttpServer imds = RecordingHttpServer.start((request, exchange) -> {
      asked.incrementAndGet();
      RecordingHttpServer.send(exchange, 503, Map.of(), new byte[0]);
    })) {
      ImdsTokens tokens = ImdsTokens.of(imds.uri(), null, ArmClients.SCOPE, BOUNDS, ImdsTokensBoundsTest::chain);
      // 1 s: the 200 ms wait leaves some 800 ms >= 400 ms; the 400 ms one would leave under 400 ms, not 800.
      assertThat(tokens.token(Deadline.after(Duration.ofSeconds(1)))).isEqualTo(CHAIN_TOKEN);
      assertThat(asked).hasValue(2);
    }
  }

  @Test
  void theLogLineSaysWhyAndWhereWithoutTheQueryOrAToken() throws IOException {
    try (RecordingHttpServer imds = RecordingHttpServer.start((request, exchange) -> RecordingHttpServer.send(exchange,
        400, Map.of("Content-Type", "application/json"), "{\"error\":\"invalid_request\"}".getBytes(
            StandardCharsets.UTF_8)));
        LogCapture logs = new LogCapture()) {
      ImdsTokens tokens = ImdsTokens.of(imds.uri(), CLIENT_ID, ArmClients.SCOPE, BOUNDS, ImdsTokensBoundsTest::chain);
      assertThat(tokens.token(null)).isEqualTo(CHAIN_TOKEN);
      assertThat(logs.messages()).contains("azure: the instance metadata service at " + imds.uri()
          + " gave no managed identity token (HTTP 400); asking azure-identity's default credential chain");
      assertThat(String.join("\n", logs.messages())).doesNotContain(CLIENT_ID).doesNotContain("resource=");
    }
    try (RecordingHttpServer imds = RecordingHttpServer.start((request, exchange) -> RecordingHttpServer.send(exchange,
        200, Map.of("Content-Type", "application/json"), answer("secret-token").getBytes(StandardCharsets.UTF_8)));
        LogCapture logs = new LogCapture()) {
      ImdsTokens tokens = ImdsTokens.of(imds.uri(), null, ArmClients.SCOPE, BOUNDS, ImdsTokensBoundsTest::chain);
      assertThat(tokens.token(null)).isEqualTo("secret-token");
      assertThat(tokens.renewed(null)).isEqualTo("secret-token");
      assertThat(String.join("\n", logs.messages())).doesNotContain("secret-token");
      assertThat(tokens.toString()).doesNotContain("secret-token");
    }
  }
}
