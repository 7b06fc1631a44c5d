package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.Deadline;
import io.clusterresolver.cloud.PlatformProbes;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeadlineAndProbesTest {

  @Test
  void deadlineExpiresAndNamesTheTimeoutProperty() throws Exception {
    Deadline deadline = Deadline.after(Duration.ofMillis(20));
    deadline.check("aws", "DescribeInstances");
    Thread.sleep(30);
    assertThat(deadline.expired()).isTrue();
    assertThat(deadline.remaining()).isEqualTo(Duration.ZERO);
    assertThatThrownBy(() -> deadline.check("aws", "DescribeInstances"))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("DescribeInstances").hasMessageContaining("clusterresolver.aws.timeout");
    assertThatThrownBy(() -> Deadline.after(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void hintFilesAreReadSafely(@TempDir Path dir) throws Exception {
    Path vendor = dir.resolve("sys_vendor");
    Files.writeString(vendor, "Amazon EC2\n");
    assertThat(PlatformProbes.fileContains(vendor, "amazon")).isTrue();
    assertThat(PlatformProbes.fileStartsWith(vendor, "amazon")).isTrue();
    assertThat(PlatformProbes.fileContains(dir.resolve("missing"), "amazon")).isFalse();
    assertThat(PlatformProbes.firstLine(dir)).isEmpty();
  }

  @Test
  void httpProbeAnswersOnceAndFailsQuietly() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/token", exchange -> {
      byte[] body = ("t-" + exchange.getRequestMethod() + "-" + exchange.getRequestHeaders().getFirst("X-Ttl"))
          .getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    try {
      URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/token");
      PlatformProbes.Response response =
          PlatformProbes.http("PUT", uri, Map.of("X-Ttl", "5"), Duration.ofSeconds(2)).orElseThrow();
      assertThat(response.ok()).isTrue();
      assertThat(response.body()).isEqualTo("t-PUT-5");
      assertThat(response.toString()).doesNotContain("t-PUT");
    } finally {
      server.stop(0);
    }
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    long start = System.nanoTime();
    assertThat(PlatformProbes.http("GET", URI.create("http://127.0.0.1:" + closedPort + "/"), Map.of(),
        Duration.ofMillis(100))).isEmpty();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
  }
}
