package io.clusterresolver.cloud;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a file a setting names that should be small (a token, a kubeconfig, a namespace), no further than a bound:
 * {@link Files#readString} would read a file like {@code /dev/zero}, or a log named by mistake, until the memory is
 * full.
 */
public final class SmallFile {

  private SmallFile() {}

  /**
   * The file's text, UTF-8, read no further than {@code maxBytes} (plus one, to know it holds more).
   *
   * @param file the file
   * @param maxBytes the most it may hold
   * @return its text, as written (not trimmed)
   * @throws TooLarge when it holds more than {@code maxBytes}
   * @throws IOException when it cannot be read
   */
  public static String read(Path file, int maxBytes) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readNBytes(maxBytes + 1);
      if (bytes.length > maxBytes) {
        throw new TooLarge(maxBytes);
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  /** A file holding more than it may; its message says how much it may hold, to follow the file's name. */
  public static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge(int maxBytes) {
      super("holds more than " + (maxBytes % 1024 == 0 ? maxBytes / 1024 + " KiB" : maxBytes + " bytes"));
    }
  }
}
