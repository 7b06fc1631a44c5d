package io.clusterresolver.kubernetes;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.cloud.SmallFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A bearer token file, read again for every request: a projected service-account token is rotated
 * by the kubelet (hourly by default), and a token read once at start-up would be refused with 401
 * after it expires. The token itself never appears in a message or {@link #toString()}.
 */
final class TokenFile {

  /** A service-account token is about 1 KiB, an OIDC token a few. */
  static final int MAX_TOKEN_BYTES = 64 * 1024;

  private final Path path;
  private final String key;

  /**
   * @param path the file
   * @param key the property it came from, named when it cannot be read
   */
  TokenFile(Path path, String key) {
    this.path = path;
    this.key = key;
  }

  /**
   * Checks that the file can be read now.
   *
   * @throws ConfigurationException naming the property and the file
   */
  void check() {
    try {
      if (read().isEmpty()) {
        throw new ConfigurationException(key + ": the token file " + path + " is empty");
      }
    } catch (UncheckedIOException e) {
      throw new ConfigurationException(key + ": cannot read the token file " + path + " ("
          + (e.getCause() instanceof SmallFile.TooLarge ? e.getCause().getMessage() : e.getCause().getClass().getSimpleName())
          + "): set it to a readable file, or mount the service account token (automountServiceAccountToken: true)",
          e.getCause());
    }
  }

  /**
   * The token, read now.
   *
   * @throws UncheckedIOException when the file cannot be read
   */
  String getToken() {
    return read();
  }

  private String read() {
    try {
      return SmallFile.read(path, MAX_TOKEN_BYTES).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String toString() {
    return "TokenFile{" + path + "}";
  }
}
