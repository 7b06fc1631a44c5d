package io.clusterresolver.tpu;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.cloud.CloudResolverProvider;
import io.clusterresolver.google.GoogleMetadata;
import io.clusterresolver.spi.ResolverContext;

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

  /** A public zero-argument constructor that does no work, for {@link java.util.ServiceLoader}. */
  public TpuClusterResolverProvider() {
    // A lambda: a method reference would load TpuResolverFactory, and verifying it the SDK's classes.
    super(NAME, PRIORITY, TpuProperties.DECLARATIONS, config -> TpuResolverFactory.create(config));
  }

  /**
   * TensorFlow's variables ({@code KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS}, {@code TPU_NAME},
   * {@code TPU_CONFIG}) first; else, only on Compute Engine (DMI product name) or with a named metadata
   * server ({@code metadata-endpoint} or {@code GCE_METADATA_HOST}), one metadata request for the
   * {@code accelerator-type} attribute every TPU VM has, bounded by the context's probe timeout. Off
   * Compute Engine without a named server no network is touched.
   */
  @Override
  protected boolean detect(ResolverContext context) {
    if (context.getenv(TpuResolverFactory.KUBE_ENDPOINTS).isPresent() || context.getenv(TpuResolverFactory.TPU_NAME)
        .isPresent() || context.getenv(TpuResolverFactory.TPU_CONFIG).isPresent()) {
      return true;
    }
    return GoogleMetadata.forDetection(NAME, context, GoogleMetadata.onComputeEngine())
        .flatMap(metadata -> metadata.get(TpuNodeSource.ACCELERATOR_TYPE)).isPresent();
  }
}
