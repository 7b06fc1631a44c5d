package io.clusterresolver.tpu;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.auth.oauth2.GoogleCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The credentials of {@code clusterresolver.tpu.credentials}: {@code none} (no token is sent: emulators
 * and proxies), the path of a service-account JSON key file, or, unset, Application Default
 * Credentials. Loaded when the client is first built, never printed.
 */
final class GoogleCredentialsSource {

  static final String NONE = "none";
  private static final List<String> SCOPES = List.of("https://www.googleapis.com/auth/cloud-platform");

  private GoogleCredentialsSource() {}

  /** Whether the value is acceptable; {@code null} when it is, else the problem (naming no secret). */
  static String problem(String value) {
    if (value == null || NONE.equals(value)) {
      return null;
    }
    Path file = Path.of(value);
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      return "'" + value + "' is not a readable file: give the path of a service-account JSON key file, or 'none'"
          + " (no token), or leave it unset for Application Default Credentials";
    }
    return null;
  }

  /** The provider the client asks when it is built. */
  static CredentialsProvider of(String value) {
    if (NONE.equals(value)) {
      return NoCredentialsProvider.create();
    }
    if (value == null) {
      return () -> GoogleCredentials.getApplicationDefault().createScoped(SCOPES);
    }
    return () -> {
      try (InputStream in = Files.newInputStream(Path.of(value))) {
        return GoogleCredentials.fromStream(in).createScoped(SCOPES);
      }
    };
  }

  /** Thrown when credentials cannot be loaded, so that the failure reads as a credentials problem. */
  static final class Unavailable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unavailable(String message, IOException cause) {
      super(message, cause);
    }
  }
}
