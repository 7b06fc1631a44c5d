package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpServer;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.AnswerLimitException;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.CloudHttp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Answers with {@code Content-Encoding: gzip} (what ARM sends for {@code Accept-Encoding: gzip}), from
 * the JDK's own HTTP server with bodies compressed by {@link GZIPOutputStream}, to the provider's
 * {@link ArmHttp}: read inflated, bounded by what they inflate to, not by what arrives, and read to
 * their end on the wire, so that one connection carries a listing's pages.
 */
class GzipAnswersTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private HttpServer server;
  private final AtomicLong bytesSent = new AtomicLong();
  private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void aGzipAnswerIsReadInflated() throws Exception {
    StringBuilder json = new StringBuilder("{\"value\":[");
    for (int i = 0; i < 500; i++) {
      json.append(i == 0 ? "" : ",").append("{\"name\":\"vm-").append(i).append("\",\"location\":\"eastus\"}");
    }
    String body = json.append("]}").toString();
    URL url = serve(gzip(body.getBytes(StandardCharsets.UTF_8)));

    byte[] answer = arm(AnswerLimit.ofBytes(1 << 20)).get(url.toString(), null, whole);

    assertThat(new String(answer, StandardCharsets.UTF_8)).isEqualTo(body);
    assertThat(bytesSent.get()).as("sent compressed").isLessThan(body.length() / 4);
  }

  @Test
  void aSmallGzipAnswerThatInflatesPastTheLimitStopsAtTheLimit() throws Exception {
    byte[] inflated = new byte[16 << 20]; // 16 MiB of zeros: about 16 KiB compressed
    System.arraycopy("{\"value\":[\"".getBytes(StandardCharsets.US_ASCII), 0, inflated, 0, 11);
    byte[] compressed = gzip(inflated);
    assertThat(compressed.length).isLessThan(1 << 20);
    URL url = serve(compressed);

    Throwable e = catchThrowable(() -> arm(AnswerLimit.ofBytes(1 << 20)).get(url.toString(), null, whole));

    AnswerLimitException limit = AnswerLimitException.find(e);
    assertThat(limit).as("%s", e).isNotNull();
    assertThat(limit.tooSlow()).isFalse();
    assertThat(limit.getMessage()).contains("larger than the limit of 1 MiB");
  }

  @Test
  void gzipAnswersOneAfterAnotherGoOverOneConnection() throws Exception {
    URL url = serve(gzip("{\"value\":[]}".getBytes(StandardCharsets.UTF_8)));
    ArmHttp http = arm(AnswerLimit.ofBytes(1 << 20));

    for (int page = 0; page < 10; page++) {
      assertThat(http.get(url.toString(), null, whole)).asString(StandardCharsets.UTF_8)
          .isEqualTo("{\"value\":[]}");
    }

    // Each connection is a TLS handshake against ARM: a body closed before its end would close its connection.
    assertThat(clientPorts).as("the client's ports, one per connection").hasSize(1);
  }

  /** The provider's ARM calls, with a fixed token, over the JVM's default TLS trust. */
  /** A 200's whole body. */
  private final CloudHttp.AnswerReader<byte[]> whole = answer -> answer.body().readAllBytes();

  private static ArmHttp arm(AnswerLimit limit) {
    return new ArmHttp(null, BoundedAnswers.of(limit, TIMEOUT), BearerTokens.fixed("t"), null);
  }

  private URL serve(byte[] gzipBody) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.getResponseHeaders().add("Content-Encoding", "gzip");
      exchange.sendResponseHeaders(200, gzipBody.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(gzipBody);
      }
      bytesSent.addAndGet(gzipBody.length);
      clientPorts.add(exchange.getRemoteAddress().getPort());
    });
    server.start();
    return new URL("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/list");
  }

  private static byte[] gzip(byte[] body) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(body);
    }
    return out.toByteArray();
  }
}
