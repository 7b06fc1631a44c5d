package io.clusterresolver.spi;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.clusterresolver.ConfigurationException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Fuzz test (Jazzer) of property values: any text parsed as each kind of {@link ConfigProperty}. The
 * only failure is a {@link ConfigurationException} naming the key, never echoing a secret's value;
 * an accepted integer equals the text's own number ({@link BigInteger}) within the range. Seeds in
 * {@code src/test/resources/io/clusterresolver/spi/ConfigPropertyFuzzTestInputs/}; docs/reliability.md.
 */
class ConfigPropertyFuzzTest {

  private static final String KEY = "clusterresolver.fuzz.value";
  private static final ConfigProperty<Integer> PORT = ConfigProperty.integer("port").range(1, 65535).build();
  private static final ConfigProperty<Boolean> FLAG = ConfigProperty.bool("flag").build();
  private static final ConfigProperty<Duration> TIMEOUT = ConfigProperty.duration("timeout").build();
  private static final ConfigProperty<List<String>> LIST = ConfigProperty.list("states").build();
  private static final ConfigProperty<Map<String, String>> MAP = ConfigProperty.map("tags").build();
  private static final ConfigProperty<String> CHOICE = ConfigProperty.string("order").oneOf("id", "name").build();
  private static final ConfigProperty<String> SECRET = ConfigProperty.string("secret-access-key").secret()
      .oneOf("only-this").build();

  @FuzzTest(maxDuration = "3m")
  void propertyValues(FuzzedDataProvider data) {
    String raw = data.consumeRemainingAsString();
    for (ConfigProperty<?> property : List.of(PORT, FLAG, TIMEOUT, LIST, MAP, CHOICE, SECRET)) {
      Object value;
      try {
        value = property.parse(KEY, raw);
      } catch (ConfigurationException e) {
        assertThat(e.getMessage()).startsWith(KEY + ": ");
        if (property.secret() && raw.strip().length() >= 4) {
          assertThat(e.getMessage()).as("a secret's value is never shown").doesNotContain(raw.strip());
        }
        continue;
      }
      assertThat(value).as("%s of '%s'", property.name(), raw).isNotNull();
      if (property == PORT) {
        // the documented reading: blanks and control characters around it trimmed, ASCII digits
        assertThat(raw.trim()).matches("[+-]?[0-9]+");
        BigInteger number = new BigInteger(raw.trim());
        assertThat(number).isBetween(BigInteger.ONE, BigInteger.valueOf(65535));
        assertThat(value).isEqualTo(number.intValueExact());
      } else if (property == TIMEOUT) {
        assertThat(((Duration) value).isNegative()).as("a negative duration").isFalse();
      } else if (property == LIST) {
        // items are trimmed like the whole value (String.trim: up to U+0020), and never empty
        assertThat((List<?>) value).allMatch(item -> !item.toString().isEmpty()
            && item.toString().equals(item.toString().trim()));
      }
    }
  }
}
