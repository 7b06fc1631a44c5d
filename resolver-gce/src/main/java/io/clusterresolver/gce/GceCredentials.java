package io.clusterresolver.gce;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.compute.v1.InstancesSettings;
import io.clusterresolver.spi.ResolverConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code credentials} property: {@code none} sends no token (emulators, proxies), a path names a
 * service-account JSON key file, unset means Application Default Credentials. The key file is read
 * once, when the resolver is created; its contents never appear in a message.
 */
final class GceCredentials {

  /** Read-only access to Compute Engine is all the provider needs. */
  static final String SCOPE = "https://www.googleapis.com/auth/compute.readonly";

  private GceCredentials() {}

  /** The credentials provider, or {@code null} with a problem added (naming the key, never the file's content). */
  static CredentialsProvider of(ResolverConfig config, List<String> problems) {
    String value = config.get(GceProperties.CREDENTIALS);
    if (value == null) {
      return InstancesSettings.defaultCredentialsProviderBuilder().build();
    }
    if ("none".equals(value.trim())) {
      return NoCredentialsProvider.create();
    }
    Path file = Path.of(value.trim());
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      problems.add(config.key(GceProperties.CREDENTIALS) + ": '" + value + "' is not a readable file: give the path"
          + " of a service-account JSON key file, or none, or leave it unset for Application Default Credentials");
      return null;
    }
    try (InputStream in = Files.newInputStream(file)) {
      return FixedCredentialsProvider.create(GoogleCredentials.fromStream(in).createScoped(List.of(SCOPE)));
    } catch (IOException | RuntimeException e) {
      problems.add(config.key(GceProperties.CREDENTIALS) + ": '" + value + "' is not a service-account JSON key file ("
          + e.getClass().getSimpleName() + ")");
      return null;
    }
  }
}
