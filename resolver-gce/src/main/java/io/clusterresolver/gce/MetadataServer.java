package io.clusterresolver.gce;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * The Compute Engine metadata server: {@code GET /computeMetadata/v1/...} with
 * {@code Metadata-Flavor: Google}, answered only when the response carries the same header (so a
 * captive portal or proxy page is never taken for an answer). No retries, short timeouts.
 */
final class MetadataServer {

  private static final System.Logger LOG = System.getLogger(MetadataServer.class.getName());

  /** The metadata server's address on every Compute Engine instance. */
  static final URI DEFAULT = URI.create("http://metadata.google.internal");

  private final URI base;
  private final Duration timeout;

  MetadataServer(URI base, Duration timeout) {
    this.base = base;
    this.timeout = timeout;
  }

  /**
   * The server: {@code metadata-endpoint} when given, else {@code GCE_METADATA_HOST} (a
   * {@code host:port}, as Google's client libraries read it), else {@link #DEFAULT}.
   */
  static URI baseOf(URI explicit, String metadataHostVariable) {
    if (explicit != null) {
      return explicit;
    }
    if (metadataHostVariable != null && !metadataHostVariable.isBlank()) {
      String host = metadataHostVariable.trim();
      return URI.create(host.startsWith("http://") || host.startsWith("https://") ? host : "http://" + host);
    }
    return DEFAULT;
  }

  URI base() {
    return base;
  }

  /** This instance's numeric id. */
  Optional<String> instanceId() {
    return get("instance/id");
  }

  /** The project id of this instance. */
  Optional<String> projectId() {
    return get("project/project-id");
  }

  /** This instance's zone name ({@code us-central1-a}), from {@code projects/NUMBER/zones/ZONE}. */
  Optional<String> zone() {
    return get("instance/zone").map(z -> z.substring(z.lastIndexOf('/') + 1));
  }

  /** Whether the server answers as a Compute Engine metadata server (for detection). */
  boolean answers() {
    return fetch("").isPresent();
  }

  private Optional<String> get(String path) {
    Optional<String> value = fetch(path);
    if (value.isEmpty()) {
      LOG.log(Level.INFO, () -> "gce: metadata " + path + " not available from " + base
          + (path.startsWith("instance/") ? "; this process is not matched to an instance: set"
              + " clusterresolver.gce.task-type and task-id, or clusterresolver.gce.metadata-endpoint" : ""));
    }
    return value.map(String::trim).filter(v -> !v.isEmpty());
  }

  private Optional<String> fetch(String path) {
    HttpURLConnection connection = null;
    try {
      URI uri = URI.create(base.toString().replaceAll("/+$", "") + "/computeMetadata/v1/" + path);
      connection = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
      int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
      connection.setConnectTimeout(millis);
      connection.setReadTimeout(millis);
      connection.setInstanceFollowRedirects(false);
      connection.setRequestProperty("Metadata-Flavor", "Google");
      if (connection.getResponseCode() != 200 || !"Google".equals(connection.getHeaderField("Metadata-Flavor"))) {
        return Optional.empty();
      }
      try (InputStream in = connection.getInputStream()) {
        return Optional.of(new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8));
      }
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    } finally {
      if (connection != null) {
        connection.disconnect();
      }
    }
  }
}
