package io.clusterresolver.azure;

import io.clusterresolver.cloud.CloudResolverProvider;
import io.clusterresolver.cloud.PlatformProbes;
import io.clusterresolver.spi.ResolverContext;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The {@code azure} provider: the virtual machines of a resource group (or subscription) or of a
 * scale set, as a cluster. Every {@code clusterSpec()} lists them afresh, one listing of VMs and one
 * of network interfaces (every page, under one deadline), never one call per VM; this process finds
 * its own task by its resource id from the Instance Metadata Service. Properties:
 * {@code clusterresolver.azure.*}, see the module README.
 */
public final class AzureClusterResolverProvider extends CloudResolverProvider {

  /** The provider's name. */
  public static final String NAME = "azure";

  /** The chassis asset tag every Azure VM carries (DMI). */
  static final String AZURE_ASSET_TAG = "7783-7084-3265-9085-8269-3286-77";
  static final Path DMI_CHASSIS_ASSET_TAG = Path.of("/sys/class/dmi/id/chassis_asset_tag");

  /** A public zero-argument constructor that does no work, for {@link java.util.ServiceLoader}. */
  public AzureClusterResolverProvider() {
    // A lambda: a method reference would load AzureResolverFactory, and verifying it the SDK's classes.
    super(NAME, AzureProperties.DECLARATIONS, config -> AzureResolverFactory.create(config));
  }

  /**
   * The DMI chassis asset tag of Azure ({@value #AZURE_ASSET_TAG}) or an explicit
   * {@code imds-endpoint} first; only then one IMDS request bounded by the context's probe timeout.
   * Off Azure no network is touched.
   */
  @Override
  protected boolean detect(ResolverContext context) {
    return isAvailable(context, DMI_CHASSIS_ASSET_TAG);
  }

  /** {@link #isAvailable(ResolverContext)} with the DMI asset tag read from {@code assetTag}. */
  static boolean isAvailable(ResolverContext context, Path assetTag) {
    try {
      Optional<String> explicit = context.property(AzureProperties.IMDS_ENDPOINT.key(NAME));
      if (explicit.isEmpty() && !PlatformProbes.fileContains(assetTag, AZURE_ASSET_TAG)) {
        return false;
      }
      URI endpoint = URI.create(explicit.orElse(Imds.DEFAULT_ENDPOINT.toString()));
      return Imds.probe(endpoint, context.probeTimeout());
    } catch (RuntimeException e) {
      return false;
    }
  }
}
