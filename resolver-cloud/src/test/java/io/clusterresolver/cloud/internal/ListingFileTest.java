package io.clusterresolver.cloud.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.cloud.Member;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shared listing file's trailer (a CRC32C without a secret, the HMAC seal with one), and the order
 * of a read: a file that could not answer is ignored on its header, before its seal or checksum is
 * computed over the whole content; one that could is verified before anything of it is used. Which
 * check turned a file away is what the read logs (DEBUG), the observable here.
 */
class ListingFileTest {

  private static final String QUERY = "test 1|eu-west-1|tag:cluster=a";
  private static final List<Member> FLEET = List.of(
      Member.builder("i-1", "10.0.0.1").name("a").label("role", "chief").accelerators("GPU", 8)
          .creationTime(Instant.parse("2026-11-25T00:00:00.123456789Z")).build(),
      Member.builder("i-2", "10.0.0.2").port(2222).ordinal(1).build());
  /** Listed from 1,000 to 2,000 ms: it answers a resolve asked at 1,500 (in progress), not one at 5,000. */
  private static final Listing LISTING = new Listing(1000, 2000, FLEET);
  private static final ListingSeal SECRET = ListingSeal.of(
      "the job's relay secret, 32+ chars".getBytes(StandardCharsets.UTF_8));

  @TempDir
  Path tmp;

