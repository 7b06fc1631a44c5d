package io.clusterresolver.tpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.cloud.tpu.v2.TpuClient;
import com.google.cloud.tpu.v2.TpuSettings;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.testkit.RecordingHttpServer;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider's {@code nodes.get} is the request google-cloud-tpu's own {@code TpuClient} sends over REST (the
 * independent implementation): both are sent to one loopback server, which records them.
 */
class TpuRequestTest {

  private RecordingHttpServer server;
  private URI endpoint;

  @BeforeEach
  void start() throws IOException {
    server = RecordingHttpServer.start((request, exchange) -> RecordingHttpServer.send(exchange, 200,
        Map.of("Content-Type", "application/json"),
        "{\"name\": \"projects/p/locations/z/nodes/n\"}".getBytes(StandardCharsets.UTF_8)));
    endpoint = server.uri();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void nodesGetIsTheRequestOfTheSdksClient() throws Exception {
    String name = "projects/my-project/locations/us-central2-b/nodes/pod slice+1";
    TpuApi api = new TpuApi(endpoint, NoCredentialsProvider.create(), AnswerLimit.ofBytes(1 << 20));
    assertThat(api.getNode(name, Duration.ofSeconds(10)).name()).isEqualTo("projects/p/locations/z/nodes/n");
    TpuSettings settings = TpuSettings.newHttpJsonBuilder().setEndpoint(endpoint.toString())
        .setCredentialsProvider(NoCredentialsProvider.create()).build();
    try (TpuClient sdk = TpuClient.create(settings)) {
      sdk.getNode(name);
    }

    assertThat(server.requests()).hasSize(2);
    RecordingHttpServer.Request ours = server.requests().get(0);
    RecordingHttpServer.Request sdks = server.requests().get(1);
    assertThat(ours.method()).isEqualTo(sdks.method()).isEqualTo("GET");
    assertThat(ours.path()).isEqualTo(sdks.path()).startsWith("/v2/projects/my-project/");
    assertThat(ours.query()).isEqualTo(sdks.query());
    assertThat(ours.header("x-goog-request-params")).isEqualTo(sdks.header("x-goog-request-params")).isNotBlank();
    assertThat(ours.header("Authorization")).isNull();
    // Both ask for a gzip answer, which Google's front ends give only to a user agent that says "gzip".
    assertThat(ours.header("Accept-Encoding")).isEqualTo(sdks.header("Accept-Encoding")).contains("gzip");
    assertThat(ours.header("User-Agent")).contains("gzip");
    assertThat(sdks.header("User-Agent")).contains("gzip");
    // The SDK adds its own library's token (gapic/…) to gl-java/…, gax/… and rest/…: ours is the same less that one.
    assertThat(tokens(sdks.header("x-goog-api-client"))).containsAll(tokens(ours.header("x-goog-api-client")));
    assertThat(tokens(ours.header("x-goog-api-client"))).anyMatch(t -> t.startsWith("gl-java/")).anyMatch(t -> t.startsWith("gax/"))
        .anyMatch(t -> t.startsWith("rest/"));
  }

  private static List<String> tokens(String header) {
    return List.of(header.split(" "));
  }
}
