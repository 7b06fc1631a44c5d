package io.clusterresolver.aws;

import io.clusterresolver.cloud.Member;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The file one listing is shared through: the query it answers (checked on reading, so a hash
 * collision or another version's file is never used), when the listing began and finished, and every member
 * with all its fields. Written to a temporary file and moved into place, so a reader sees a whole
 * listing or none. Any file that does not read back whole is treated as absent.
 */
final class ListingFile {

  private static final System.Logger LOG = System.getLogger(ListingFile.class.getName());
  private static final int MAGIC = 0x434c5231; // "CLR1"

  /** A listing read back: when it began and finished (epoch milliseconds) and its members. */
  record Snapshot(long listedAt, long finishedAt, List<Member> members) {}

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

  /** The listing in the file, or {@code null} when there is none, it answers another query, or it is damaged. */
  Snapshot read() {
    try (InputStream raw = Files.newInputStream(file);
        DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 65536))) {
      if (in.readInt() != MAGIC || !in.readUTF().equals(query)) {
        return null;
      }
      long listedAt = in.readLong();
      long finishedAt = in.readLong();
      int n = in.readInt();
      List<Member> members = new ArrayList<>(Math.min(n, 100_000));
      for (int i = 0; i < n; i++) {
        Member.Builder m = Member.builder(in.readUTF(), in.readUTF());
        if (in.readBoolean()) {
          m.creationTime(Instant.ofEpochSecond(in.readLong(), in.readInt()));
        }
        if (in.readBoolean()) {
          m.name(in.readUTF());
        }
        for (int labels = in.readInt(); labels > 0; labels--) {
          m.label(in.readUTF(), in.readUTF());
        }
        for (int devices = in.readInt(); devices > 0; devices--) {
          m.accelerators(in.readUTF(), in.readInt());
        }
        members.add(m.build());
      }
      if (in.read() != -1) {
        return null;
      }
      return new Snapshot(listedAt, finishedAt, List.copyOf(members));
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, () -> "aws: ignoring the shared listing " + file + " (" + e + ")");
      return null;
    }
  }

  /** Leaves a listing for the others; trouble is logged, never thrown (they will list for themselves). */
  void write(long listedAt, long finishedAt, List<Member> members) {
    Path tmp = file.resolveSibling(file.getFileName() + "." + ProcessHandle.current().pid() + "."
        + Thread.currentThread().getId() + ".tmp");
    try {
      try (OutputStream raw = Files.newOutputStream(tmp);
          DataOutputStream out = new DataOutputStream(new BufferedOutputStream(raw, 65536))) {
        out.writeInt(MAGIC);
        out.writeUTF(query);
        out.writeLong(listedAt);
        out.writeLong(finishedAt);
        out.writeInt(members.size());
        for (Member m : members) {
          out.writeUTF(m.id());
          out.writeUTF(m.address());
          Instant created = m.creationTime().orElse(null);
          out.writeBoolean(created != null);
          if (created != null) {
            out.writeLong(created.getEpochSecond());
            out.writeInt(created.getNano());
          }
          String name = m.name().orElse(null);
          out.writeBoolean(name != null);
          if (name != null) {
            out.writeUTF(name);
          }
          out.writeInt(m.labels().size());
          for (Map.Entry<String, String> e : m.labels().entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
          }
          out.writeInt(m.accelerators().size());
          for (Map.Entry<String, Integer> e : m.accelerators().entrySet()) {
            out.writeUTF(e.getKey());
            out.writeInt(e.getValue());
          }
        }
      }
      try {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, () -> "aws: could not leave the listing in " + file + " (" + e + ")");
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
