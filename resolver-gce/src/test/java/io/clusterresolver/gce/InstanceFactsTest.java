package io.clusterresolver.gce;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InstanceFactsTest {

  /** The id as the metadata server writes it: the unsigned 64-bit value in decimal (BigInteger's reading of it). */
  private static String decimal(long id) {
    BigInteger unsigned = BigInteger.valueOf(id);
    return (id < 0 ? unsigned.add(BigInteger.ONE.shiftLeft(64)) : unsigned).toString();
  }

  @ParameterizedTest
  @ValueSource(longs = {0L, 7L, 40000001003L, 1234567890123456789L, Long.MAX_VALUE, -1L, Long.MIN_VALUE})
  void aListedIdIsItsUnsignedDecimalZeroPaddedToTwentyDigitsAsTheMetadataServersIs(long id) {
    String decimal = decimal(id);
    String expected = String.format("%20s", decimal).replace(' ', '0');

    assertThat(InstanceFacts.memberId(id)).isEqualTo(expected).hasSize(20);
    assertThat(InstanceFacts.memberId(decimal)).isEqualTo(expected);
    assertThat(InstanceFacts.memberId(" " + decimal + "\n")).as("the metadata server's text, trimmed").isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "abc", "12a", "123456789012345678901"})
  void anIdThatIsNotAtMostTwentyDigitsIsKeptAsItIs(String id) {
    assertThat(InstanceFacts.memberId(id)).isEqualTo(id);
  }
}
