package io.clusterresolver.tpu;

import io.clusterresolver.google.GoogleMetadata;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * The Compute Engine metadata server as a TPU VM sees it ({@link GoogleMetadata}), with the TPU VM's
 * attributes. A missing value (404) or no server at all is an empty answer.
 */
final class GceMetadata {

  static final String PROJECT_ID = GoogleMetadata.PROJECT_ID;
  static final String ZONE = GoogleMetadata.ZONE;
  static final String INTERNAL_IP = GoogleMetadata.INTERNAL_IP;
  static final String WORKER_ENDPOINTS = "instance/attributes/worker-network-endpoints";
  static final String WORKER_NUMBER = "instance/attributes/agent-worker-number";
  static final String ACCELERATOR_TYPE = "instance/attributes/accelerator-type";

  /** A pod slice's worker list may be long. */
  private static final int MAX_VALUE_BYTES = 1 << 20;

  private final GoogleMetadata server;

  GceMetadata(URI endpoint) {
    this.server = new GoogleMetadata(TpuClusterResolverProvider.NAME, endpoint, Duration.ofSeconds(1),
        Duration.ofSeconds(2), MAX_VALUE_BYTES);
  }

  /** The endpoint of {@code metadata-endpoint}, else {@code GCE_METADATA_HOST}, else the default. */
  static URI endpoint(URI configured, String gceMetadataHost) {
    return GoogleMetadata.base(configured, gceMetadataHost);
  }

  URI endpoint() {
    return server.base();
  }

  /** One value, trimmed; empty when the server has none or does not answer (logged at DEBUG). */
  Optional<String> get(String path) {
    return server.get(path);
  }

  /** The zone's short name ({@code instance/zone} is {@code projects/NUMBER/zones/ZONE}). */
  Optional<String> zone() {
    return server.zone();
  }
}
