package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The field-by-field reading of RFC 3339 times (gce's {@code creationTimestamp}, EC2's {@code launchTime}, a pod's
 * {@code creationTimestamp}) against the JDK's {@link OffsetDateTime#parse}, the RFC's examples and GNU {@code date}.
 */
class Rfc3339Test {

  /** Random valid times in Compute Engine's shape and its neighbours: every one reads as the JDK reads it. */
  @Test
  void readsEveryValidTimeAsTheJdkDoes() {
    Random random = new Random(23);
    for (int n = 0; n < 20_000; n++) {
      String text = String.format("%04d-%02d-%02dT%02d:%02d:%02d%s%s", random.nextInt(10_000), 1 + random.nextInt(12),
          1 + random.nextInt(28), random.nextInt(24), random.nextInt(60), random.nextInt(60), fraction(random),
          offset(random));
      assertThat(Rfc3339.parse(text)).as(text).isEqualTo(OffsetDateTime.parse(text).toInstant());
    }
  }

  /** Edge values and malformed text: the same instant, or an error wherever the JDK gives one. */
  @Test
  void agreesWithTheJdkOnEdgesAndErrors() {
    List<String> texts = new ArrayList<>(List.of("2024-02-29T23:59:59.999999999+18:00", "2023-02-29T00:00:00Z",
        "2024-04-31T00:00:00Z", "2024-12-31T24:00:00Z", "2024-12-31T23:60:00Z", "2024-12-31T23:59:60Z",
        "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-01-00T00:00:00Z", "2024-01-01T00:00:00+18:01",
        "2024-01-01T00:00:00-18:00", "2024-01-01T00:00:00+19:00", "2024-01-01T00:00:00-00:00",
        "2024-01-01T00:00:00+05:60", "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00.1234567890Z",
        "2024-01-01T00:00:00.1234567890+01:00", "2024-01-01t00:00:00z", "2024-01-01T00:00Z",
        "2024-01-01T00:00:00+0100", "2024-01-01T00:00:00+01", "2024-01-01T00:00:00+01:00:30", "2024-01-01T00:00:00",
        "2024-01-01 00:00:00Z", "+12024-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z",
        "2024-1-01T00:00:00Z", "2024-01-01T00:00:0xZ", "2024-01-01T00:00:00Z ", " 2024-01-01T00:00:00Z", "",
        "2024-01-01T00:00:00.5-07:00", "2024-01-01T00:00:00,5Z", "2024-01-01T00:00:00.٣Z"));
    for (String text : texts) {
      Instant expected;
      try {
        expected = OffsetDateTime.parse(text).toInstant();
      } catch (DateTimeParseException e) {
        assertThatThrownBy(() -> Rfc3339.parse(text)).as(text).isInstanceOf(DateTimeParseException.class);
        continue;
      }
      assertThat(Rfc3339.parse(text)).as(text).isEqualTo(expected);
    }
  }

  /**
   * RFC 3339's own examples (§5.8) and the forms the Kubernetes API server writes: {@code metav1.Time} as Go's
   * {@code time.RFC3339} in UTC, {@code metav1.MicroTime} with six fraction digits. The expected instants are GNU
   * {@code date -u -d TEXT +%s.%N}'s. A leap second ({@code 23:59:60}, RFC 3339 §5.7) stays an error, as the JDK's
   * reading has it: no cloud writes one (Go's time, which the API server formats with, cannot hold one).
   */
  @Test
  void readsTheRfcsExamplesAndTheKubernetesApiServersTimes() {
    assertThat(Rfc3339.parse("1985-04-12T23:20:50.52Z")).isEqualTo(Instant.ofEpochSecond(482196050, 520_000_000));
    assertThat(Rfc3339.parse("1996-12-19T16:39:57-08:00")).isEqualTo(Instant.ofEpochSecond(851042397));
    assertThat(Rfc3339.parse("1937-01-01T12:00:27.87+00:20")).isEqualTo(Instant.ofEpochSecond(-1041337173, 870_000_000));
    assertThat(Rfc3339.parse("2006-01-02T15:04:05Z")).isEqualTo(Instant.ofEpochSecond(1136214245));
    assertThat(Rfc3339.parse("2024-02-29T23:59:59.123456Z")).isEqualTo(Instant.ofEpochSecond(1709251199, 123_456_000));
    assertThatThrownBy(() -> Rfc3339.parse("1990-12-31T23:59:60Z")).isInstanceOf(DateTimeParseException.class);
  }

  private static String fraction(Random random) {
    int digits = random.nextInt(11) - 1; // none, an empty one (not valid), or 1 to 9 digits
    if (digits < 0) {
      return "";
    }
    StringBuilder fraction = new StringBuilder(".");
    for (int i = 0; i < digits; i++) {
      fraction.append((char) ('0' + random.nextInt(10)));
    }
    return digits == 0 ? "" : fraction.toString();
  }

  private static String offset(Random random) {
    int minutes = random.nextInt(18 * 60 * 2 + 1) - 18 * 60;
    return minutes == 0 && random.nextBoolean() ? "Z"
        : String.format("%s%02d:%02d", minutes < 0 ? "-" : "+", Math.abs(minutes) / 60, Math.abs(minutes) % 60);
  }
}
