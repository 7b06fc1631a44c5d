package io.clusterresolver.google;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.cloud.MetadataClient;
import io.clusterresolver.testkit.RecordingHttpServer;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link GoogleMetadata} against a loopback server that answers as cloud.google.com/compute/docs/metadata
 * describes the metadata server: {@code /computeMetadata/v1/...}, only with {@code Metadata-Flavor: Google},
 * and every answer carries that header.
 */
class GoogleMetadataTest {

  private static final Map<String, String> VALUES = Map.of(
      "/computeMetadata/v1/", "instance/\nproject/\n",
      "/computeMetadata/v1/instance/id", "4520031799277581759",
      "/computeMetadata/v1/project/project-id", "my-project\n",
      "/computeMetadata/v1/instance/zone", "projects/123456789012/zones/us-central2-b");

  private RecordingHttpServer server;
  private URI base;
  private volatile boolean flavored = true;

  @BeforeEach
  void start() throws IOException {
    server = RecordingHttpServer.start((request, exchange) -> {
      String value = VALUES.get(request.path());
      boolean asked = "Google".equals(request.header("Metadata-Flavor"));
      byte[] body = (value == null || !asked ? "" : value).getBytes(StandardCharsets.UTF_8);
      RecordingHttpServer.send(exchange, !asked ? 403 : value == null ? 404 : 200,
          flavored ? Map.of("Metadata-Flavor", "Google") : Map.of(), body);
    });
    base = server.uri();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private GoogleMetadata metadata() {
    return new GoogleMetadata("gce", base, Duration.ofSeconds(2), Duration.ofSeconds(2),
        MetadataClient.DEFAULT_MAX_ANSWER_BYTES);
  }

  @Test
  void valuesAreTrimmedAndTheZoneIsItsShortName() {
    GoogleMetadata metadata = metadata();
    assertThat(metadata.projectId()).contains("my-project");
    assertThat(metadata.instanceId()).contains("4520031799277581759");
    assertThat(metadata.zone()).contains("us-central2-b");
    assertThat(metadata.get("instance/attributes/accelerator-type")).isEmpty();
    assertThat(metadata.answers()).isTrue();
    assertThat(metadata.base()).isEqualTo(base);
  }

  @Test
  void anAnswerWithoutTheFlavorHeaderIsNoValue() {
    flavored = false;
    assertThat(metadata().projectId()).isEmpty();
    assertThat(metadata().answers()).isFalse();
  }

  @Test
  void theServerIsTheEndpointElseGceMetadataHostElseGoogles() {
    URI configured = URI.create("http://10.0.0.9:8080");
    assertThat(GoogleMetadata.base(configured, "127.0.0.1:1")).isEqualTo(configured);
    // GCE_METADATA_HOST is host:port in Google's client libraries; a scheme, if given, is kept.
    assertThat(GoogleMetadata.base(null, " 127.0.0.1:8080 ")).isEqualTo(URI.create("http://127.0.0.1:8080"));
    assertThat(GoogleMetadata.base(null, "http://127.0.0.1:8080")).isEqualTo(URI.create("http://127.0.0.1:8080"));
    assertThat(GoogleMetadata.base(null, null)).isEqualTo(URI.create("http://metadata.google.internal"));
    assertThat(GoogleMetadata.base(null, " ")).isEqualTo(URI.create("http://metadata.google.internal"));
  }
}
