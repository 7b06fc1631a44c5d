package io.clusterresolver.tpu;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
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

  private static final int CONNECT_TIMEOUT_MS = 1000;
  private static final int READ_TIMEOUT_MS = 2000;
  private static final int MAX_VALUE_BYTES = 1 << 20;

  private final URI endpoint;

  GceMetadata(URI endpoint) {
    this.endpoint = endpoint;
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

  /**
   * One value, trimmed; empty when the server has none or does not answer (logged at DEBUG). Plain
   * {@link HttpURLConnection} (no proxy, no redirects): the JDK class the API client already loaded,
   * so a cold resolve loads no second HTTP stack.
   */
  Optional<String> get(String path) {
    HttpURLConnection connection = null;
    try {
      connection = (HttpURLConnection) endpoint.resolve("/computeMetadata/v1/" + path).toURL()
          .openConnection(Proxy.NO_PROXY);
      connection.setConnectTimeout(CONNECT_TIMEOUT_MS);
      connection.setReadTimeout(READ_TIMEOUT_MS);
      connection.setInstanceFollowRedirects(false);
      connection.setRequestProperty("Metadata-Flavor", "Google");
      if (connection.getResponseCode() != 200 || !"Google".equals(connection.getHeaderField("Metadata-Flavor"))) {
        return Optional.empty();
      }
      try (InputStream in = connection.getInputStream()) {
        String value = new String(in.readNBytes(MAX_VALUE_BYTES), StandardCharsets.UTF_8).trim();
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
      }
    } catch (IOException | IllegalArgumentException e) {
      LOG.log(Level.DEBUG, () -> "tpu: metadata " + path + " not available from " + endpoint + " ("
          + e.getClass().getSimpleName() + ")");
      return Optional.empty();
    } finally {
      if (connection != null && connection.getErrorStream() != null) {
        try {
          connection.getErrorStream().close();
        } catch (IOException ignored) {
          // nothing to release
        }
      }
    }
  }

  /** The zone's short name ({@code instance/zone} is {@code projects/NUMBER/zones/ZONE}). */
  Optional<String> zone() {
    return get(ZONE).map(z -> z.substring(z.lastIndexOf('/') + 1));
  }
}
