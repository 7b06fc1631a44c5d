package io.clusterresolver.gce;

import io.clusterresolver.cloud.CloudResolverProvider;
import io.clusterresolver.google.GoogleMetadata;
import io.clusterresolver.spi.ResolverContext;
import java.nio.file.Path;

/**
 * The {@code gce} provider: the Compute Engine instances selected by labels, status, zones or an
 * instance group, as a cluster. Every {@code clusterSpec()} lists them afresh in one listing
 * ({@code instances.aggregatedList}, every page); this process finds its own task by its instance
 * id from the metadata server. Properties: {@code clusterresolver.gce.*}, see the module README.
 */
public final class GceClusterResolverProvider extends CloudResolverProvider {

  /** The provider's name. */
  public static final String NAME = "gce";

  /** The DMI product name of every Compute Engine machine. */
  static final Path DMI_PRODUCT_NAME = GoogleMetadata.DMI_PRODUCT_NAME;

  /** A public zero-argument constructor that does no work, for {@link java.util.ServiceLoader}. */
  public GceClusterResolverProvider() {
    // A lambda: a method reference would load GceResolverFactory, and verifying it the SDK's classes.
    super(NAME, GceProperties.DECLARATIONS, config -> GceResolverFactory.create(config));
  }

  /**
   * The DMI product name "Google Compute Engine" first (no network); without it, only when a metadata
   * server is named ({@code metadata-endpoint} or {@code GCE_METADATA_HOST}), one request to it bounded
   * by the context's probe timeout. Off Compute Engine no network is touched.
   */
  @Override
  protected boolean detect(ResolverContext context) {
    return GoogleMetadata.onComputeEngine()
        || GoogleMetadata.forDetection(NAME, context, false).map(GoogleMetadata::answers).orElse(false);
  }
}
