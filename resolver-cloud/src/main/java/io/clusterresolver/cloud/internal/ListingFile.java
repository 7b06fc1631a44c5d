package io.clusterresolver.cloud.internal;

import io.clusterresolver.ConfigurationException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The file one {@link Listing} is shared through on a host. Written to a new temporary file (created
 * exclusively, readable by this user only) and moved into place, so a reader sees a whole listing or
 * none; sealed under the relay secret when there is one ({@link ListingSeal}), else followed by a
 * CRC32C checksum, which catches damage as the unkeyed seal did (that one proves no secret either)
 * for a twentieth of its cold cost. Any file that is a symbolic link, does not verify, does not read
 * back whole, answers another query or says it finished in the future is treated as absent. Its
 * header (query and times) is read first: a file that could not answer is ignored without computing
 * its seal over the whole content, one that could is verified before any of it is used.
 */
final class ListingFile {

  private static final System.Logger LOG = System.getLogger(ListingFile.class.getName());

  /** The largest listing file read (as the largest relay answer). */
  static final int MAX_BYTES = ListingRelay.MAX_ANSWER_BYTES;

  static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  /** The keyed seal's context (the keyed format is v1's). */
  private static final String SEAL_CONTEXT = "shared listing file v1";
  /**
   * What the unkeyed checksum covers before the content. v2: a v1 file's trailer (an HMAC-SHA256 under
   * a public key, 32 bytes) does not check as one, so such files are ignored like damaged ones.
   */
  private static final byte[] CHECKSUM_CONTEXT = ListingSeal.utf8("shared listing file v2, crc32c");
  /** Bytes of the unkeyed checksum. */
  private static final int CHECKSUM_LENGTH = Integer.BYTES;

  private final Path file;
  private final String query;
  private final ListingSeal seal;

  ListingFile(Path file, String query, ListingSeal seal) {
    this.file = file;
    this.query = query;
    this.seal = seal;
  }

  /**
   * Makes sure {@code directory} is this user's alone, creating it (mode 0700) when absent: checked
   * on every use, since whoever else could write it could plant listings and links, and whoever
   * could read it could read the listings.
   *
   * @param key the property that names the directory, for the error
   * @throws ConfigurationException when it is a symbolic link, not a directory, another user's, or
   *     open to group or others
   * @throws IOException when it cannot be created or inspected (the caller lists the cloud)
   */
  static void ownDirectory(Path directory, String key) throws IOException {
    if (!Files.getFileStore(existingAncestor(directory)).supportsFileAttributeView(PosixFileAttributeView.class)) {
      Files.createDirectories(directory); // no owners or modes to check (not a POSIX file system)
      return;
    }
    if (Files.notExists(directory, LinkOption.NOFOLLOW_LINKS)) {
      Path parent = directory.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      try {
        Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
      } catch (FileAlreadyExistsException e) {
        // made meanwhile (by another process of ours, or someone else): checked below like any
      }
    }
    PosixFileAttributes attributes = Files.readAttributes(directory, PosixFileAttributes.class,
        LinkOption.NOFOLLOW_LINKS);
    String wrong = null;
    if (attributes.isSymbolicLink()) {
      wrong = "is a symbolic link";
    } else if (!attributes.isDirectory()) {
      wrong = "is not a directory";
    } else if (!attributes.owner().equals(thisUser(directory))) {
      wrong = "belongs to " + attributes.owner().getName() + ", not to this user ("
          + thisUser(directory).getName() + ")";
    } else if (attributes.permissions().stream().anyMatch(GROUP_OR_OTHERS::contains)) {
      wrong = "is open to group or others (" + PosixFilePermissions.toString(attributes.permissions()) + ")";
    }
    if (wrong != null) {
      throw new ConfigurationException("the shared listing folder " + directory + " " + wrong + ": whoever else can"
          + " write or read it could forge or read this host's listings. Remove it (it is made again, mode 700), or"
          + " set " + key + " to a folder only this user can use");
    }
  }

  private static Path existingAncestor(Path directory) {
    Path p = directory.toAbsolutePath();
    while (p.getParent() != null && Files.notExists(p)) {
      p = p.getParent();
    }
    return p;
  }

