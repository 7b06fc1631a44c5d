package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link RetryAfter#fromHeaders}: Azure's millisecond headers ({@code retry-after-ms}, then {@code x-ms-retry-after-ms})
 * before RFC 9110's {@code Retry-After}. resolver-azure's {@code ArmFailuresTest} compares it with azure-core's reading.
 */
class RetryAfterHeadersTest {

  private static final Instant NOW = Instant.parse("1999-12-31T23:58:29Z");

  @Test
  void aMillisecondHeaderComesFirstThenTheOtherThenRetryAfter() {
    assertThat(waitFor("retry-after-ms", "1500", "x-ms-retry-after-ms", "20", "Retry-After", "7"))
        .isEqualTo(Duration.ofMillis(1500));
    assertThat(waitFor("x-ms-retry-after-ms", "20", "Retry-After", "7")).isEqualTo(Duration.ofMillis(20));
    assertThat(waitFor("Retry-After", "7")).isEqualTo(Duration.ofSeconds(7));
    assertThat(waitFor("Retry-After", "Fri, 31 Dec 1999 23:59:59 GMT")).isEqualTo(Duration.ofSeconds(90));
    assertThat(waitFor("retry-after-ms", " 0 ")).isEqualTo(Duration.ZERO);
  }

  @Test
  void aMillisecondHeaderThatIsNotAWholeNumberOfAtMostNineDigitsIsPassedOver() {
    for (String odd : new String[] {"1.5", "-20", "", " ", "1234567890", "soon", "٣"}) {
      assertThat(waitFor("retry-after-ms", odd, "Retry-After", "3")).as(odd).isEqualTo(Duration.ofSeconds(3));
    }
    assertThat(waitFor("retry-after-ms", "999999999")).isEqualTo(Duration.ofMillis(999_999_999));
  }

  @Test
  void noHeaderOrNoReadableOneIsNoWait() {
    assertThat(waitFor()).isNull();
    assertThat(waitFor("retry-after-ms", "soon", "Retry-After", "later")).isNull();
  }

  /** The wait the headers (name, value, name, value, …) ask for, looked up by name case-insensitively as HTTP's. */
  private static Duration waitFor(String... namesAndValues) {
    Map<String, String> headers = new TreeMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      headers.put(namesAndValues[i].toLowerCase(Locale.ROOT), namesAndValues[i + 1]);
    }
    UnaryOperator<String> header = name -> headers.get(name.toLowerCase(Locale.ROOT));
    return RetryAfter.fromHeaders(header, NOW);
  }
}
