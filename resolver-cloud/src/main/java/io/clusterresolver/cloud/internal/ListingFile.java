package io.clusterresolver.cloud.internal;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

/**
 * The file one {@link Listing} is shared through on a host. Written to a temporary file and moved
 * into place, so a reader sees a whole listing or none. Any file that does not read back whole, or
 * answers another query, is treated as absent.
 */
final class ListingFile {

  private static final System.Logger LOG = System.getLogger(ListingFile.class.getName());

  private final Path file;
  private final String query;

  ListingFile(Path file, String query) {
    this.file = file;
    this.query = query;
  }

  /** Creates the directory readable by this user only (where the file system has POSIX permissions). */
  static void createDirectory(Path directory) throws IOException {
    if (Files.isDirectory(directory)) {
      return;
    }
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectories(directory);
    }
  }

  /**
   * The listing in the file if it {@linkplain Listing#answers answers} a resolve asked at
   * {@code asked}; {@code null} when it does not (its members are then not read), there is none, it
   * answers another query, or it is damaged.
   */
  Listing read(long asked, Duration maxAge) {
    try (InputStream raw = Files.newInputStream(file);
        DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 65536))) {
      return Listing.readIfAnswers(in, query, asked, maxAge);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, () -> "ignoring the shared listing " + file + " (" + e + ")");
      return null;
    }
  }

  /** Leaves a listing for the others; trouble is logged, never thrown (they will list for themselves). */
  void write(Listing listing) {
    Path tmp = file.resolveSibling(file.getFileName() + "." + ProcessHandle.current().pid() + "."
        + Thread.currentThread().getId() + ".tmp");
    try {
      try (OutputStream raw = Files.newOutputStream(tmp);
          DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw, 65536))) {
        listing.writeTo(out, query);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, () -> "could not leave the listing in " + file + " (" + e + ")");
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // nothing more to do: the next process lists for itself
      }
    }
  }

  @Override
  public String toString() {
    return file.toString();
  }
}
