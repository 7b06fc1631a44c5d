package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small file read no further than its bound, whatever the file is. */
class SmallFileTest {

  @TempDir
  Path dir;

  @Test
  void aFileOfAtMostTheBoundIsReadWhole() throws IOException {
    Path token = Files.writeString(dir.resolve("token"), "é".repeat(512) + "\n", StandardCharsets.UTF_8); // 1,025 bytes
    assertThat(SmallFile.read(token, 1025)).isEqualTo("é".repeat(512) + "\n");
    assertThat(SmallFile.read(Files.writeString(dir.resolve("empty"), ""), 1)).isEmpty();
  }

  @Test
  void aFileOfMoreIsRefusedSayingHowMuchItMayHold() throws IOException {
    Path big = Files.write(dir.resolve("big"), new byte[1025]);
    assertThat(catchThrowable(() -> SmallFile.read(big, 1024))).isInstanceOf(SmallFile.TooLarge.class)
        .hasMessage("holds more than 1 KiB");
    assertThat(catchThrowable(() -> SmallFile.read(big, 1000))).isInstanceOf(SmallFile.TooLarge.class)
        .hasMessage("holds more than 1000 bytes");
  }

  @Test
  void anEndlessFileIsReadOnlyUpToTheBound() {
    Path zero = Path.of("/dev/zero");
    if (Files.isReadable(zero)) {
      assertThat(catchThrowable(() -> SmallFile.read(zero, 64 * 1024))).isInstanceOf(SmallFile.TooLarge.class)
          .hasMessage("holds more than 64 KiB");
    }
  }

  @Test
  void aMissingFileIsTheJdksError() {
    assertThat(catchThrowable(() -> SmallFile.read(dir.resolve("missing"), 10)))
        .isInstanceOf(NoSuchFileException.class);
  }
}
