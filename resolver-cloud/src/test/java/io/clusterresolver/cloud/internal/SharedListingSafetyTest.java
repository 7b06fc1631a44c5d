package io.clusterresolver.cloud.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attack 1 of issue 20: another user (or a careless one) prepares the shared-listing folder or
 * plants files in it, to read this user's listings or hand every later resolve a forged cluster.
 */
class SharedListingSafetyTest {

  private static final String QUERY = "test 1|eu-west-1|tag:cluster=a";
  private static final List<Member> FLEET = List.of(Member.builder("i-1", "10.0.0.1").build(),
      Member.builder("i-2", "10.0.0.2").build());
  private static final List<Member> FORGED = List.of(Member.builder("i-1", "6.6.6.0").build(),
      Member.builder("i-2", "6.6.6.1").build());

  @TempDir
  Path tmp;

  private final AtomicInteger listings = new AtomicInteger();
  private final MemberSource cloud = () -> {
    listings.incrementAndGet();
    return FLEET;
  };

  private SharedListing shared(Path dir, Duration maxAge) {
    return new SharedListing("test", cloud, dir, QUERY, maxAge, Duration.ofSeconds(5), System::currentTimeMillis);
  }

  private static String key() {
    return SharedListing.digest(QUERY).substring(0, 32);
  }

  @Test
  void theFolderIsMadeForThisUserAloneAndItsFilesToo() throws IOException {
    Path dir = tmp.resolve("cluster-resolver-me");
    assertThat(shared(dir, Duration.ZERO).members()).isEqualTo(FLEET);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString()).sorted().toList())
          .containsExactly("test-" + key() + ".listing", "test-" + key() + ".lock", "test.swept");
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.toList()).allSatisfy(f ->
          assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).as(f.toString())
              .isEqualTo("rw-------"));
    }
  }

  @Test
  void aFolderOpenToOthersIsAnErrorNamingItAndTheKey() throws IOException {
    Path dir = Files.createDirectory(tmp.resolve("made-by-someone-else"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx")); // mode 777, as in attack 1
    assertThatThrownBy(() -> shared(dir, Duration.ZERO).members()).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(dir.toString()).hasMessageContaining("open to group or others (rwxrwxrwx)")
        .hasMessageContaining("clusterresolver.test.shared-listing-dir");
    assertThat(listings).as("nothing listed, nothing written").hasValue(0);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
    assertThatThrownBy(() -> shared(dir, Duration.ZERO).members()).hasMessageContaining("(rwxr-x---)");
  }

  @Test
  void aFolderThatIsALinkIsAnError() throws IOException {
    Path real = Files.createDirectory(tmp.resolve("real"), PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwx------")));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
    assertThatThrownBy(() -> shared(link, Duration.ZERO).members()).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining(link + " is a symbolic link");
  }

  @Test
  void aFolderOfAnotherUserIsAnError() throws IOException {
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "chown needs root (CI runs as root)");
    Path dir = Files.createDirectory(tmp.resolve("theirs"), PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwx------")));
    UserPrincipal nobody = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    Files.setOwner(dir, nobody);
    assertThatThrownBy(() -> shared(dir, Duration.ZERO).members()).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("belongs to nobody, not to this user (root)");
  }

  @Test
  void aListingFromTheFutureIsNeverUsed() throws IOException {
    Path dir = tmp.resolve("mine");
    shared(dir, Duration.ofHours(1)).members();
    // Planted (as attack 1b did through an open folder): well formed, this query, finished in a year.
    long future = System.currentTimeMillis() + 365L * 24 * 3600_000;
    Files.write(dir.resolve("test-" + key() + ".listing"), sealedFile(new Listing(future - 1000, future, FORGED)));
    assertThat(shared(dir, Duration.ofHours(1)).members()).isEqualTo(FLEET);
    assertThat(listings).hasValue(2);
    // The same planting with past times is taken (the checksum proves no secret): the times turned it away.
    long now = System.currentTimeMillis();
    Files.write(dir.resolve("test-" + key() + ".listing"), sealedFile(new Listing(now - 1000, now - 500, FORGED)));
    assertThat(shared(dir, Duration.ofHours(1)).members()).isEqualTo(FORGED);
    assertThat(listings).hasValue(2);
  }

  @Test
  void aListingThatDoesNotVerifyIsNeverUsed() throws IOException {
    Path dir = tmp.resolve("mine");
    shared(dir, Duration.ofHours(1)).members();
    Path file = dir.resolve("test-" + key() + ".listing");
    byte[] genuine = Files.readAllBytes(file);
    // The same listing with a member's address changed in place: same length, the seal no longer matches.
    String text = new String(genuine, StandardCharsets.ISO_8859_1).replace("10.0.0.2", "16.6.6.2");
    Files.write(file, text.getBytes(StandardCharsets.ISO_8859_1));
    assertThat(shared(dir, Duration.ofHours(1)).members()).isEqualTo(FLEET);
    assertThat(listings).hasValue(2);
    // A listing sealed under the relay secret is not taken by a process without it, nor the other way round.
    ListingSeal secret = ListingSeal.of("the job's relay secret, 32+ chars".getBytes(StandardCharsets.UTF_8));
    new SharedListing("test", cloud, dir, QUERY, Duration.ofHours(1), Duration.ofSeconds(5),
        System::currentTimeMillis, secret).members();
    assertThat(listings).hasValue(3);
    assertThat(shared(dir, Duration.ofHours(1)).members()).isEqualTo(FLEET);
    assertThat(listings).hasValue(4);
  }

  @Test
  void linksPlantedAtTheLockAndTemporaryNamesAreNeverFollowed() throws IOException {
    Path dir = Files.createDirectory(tmp.resolve("mine"), PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwx------")));
    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    Path precious = Files.writeString(elsewhere.resolve("precious"), "keep me");
    Path lockTarget = elsewhere.resolve("created-through-the-lock-link");
    Files.createSymbolicLink(dir.resolve("test-" + key() + ".lock"), lockTarget);
    // Every name main's writer would have used in this JVM (pid.thread.tmp): attack 1d.
    for (long thread = 0; thread < 200; thread++) {
      Files.createSymbolicLink(dir.resolve("test-" + key() + ".listing." + ProcessHandle.current().pid() + "."
          + thread + ".tmp"), precious);
    }
    assertThat(shared(dir, Duration.ZERO).members()).isEqualTo(FLEET);
    assertThat(lockTarget).doesNotExist();
    assertThat(Files.readString(precious)).isEqualTo("keep me");
    assertThat(Files.isSymbolicLink(dir.resolve("test-" + key() + ".lock"))).isTrue();
    assertThat(Files.exists(dir.resolve("test-" + key() + ".listing"), LinkOption.NOFOLLOW_LINKS)).isFalse();
  }

  private static byte[] sealedFile(Listing listing) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      listing.writeTo(out, QUERY);
    }
    byte[] content = bytes.toByteArray();
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    file.write(content);
    // The unkeyed checksum is public: an attacker can make it, so the times must be checked too.
    CRC32C crc = new CRC32C();
    crc.update("shared listing file v2, crc32c".getBytes(StandardCharsets.UTF_8));
    crc.update(content);
    file.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    return file.toByteArray();
  }
}
