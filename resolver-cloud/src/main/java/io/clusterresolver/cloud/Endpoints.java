package io.clusterresolver.cloud;

import io.clusterresolver.internal.UntrustedText;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import java.net.URI;
import java.util.List;

/** Reads endpoint overrides ({@code endpoint}, {@code metadata-endpoint}) the same way in every cloud. */
public final class Endpoints {

  private Endpoints() {}

  /**
   * The {@code http://} or {@code https://} URL a property holds, or {@code null} when it is unset
   * or invalid; an invalid one is added to {@code problems}, naming the key.
   */
  public static URI httpUrl(ResolverConfig config, ConfigProperty<String> property, List<String> problems) {
    String value = config.get(property);
    if (value == null) {
      return null;
    }
    try {
      URI uri = URI.create(value.trim());
      if (uri.getScheme() != null && uri.getHost() != null
          && (uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
        return uri;
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    problems.add(config.key(property) + ": '" + UntrustedText.escape(UntrustedText.withoutUserInfo(value), 200)
        + "' is not an http:// or https:// URL");
    return null;
  }
}
