package io.clusterresolver.tpu;

import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.google.GoogleProperties;
import io.clusterresolver.spi.ConfigProperty;

/** Every property the {@code tpu} provider reads: {@code clusterresolver.tpu.<name>}. */
final class TpuProperties {

  /** TensorFlow's default port of a TPU worker. */
  static final int DEFAULT_PORT = 8470;

  static final ConfigProperty<String> NAME = ConfigProperty.string("name")
      .description("The TPU node: its name, its full resource name projects/P/locations/ZONE/nodes/NAME, a list of"
          + " grpc://host[:port] workers, or 'local'; default: KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS, TPU_NAME, TPU_CONFIG,"
          + " then this TPU VM's own node from the metadata server")
      .build();
  static final ConfigProperty<String> PROJECT = ConfigProperty.string("project")
      .description("Google Cloud project of the node; default: TPU_CONFIG, then the metadata server")
      .build();
  static final ConfigProperty<String> ZONE = ConfigProperty.string("zone")
      .description("Zone of the node, like us-central2-b; default: TPU_CONFIG, then the metadata server")
      .build();
  static final ConfigProperty<Integer> PORT = CloudProperties.port(DEFAULT_PORT, "Port of each worker when the API, the"
      + " metadata or a grpc:// entry gives none; when set, it also replaces the ports the API lists");
  static final ConfigProperty<String> ENDPOINT = CloudProperties.endpoint(
      "Cloud TPU API endpoint override (a proxy, an emulator, a simulation); default https://tpu.googleapis.com");
  static final ConfigProperty<String> METADATA_ENDPOINT = CloudProperties.endpoint("metadata-endpoint",
      "Metadata server; default http:// + GCE_METADATA_HOST, else http://metadata.google.internal");
  static final ConfigProperty<String> CREDENTIALS = GoogleProperties.CREDENTIALS;
  static final ConfigProperty<Boolean> API = ConfigProperty.bool("api")
      .defaultValue("true")
      .description("Ask the Cloud TPU API (nodes.get); false: on a TPU VM, read the workers from the metadata server")
      .build();

  /** A worker is one task of job worker, its worker id its index. */
  static final CloudProperties.Declarations DECLARATIONS = CloudProperties.declarations(NAME, PROJECT, ZONE)
      .oneJob().indexByOrdinal().port(PORT).then(ENDPOINT, METADATA_ENDPOINT, CREDENTIALS, API).build();

  private TpuProperties() {}
}
