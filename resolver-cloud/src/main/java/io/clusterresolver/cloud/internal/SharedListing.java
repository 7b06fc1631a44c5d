package io.clusterresolver.cloud.internal;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Processes of one host share listings (a per-host single-flight): a resolve takes a lock file keyed
 * by its query, and under the lock uses the listing another process left there if that listing
 * finished after this resolve started (it was in progress: this resolve waited for it) or, with a
 * {@code maxAge}, began at most {@code maxAge} before this resolve started; otherwise it lists the
 * cloud itself and leaves its listing for the others. When the eight processes of a host start at
 * once, one lists and seven wait and read its listing: one listing per host instead of eight.
 *
 * <p>Freshness: a shared listing carries when it began and finished (its age is logged). With a
 * zero {@code maxAge}, a resolve never gets a listing that finished before it started, so resolves
 * one after another each see a new listing, as without sharing. A failed listing leaves nothing:
 * the next process lists for itself. The files live in a directory that must be this user's alone,
 * checked on every resolve (a folder someone else made or opened is an error naming it), are created
 * readable by this user only without following links, and are sealed ({@link ListingFile}); other
 * trouble with them (a read-only directory, a damaged file) falls back to listing the cloud. The
 * wait for another process's listing is bounded by {@code timeout}. Files of queries nobody asked
 * for in a day are removed (at most once an hour per directory).
 */
public final class SharedListing implements MemberSource {

  private static final System.Logger LOG = System.getLogger(SharedListing.class.getName());

  /** Threads of one JVM never hold one file's lock at once (the OS lock is per process). */
  private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

  private final String provider;
  private final MemberSource cloud;
  private final Path lockFile;
  private final ListingFile listing;
  private final Duration maxAge;
  private final Duration timeout;
  private final LongSupplier clock;

  /**
   * A host's single-flight over {@code cloud}.
   *
   * @param provider the provider name: the files' prefix, and the start of log lines and messages
   * @param cloud lists the cloud
   * @param directory where lock and listing files live
   * @param query everything that decides what a listing returns (endpoint, filters, credentials' identity, …)
   * @param maxAge how long before this resolve a finished listing may have begun; zero: only listings in progress
   * @param timeout the longest wait for another process's listing
   * @param clock milliseconds since the epoch (shared by processes: the system's wall clock)
   */
  public SharedListing(String provider, MemberSource cloud, Path directory, String query, Duration maxAge,
      Duration timeout, LongSupplier clock) {
    this(provider, cloud, directory, query, maxAge, timeout, clock, ListingSeal.unkeyed());
  }

  /** As above, the files sealed with {@code seal} (the relay secret's, when there is one). */
  SharedListing(String provider, MemberSource cloud, Path directory, String query, Duration maxAge,
      Duration timeout, LongSupplier clock, ListingSeal seal) {
    this.provider = provider;
    this.cloud = cloud;
    String key = digest(query).substring(0, 32);
    this.lockFile = directory.resolve(provider + "-" + key + ".lock");
    this.listing = new ListingFile(directory.resolve(provider + "-" + key + ".listing"), query, seal);
    this.maxAge = maxAge;
    this.timeout = timeout;
    this.clock = clock;
  }

  @Override
  public List<Member> members() {
    long asked = clock.getAsLong();
    long deadline = System.nanoTime() + timeout.toNanos();
    ReentrantLock local = IN_PROCESS.computeIfAbsent(lockFile, k -> new ReentrantLock());
    try {
      if (!local.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        throw waitedTooLong();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted(e);
    }
    try {
      FileChannel channel;
      try {
        // Checked on every use: a folder someone else made or opened would let them forge or read listings.
        ListingFile.ownDirectory(lockFile.getParent(), ListingSharing.SHARED_LISTING_DIR.key(provider));
        channel = FileChannel.open(lockFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS), ListingFile.ownerOnly(lockFile.getParent()));
      } catch (IOException | UnsupportedOperationException e) {
        LOG.log(Level.DEBUG, () -> provider + ": no shared listing (" + lockFile + ": " + e + "); listing the cloud");
        return cloud.members();
      }
      try (channel; FileLock lock = lockWithin(channel, deadline)) {
        Listing shared = listing.read(asked, clock.getAsLong(), maxAge);
        if (shared != null) {
          LOG.log(Level.DEBUG, () -> provider + ": " + shared.members().size() + " member(s) from this host's shared listing, "
              + (clock.getAsLong() - shared.listedAt()) + " ms old, begun " + (asked - shared.listedAt())
              + " ms before this resolve (" + listing + ")");
          return shared.members();
        }
        long begun = clock.getAsLong();
        List<Member> members = cloud.members();
        listing.write(new Listing(begun, clock.getAsLong(), members));
        sweep(lockFile.getParent(), provider);
        return members;
      } catch (IOException e) {
        LOG.log(Level.DEBUG, () -> provider + ": shared listing " + lockFile + " unusable (" + e + ")");
        return cloud.members();
      }
    } finally {
      local.unlock();
    }
  }

  private static final long HOUR_MS = TimeUnit.HOURS.toMillis(1);
  private static final long DAY_MS = TimeUnit.DAYS.toMillis(1);

  /**
   * Removes this provider's files untouched for a day, at most once an hour per directory: the time of a marker
   * file says when the last sweep began, because every resolve of the command line is a JVM of its own (a guard
   * kept in memory would let each of them read the whole directory). Best effort.
   */
  private static void sweep(Path directory, String provider) {
    Path marker = directory.resolve(provider + ".swept"); // not matched by the files' "provider-" prefix
    long now = System.currentTimeMillis();
    try {
      BasicFileAttributeView times = Files.getFileAttributeView(marker, BasicFileAttributeView.class,
          LinkOption.NOFOLLOW_LINKS);
      if (Files.exists(marker, LinkOption.NOFOLLOW_LINKS)) {
        long age = now - times.readAttributes().lastModifiedTime().toMillis();
        if (age >= 0 && age < HOUR_MS) {
          return;
        }
      } else {
        FileChannel.open(marker, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS), ListingFile.ownerOnly(directory)).close();
      }
      times.setTimes(FileTime.fromMillis(now), null, null);
      long cutoff = now - DAY_MS;
      try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, provider + "-*")) {
        for (Path f : files) {
          if (Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS).toMillis() < cutoff) {
            Files.deleteIfExists(f);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, () -> provider + ": could not tidy " + directory + " (" + e + ")");
    }
  }

  private FileLock lockWithin(FileChannel channel, long deadline) throws IOException {
    while (true) {
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // another class loader of this JVM: wait like for another process
      }
      if (lock != null) {
        return lock;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw waitedTooLong();
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw interrupted(e);
      }
    }
  }

  private ClusterResolverException waitedTooLong() {
    return new ClusterResolverException(provider + ": waited " + timeout.toMillis() + " ms for another process of this"
        + " host to finish listing (lock file " + lockFile + "); raise clusterresolver." + provider + ".timeout, or set"
        + " clusterresolver." + provider + ".shared-listing=false to list without sharing");
  }

  private ClusterResolverException interrupted(InterruptedException e) {
    return new ClusterResolverException(provider + ": interrupted while waiting for this host's shared listing", e);
  }

  /** SHA-256 of a text, in hex: how queries and credentials are named in files and requests. */
  public static String digest(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return "SharedListing{" + listing + ", max age " + maxAge + "}";
  }
}
