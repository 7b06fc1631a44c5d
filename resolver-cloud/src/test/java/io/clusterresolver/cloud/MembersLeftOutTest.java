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
  void aFreeReasonIsWrittenAfterTheCountAndEachMachineGivesItsOwn() {
    MembersLeftOut leftOut = MembersLeftOut.because("kubernetes", "pod(s)",
        "matching the selector left out of the cluster");
    leftOut.add("trainer-3 (not ready)");
    leftOut.add("trainer-7 (no private-ipv4 pod IP)");
    assertThat(leftOut.count()).isEqualTo(2);
    assertThat(leftOut.message()).isEqualTo("kubernetes: 2 pod(s) matching the selector left out of the cluster:"
        + " trainer-3 (not ready), trainer-7 (no private-ipv4 pod IP)");
  }

  @Test
  void aFreeReasonNamesTheFirstTwentyAndLogsNothingWhenNoneWasLeftOut() {
    Recording log = new Recording();
    MembersLeftOut none = MembersLeftOut.because("kubernetes", "pod(s)", "matching the selector left out of the"
        + " cluster");
    none.log(log);
    assertThat(none.message()).isEmpty();
    assertThat(log.lines).isEmpty();

    MembersLeftOut many = MembersLeftOut.because("kubernetes", "pod(s)", "matching the selector left out of the"
        + " cluster");
    for (int i = 0; i < 21; i++) {
      many.add("p-" + i + " (terminating)");
    }
    many.log(log);
    assertThat(log.lines).containsExactly("INFO kubernetes: 21 pod(s) matching the selector left out of the cluster:"
        + " p-0 (terminating), p-1 (terminating), p-2 (terminating), p-3 (terminating), p-4 (terminating),"
        + " p-5 (terminating), p-6 (terminating), p-7 (terminating), p-8 (terminating), p-9 (terminating),"
        + " p-10 (terminating), p-11 (terminating), p-12 (terminating), p-13 (terminating), p-14 (terminating),"
        + " p-15 (terminating), p-16 (terminating), p-17 (terminating), p-18 (terminating), p-19 (terminating), …");
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
