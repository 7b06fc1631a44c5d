package io.clusterresolver.tpu;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.cloud.CloudResolverProvider;
import io.clusterresolver.cloud.MetadataClient;
import io.clusterresolver.cloud.PlatformProbes;
import io.clusterresolver.google.GoogleMetadata;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The {@code tpu} provider: the workers of one Cloud TPU node (v2 to v6e, a single host or a pod
 * slice) as job {@code worker} in worker order, from one {@code nodes.get} of the Cloud TPU API v2
 * per call, or on a TPU VM from its metadata server. Only a {@code READY} node resolves. Properties:
 * {@code clusterresolver.tpu.*}, see the module README.
 */
public final class TpuClusterResolverProvider extends CloudResolverProvider {

  /** The provider's name. */
  public static final String NAME = "tpu";

  /** What {@link ClusterResolver#environment()} returns, as TensorFlow's TPU resolver does at Google. */
  public static final String ENVIRONMENT = "google";

  /** Above the plain cloud providers (a TPU VM is also a Compute Engine VM), below scheduler and configuration ones. */
  private static final int PRIORITY = 60;

  private static final Path DMI_PRODUCT_NAME = Path.of("/sys/class/dmi/id/product_name");

  /** A public zero-argument constructor that does no work, for {@link java.util.ServiceLoader}. */
  public TpuClusterResolverProvider() {
    super(NAME, PRIORITY, TpuProperties.ALL);
  }

  /**
   * TensorFlow's variables ({@code KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS}, {@code TPU_NAME},
   * {@code TPU_CONFIG}) first; else, only on Compute Engine (DMI product name) or with an explicit
   * {@code metadata-endpoint}, one metadata request for the {@code accelerator-type} attribute every
   * TPU VM has, bounded by the context's probe timeout. Off Google Cloud no network is touched.
   */
  @Override
  protected boolean detect(ResolverContext context) {
    if (context.getenv(TpuResolverFactory.KUBE_ENDPOINTS).isPresent() || context.getenv(TpuResolverFactory.TPU_NAME)
        .isPresent() || context.getenv(TpuResolverFactory.TPU_CONFIG).isPresent()) {
      return true;
    }
    Optional<String> explicit = context.property(TpuProperties.METADATA_ENDPOINT.key(NAME));
    if (explicit.isEmpty() && !PlatformProbes.fileContains(DMI_PRODUCT_NAME, "google compute engine")) {
      return false;
    }
    URI base = GoogleMetadata.base(explicit.map(URI::create).orElse(null), context.getenv("GCE_METADATA_HOST").orElse(null));
    return new GoogleMetadata(NAME, base, context.probeTimeout(), context.probeTimeout(),
        MetadataClient.DEFAULT_MAX_ANSWER_BYTES).get(TpuNodeSource.ACCELERATOR_TYPE).isPresent();
  }

  /** Validates the configuration and builds the resolver (in {@link TpuResolverFactory}, so that loading this provider loads no SDK class). */
  @Override
  public ClusterResolver create(ResolverConfig config) {
    return TpuResolverFactory.create(config);
  }
}
