package io.clusterresolver.tpu;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * The Compute Engine metadata server as a TPU VM sees it: {@code GET /computeMetadata/v1/PATH} with
 * {@code Metadata-Flavor: Google}. A missing value (404) or no server at all is an empty answer.
 */
final class GceMetadata {

  private static final System.Logger LOG = System.getLogger(GceMetadata.class.getName());

  /** The metadata server's name inside Google Cloud. */
  static final URI DEFAULT_ENDPOINT = URI.create("http://metadata.google.internal");

  static final String PROJECT_ID = "project/project-id";
  static final String ZONE = "instance/zone";
  static final String INTERNAL_IP = "instance/network-interfaces/0/ip";
  static final String WORKER_ENDPOINTS = "instance/attributes/worker-network-endpoints";
  static final String WORKER_NUMBER = "instance/attributes/agent-worker-number";
  static final String ACCELERATOR_TYPE = "instance/attributes/accelerator-type";

  private final URI endpoint;
  private final HttpClient http;

  GceMetadata(URI endpoint) {
    this.endpoint = endpoint;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1))
        .followRedirects(HttpClient.Redirect.NEVER).build();
  }

  /** The endpoint of {@code metadata-endpoint}, else {@code http://} + {@code GCE_METADATA_HOST}, else the default. */
  static URI endpoint(URI configured, String gceMetadataHost) {
    if (configured != null) {
      return configured;
    }
    if (gceMetadataHost != null && !gceMetadataHost.isBlank()) {
      return URI.create("http://" + gceMetadataHost.trim());
    }
    return DEFAULT_ENDPOINT;
  }

  URI endpoint() {
    return endpoint;
  }

  /** One value, trimmed; empty when the server has none or does not answer (logged at DEBUG). */
  Optional<String> get(String path) {
    HttpRequest request = HttpRequest.newBuilder(endpoint.resolve("/computeMetadata/v1/" + path))
        .header("Metadata-Flavor", "Google").timeout(Duration.ofSeconds(2)).GET().build();
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      if (response.statusCode() != 200
          || !"Google".equals(response.headers().firstValue("Metadata-Flavor").orElse(null))) {
        return Optional.empty();
      }
      String value = response.body().trim();
      return value.isEmpty() ? Optional.empty() : Optional.of(value);
    } catch (IOException e) {
      LOG.log(Level.DEBUG, () -> "tpu: metadata " + path + " not available from " + endpoint + " ("
          + e.getClass().getSimpleName() + ")");
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** The zone's short name ({@code instance/zone} is {@code projects/NUMBER/zones/ZONE}). */
  Optional<String> zone() {
    return get(ZONE).map(z -> z.substring(z.lastIndexOf('/') + 1));
  }
}