  private static UserPrincipal thisUser(Path directory) throws IOException {
    return directory.getFileSystem().getUserPrincipalLookupService()
        .lookupPrincipalByName(System.getProperty("user.name"));
  }

  /** Creation attributes of this user's files: readable by this user only. */
  static FileAttribute<?>[] ownerOnly(Path directory) throws IOException {
    return Files.getFileStore(directory).supportsFileAttributeView(PosixFileAttributeView.class)
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE)}
        : new FileAttribute<?>[0];
  }

  /**
   * The listing in the file if it {@linkplain Listing#answers answers} a resolve asked at
   * {@code asked}; {@code null} when it does not (its members are then not read), there is none, it
   * does not verify, answers another query, is damaged, or finished after {@code now}.
   */
  Listing read(long asked, long now, Duration maxAge) {
    try {
      byte[] bytes;
      try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
        bytes = in.readNBytes(MAX_BYTES + trailerLength() + 1);
      }
      int length = bytes.length - trailerLength();
      if (length < 0 || length > MAX_BYTES) {
        return ignored("it does not verify");
      }
      DataInputStream content = new DataInputStream(new ByteArrayInputStream(bytes, 0, length));
      // Not yet verified: whatever it says can only make this file ignored, as a damaged one is.
      Listing.Header header = Listing.Header.readFrom(content, query);
      if (header == null) {
        return ignored("it is not a listing of this query");
      }
      if (!header.answers(asked, maxAge)) {
        return ignored("it does not answer this resolve (listed at " + header.listedAt() + ", finished at "
            + header.finishedAt() + ", asked at " + asked + ")");
      }
      if (header.finishedAt() > now || header.listedAt() > header.finishedAt()) {
        return ignored("its times are in the future");
      }
      if (!verifies(bytes, length)) {
        return ignored("it does not verify");
      }
      Listing listing = header.readMembers(content);
      return listing != null ? listing : ignored("more follows the listing");
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, () -> "ignoring the shared listing " + file + " (" + e + ")");
      return null;
    }
  }

  private Listing ignored(String why) {
    LOG.log(Level.DEBUG, () -> "ignoring the shared listing " + file + ": " + why);
    return null;
  }

  private int trailerLength() {
    return seal.keyed() ? ListingSeal.LENGTH : CHECKSUM_LENGTH;
  }

  /** The seal or checksum that follows {@code content}'s first {@code length} bytes in the file. */
  private byte[] trailer(byte[] content, int length) {
    if (seal.keyed()) {
      return seal.seal(SEAL_CONTEXT, length == content.length ? content : Arrays.copyOf(content, length));
    }
    CRC32C checksum = new CRC32C();
    checksum.update(CHECKSUM_CONTEXT);
    checksum.update(content, 0, length);
    return ByteBuffer.allocate(CHECKSUM_LENGTH).putInt((int) checksum.getValue()).array();
  }

  /** Whether the file's {@code bytes} end with the trailer of their first {@code length} (compared in constant time). */
  private boolean verifies(byte[] bytes, int length) {
    return MessageDigest.isEqual(Arrays.copyOfRange(bytes, length, bytes.length), trailer(bytes, length));
  }

  /** Leaves a listing for the others; trouble is logged, never thrown (they will list for themselves). */
  void write(Listing listing) {
    Path tmp = null;
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        listing.writeTo(out, query);
      }
      byte[] content = bytes.toByteArray();
      // A new file of a random name, created exclusively (never an existing file or a link planted at its name).
      tmp = Files.createTempFile(file.getParent(), file.getFileName() + ".", ".tmp", ownerOnly(file.getParent()));
      try (OutputStream out = Files.newOutputStream(tmp, LinkOption.NOFOLLOW_LINKS, StandardOpenOption.WRITE)) {
        out.write(content);
        out.write(trailer(content, content.length));
      }
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, () -> "could not leave the listing in " + file + " (" + e + ")");
      try {
        if (tmp != null) {
          Files.deleteIfExists(tmp);
        }
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
