package io.clusterresolver.google;

import io.clusterresolver.spi.ConfigProperty;

/**
 * Declarations every Google provider shares. Apart from {@link GoogleCredentialsSetting}, which reads
 * them with the SDK, so that a provider's declarations load no SDK class.
 */
public final class GoogleProperties {

  /** {@code credentials}: {@code none}, a service-account key file, or unset for Application Default Credentials. */
  public static final ConfigProperty<String> CREDENTIALS = ConfigProperty.string("credentials")
      .description("none (send no token: emulators, proxies) or the path of a service-account JSON key file;"
          + " default: Application Default Credentials")
      .build();

  private GoogleProperties() {}
}
