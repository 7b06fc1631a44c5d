package io.clusterresolver.google;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.auth.oauth2.GoogleCredentials;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A Google provider's {@code credentials} property: {@code none} sends no token (emulators,
 * proxies), a path names a service-account JSON key file (read now, when the resolver is created),
 * unset means Application Default Credentials (looked for when the first client is built, so a
 * resolver that never calls the API never needs them; on a VM, the metadata server's token asked for directly, see
 * {@link ApplicationDefault}). The file's contents never appear in a message.
 */
public final class GoogleCredentialsSetting {

  /** The value that sends no token. */
  public static final String NONE = "none";

  /** The DMI product name file google-auth-library reads to tell a Compute Engine VM. */
  private static final Path DMI_PRODUCT_NAME = Path.of("/sys/class/dmi/id/product_name");

  private GoogleCredentialsSetting() {}

  /**
   * The credentials the property names, asking for {@code scopes}.
   *
   * @return the credentials provider, or {@code null} with a problem added that names the key (never the file's content)
   */
  public static CredentialsProvider read(ResolverConfig config, ConfigProperty<String> property, List<String> scopes,
      List<String> problems) {
    String value = config.get(property);
    if (value == null) {
      return new ApplicationDefault(config.provider(), System::getenv, System::getProperty, DMI_PRODUCT_NAME, scopes);
    }
    if (NONE.equals(value.trim())) {
      return NoCredentialsProvider.create();
    }
    Path file = Path.of(value.trim());
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      problems.add(config.key(property) + ": '" + value + "' is not a readable file: give the path of a"
          + " service-account JSON key file, or none (no token: emulators and proxies), or leave it unset for"
          + " Application Default Credentials");
      return null;
    }
    try (InputStream in = Files.newInputStream(file)) {
      return FixedCredentialsProvider.create(GoogleCredentials.fromStream(in).createScoped(scopes));
    } catch (IOException | RuntimeException e) {
      problems.add(config.key(property) + ": '" + value + "' is not a service-account JSON key file ("
          + e.getClass().getSimpleName() + ")");
      return null;
    }
  }
}