  private Path path;
  private final List<String> logged = new CopyOnWriteArrayList<>();
  private final Logger log = Logger.getLogger(ListingFile.class.getName());
  private final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord record) {
      logged.add(record.getMessage());
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };
  private Level levelBefore;

  @BeforeEach
  void captureTheReadsLog() {
    path = tmp.resolve("test-key.listing");
    levelBefore = log.getLevel();
    log.setLevel(Level.ALL);
    log.addHandler(capture);
  }

  @AfterEach
  void stopCapturing() {
    log.removeHandler(capture);
    log.setLevel(levelBefore);
  }

  private ListingFile file(String query, ListingSeal seal) {
    return new ListingFile(path, query, seal);
  }

  private static byte[] content(Listing listing) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      listing.writeTo(out, QUERY);
    }
    return bytes.toByteArray();
  }

  /** CRC32C of the context then the content, big-endian: computed here by the JDK, not by the code under test. */
  private static byte[] crc32c(byte[] content) {
    CRC32C crc = new CRC32C();
    crc.update("shared listing file v2, crc32c".getBytes(StandardCharsets.UTF_8));
    crc.update(content);
    return ByteBuffer.allocate(4).putInt((int) crc.getValue()).array();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private void damageTheLastByte() throws IOException {
    byte[] bytes = Files.readAllBytes(path);
    bytes[bytes.length - 1] ^= 1;
    Files.write(path, bytes);
  }

  @Test
  void withoutASecretTheFileIsTheListingThenCrc32cOfTheContextAndIt() throws IOException {
    file(QUERY, ListingSeal.unkeyed()).write(LISTING);
    byte[] content = content(LISTING);
    assertThat(Files.readAllBytes(path)).isEqualTo(concat(content, crc32c(content)));
    assertThat(file(QUERY, ListingSeal.unkeyed()).read(1500, 2500, Duration.ZERO)).isEqualTo(LISTING);
  }

  @Test
  void aFileThatCouldNotAnswerIsIgnoredWithoutVerifyingIt() throws IOException {
    file(QUERY, ListingSeal.unkeyed()).write(LISTING);
    damageTheLastByte(); // its checksum no longer matches: verifying it would say so

    assertThat(file(QUERY, ListingSeal.unkeyed()).read(5000, 6000, Duration.ZERO)).isNull(); // finished before
    assertThat(file(QUERY, ListingSeal.unkeyed()).read(5000, 6000, Duration.ofSeconds(3))).isNull(); // too old
    assertThat(file("another query", ListingSeal.unkeyed()).read(1500, 2500, Duration.ZERO)).isNull();
    assertThat(logged).hasSize(3).noneMatch(m -> m.contains("does not verify"));
    assertThat(logged.subList(0, 2)).allMatch(m -> m.endsWith(": it does not answer this resolve (listed at 1000,"
        + " finished at 2000, asked at 5000)"));
    assertThat(logged.get(2)).endsWith(": it is not a listing of this query");

    logged.clear();
    assertThat(file(QUERY, SECRET).read(5000, 6000, Duration.ZERO)).isNull(); // keyed: the same order
    assertThat(logged).singleElement().asString().contains("does not answer this resolve");
  }

  @Test
  void aFileThatCouldAnswerButIsDamagedIsRejected() throws IOException {
    file(QUERY, ListingSeal.unkeyed()).write(LISTING);
    damageTheLastByte();
    assertThat(file(QUERY, ListingSeal.unkeyed()).read(1500, 2500, Duration.ZERO)).isNull();
    assertThat(file(QUERY, ListingSeal.unkeyed()).read(2500, 2600, Duration.ofSeconds(3))).isNull(); // in max age
    assertThat(logged).hasSize(2).allMatch(m -> m.endsWith(": it does not verify"));

    // A member's address changed in place, checksum left as it was.
    file(QUERY, ListingSeal.unkeyed()).write(LISTING);
    String text = new String(Files.readAllBytes(path), StandardCharsets.ISO_8859_1).replace("10.0.0.2", "16.6.6.2");
    Files.write(path, text.getBytes(StandardCharsets.ISO_8859_1));
    assertThat(file(QUERY, ListingSeal.unkeyed()).read(1500, 2500, Duration.ZERO)).isNull();

    // Cut short by the checksum's length: the listing's last bytes are taken for its checksum.
    file(QUERY, ListingSeal.unkeyed()).write(LISTING);
    byte[] whole = Files.readAllBytes(path);
    Files.write(path, Arrays.copyOf(whole, whole.length - 4));
    assertThat(file(QUERY, ListingSeal.unkeyed()).read(1500, 2500, Duration.ZERO)).isNull();
  }

  @Test
  void aFileOfTheFormerFormatIsIgnored() throws IOException {
    // v1: the listing, then the unkeyed HMAC-SHA256 seal (32 bytes) for "shared listing file v1".
    byte[] content = content(LISTING);
    Files.write(path, concat(content, ListingSeal.unkeyed().seal("shared listing file v1", content)));
    assertThat(file(QUERY, ListingSeal.unkeyed()).read(1500, 2500, Duration.ZERO)).isNull();
    assertThat(logged).singleElement().asString().endsWith(": it does not verify");
  }

  @Test
  void aKeyedFileProvesTheSecretAndNothingElseDoes() throws IOException {
    file(QUERY, SECRET).write(LISTING);
    byte[] content = content(LISTING);
    byte[] sealed = Files.readAllBytes(path);
    assertThat(sealed).hasSize(content.length + ListingSeal.LENGTH).startsWith(content);
    assertThat(file(QUERY, SECRET).read(1500, 2500, Duration.ZERO)).isEqualTo(LISTING);

    ListingSeal another = ListingSeal.of("another job's secret, long enough".getBytes(StandardCharsets.UTF_8));
    assertThat(file(QUERY, another).read(1500, 2500, Duration.ZERO)).isNull();
    assertThat(file(QUERY, ListingSeal.unkeyed()).read(1500, 2500, Duration.ZERO)).isNull();

    // Forged without the secret: the public checksum, the unkeyed seal, the seal damaged.
    List<byte[]> forgeries = List.of(concat(content, crc32c(content)),
        concat(content, ListingSeal.unkeyed().seal("shared listing file v1", content)),
        concat(content, Arrays.copyOf(crc32c(content), ListingSeal.LENGTH)));
    for (byte[] forged : forgeries) {
      Files.write(path, forged);
      assertThat(file(QUERY, SECRET).read(1500, 2500, Duration.ZERO)).isNull();
    }
    sealed[sealed.length - 1] ^= 1;
    Files.write(path, sealed);
    assertThat(file(QUERY, SECRET).read(1500, 2500, Duration.ZERO)).isNull();
    assertThat(logged).hasSize(6).allMatch(m -> m.endsWith(": it does not verify"));
  }
}
