package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The one line about machines without the chosen address, as the providers wrote it before the kit did. */
class MembersLeftOutTest {

  @Test
  void namesEveryMachineUpToTwentyAndWhereTheAddressWasLookedFor() {
    MembersLeftOut leftOut = MembersLeftOut.of("gce", "instance(s)", AddressType.PUBLIC_IPV4, "on nic0");
    leftOut.add("vm-a (RUNNING)");
    leftOut.add("vm-b (STOPPING)");
    assertThat(leftOut.count()).isEqualTo(2);
    assertThat(leftOut.message()).isEqualTo(
        "gce: 2 instance(s) without a public-ipv4 address on nic0 left out: vm-a (RUNNING), vm-b (STOPPING)");
  }

  @Test
  void withoutAPlaceTheLineSaysOnlyTheAddress() {
    MembersLeftOut leftOut = MembersLeftOut.of("aws", "instance(s)", AddressType.IPV6, "");
    leftOut.add("i-1 (running)");
    assertThat(leftOut.message()).isEqualTo("aws: 1 instance(s) without a ipv6 address left out: i-1 (running)");
  }

  @Test
  void moreThanTwentyAreCountedAndTheFirstTwentyNamed() {
    MembersLeftOut leftOut = MembersLeftOut.of("azure", "running VM(s)", AddressType.PRIVATE_IPV4,
        "on their primary network interface");
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= 25; i++) {
      leftOut.add("vm" + i);
      if (i <= 20) {
        names.add("vm" + i);
      }
    }
    assertThat(leftOut.message()).isEqualTo("azure: 25 running VM(s) without a private-ipv4 address on their primary"
        + " network interface left out: " + String.join(", ", names) + ", …");
  }

  @Test
  void exactlyTwentyEndWithoutAnEllipsis() {
    MembersLeftOut leftOut = MembersLeftOut.of("aws", "instance(s)", AddressType.PRIVATE_IPV4, "");
    for (int i = 1; i <= 20; i++) {
      leftOut.add("i-" + i);
    }
    assertThat(leftOut.message()).endsWith("i-19, i-20");
  }

  @Test
  void logsOnceAtInfoAndNothingWhenNoneWasLeftOut() {
    Recording log = new Recording();
    MembersLeftOut none = MembersLeftOut.of("aws", "instance(s)", AddressType.PRIVATE_IPV4, "");
    none.log(log);
    assertThat(none.message()).isEmpty();
    assertThat(log.lines).isEmpty();

    MembersLeftOut one = MembersLeftOut.of("aws", "instance(s)", AddressType.PRIVATE_IPV4, "");
    one.add("i-9 (pending)");
    one.log(log);
    assertThat(log.lines)
        .containsExactly("INFO aws: 1 instance(s) without a private-ipv4 address left out: i-9 (pending)");
  }

  /** A logger that keeps what it is given. */
  private static final class Recording implements System.Logger {
    final List<String> lines = new ArrayList<>();

    @Override
    public String getName() {
      return "recording";
    }

    @Override
    public boolean isLoggable(Level level) {
      return true;
    }

    @Override
    public void log(Level level, Supplier<String> message) {
      lines.add(level + " " + message.get());
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
      lines.add(level + " " + message);
    }

    @Override
    public void log(Level level, ResourceBundle bundle, String format, Object... params) {
      lines.add(level + " " + format);
    }
  }
}
