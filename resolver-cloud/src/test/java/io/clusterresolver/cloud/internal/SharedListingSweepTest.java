package io.clusterresolver.cloud.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.cloud.Member;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files of queries nobody asked for in a day are removed, at most once an hour per directory: every resolve of
 * the command line is a JVM of its own, so the hour is kept in the directory (each {@link SharedListing} here
 * stands for another process), and a resolve does not read the whole directory each time.
 */
class SharedListingSweepTest {

  private static final List<Member> FLEET = List.of(Member.builder("i-1", "10.0.0.1").build());

  @TempDir
  Path tmp;

  private Path dir;

  private void resolve(String query) throws IOException {
    if (dir == null) {
      dir = Files.createDirectory(tmp.resolve("shared"), PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------")));
    }
    new SharedListing("test", () -> FLEET, dir, query, Duration.ZERO, Duration.ofSeconds(5),
        System::currentTimeMillis).members();
  }

  private Path planted(String name, Duration age) throws IOException {
    Path file = Files.writeString(dir.resolve(name), "x");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    return file;
  }

  private void markerAged(Duration age) throws IOException {
    Files.setLastModifiedTime(dir.resolve("test.swept"), FileTime.from(Instant.now().minus(age)));
  }

  @Test
  void filesOfThisProviderUntouchedForADayGoOthersStay() throws IOException {
    resolve("q1");
    markerAged(Duration.ofHours(2));
    Path stale = planted("test-0123456789abcdef0123456789abcdef.listing", Duration.ofHours(25));
    Path recent = planted("test-fedcba9876543210fedcba9876543210.listing", Duration.ofHours(23));
    Path otherProvider = planted("other-0123456789abcdef0123456789abcdef.listing", Duration.ofDays(3));

    resolve("q2");

    assertThat(stale).doesNotExist();
    assertThat(recent).exists();
    assertThat(otherProvider).exists();
  }

  @Test
  void aSweepWithinTheHourIsNotRepeatedByTheNextProcess() throws IOException {
    resolve("q1");
    Path stale = planted("test-0123456789abcdef0123456789abcdef.lock", Duration.ofDays(2));

    resolve("q2");
    assertThat(stale).as("swept 0 minutes ago: not again").exists();

    markerAged(Duration.ofMinutes(59));
    resolve("q3");
    assertThat(stale).as("swept 59 minutes ago: not again").exists();

    markerAged(Duration.ofMinutes(61));
    resolve("q4");
    assertThat(stale).as("swept 61 minutes ago: again").doesNotExist();
    assertThat(Files.getLastModifiedTime(dir.resolve("test.swept")).toInstant())
        .isAfter(Instant.now().minus(Duration.ofMinutes(1)));
  }

  @Test
  void aMarkerFromTheFutureDoesNotStopSweepsForever() throws IOException {
    resolve("q1");
    markerAged(Duration.ofDays(-1)); // the clock was set back
    Path stale = planted("test-0123456789abcdef0123456789abcdef.lock", Duration.ofDays(2));
    resolve("q2");
    assertThat(stale).doesNotExist();
  }
}
