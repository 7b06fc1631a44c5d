package io.clusterresolver.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each request recorded as sent (raw path and query, headers in any case), then answered as the test says. */
class RecordingHttpServerTest {

  @Test
  void aRequestIsRecordedAsSentAndAnsweredByTheTest() throws Exception {
    try (RecordingHttpServer server = RecordingHttpServer.start((request, exchange) -> RecordingHttpServer.send(
        exchange, request.path().endsWith("/gone") ? 404 : 200, Map.of("Metadata-Flavor", "Google"),
        request.path().endsWith("/gone") ? new byte[0] : "my-project".getBytes(StandardCharsets.UTF_8)))) {
      HttpClient client = HttpClient.newHttpClient();
      HttpResponse<String> found = client.send(HttpRequest.newBuilder(
          URI.create(server.uri() + "/v1/projects/pod%20slice%2B1?%24alt=json&x=1")).header("X-Goog-Request-Params",
          "name=a").build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> gone = client.send(HttpRequest.newBuilder(URI.create(server.uri() + "/gone")).build(),
          HttpResponse.BodyHandlers.ofString());

      assertThat(found.statusCode()).isEqualTo(200);
      assertThat(found.body()).isEqualTo("my-project");
      assertThat(found.headers().firstValue("metadata-flavor")).contains("Google");
      assertThat(gone.statusCode()).isEqualTo(404);
      assertThat(gone.body()).isEmpty();
      assertThat(server.requests()).hasSize(2);
      RecordingHttpServer.Request first = server.requests().get(0);
      assertThat(first.method()).isEqualTo("GET");
      assertThat(first.path()).isEqualTo("/v1/projects/pod%20slice%2B1");
      assertThat(first.query()).isEqualTo("%24alt=json&x=1");
      assertThat(first.header("x-goog-request-params")).isEqualTo("name=a");
      assertThat(server.requests().get(1).query()).isNull();
      assertThat(server.uri().getHost()).isEqualTo("127.0.0.1");
    }
  }
}
