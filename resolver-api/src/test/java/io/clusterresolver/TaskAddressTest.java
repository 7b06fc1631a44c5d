package io.clusterresolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TaskAddressTest {

  @Test
  void writesIpv6InBracketsAndReadsItBack() {
    assertThat(TaskAddress.of("fd00::1", 8888).toString()).isEqualTo("[fd00::1]:8888");
    assertThat(TaskAddress.of("[fd00::1]", 8888).toString()).isEqualTo("[fd00::1]:8888");
    assertThat(TaskAddress.parse("[fd00::1]:2222")).isEqualTo(new TaskAddress("fd00::1", 2222));
    assertThat(TaskAddress.parse("n1.cluster:80")).isEqualTo(new TaskAddress("n1.cluster", 80));
    assertThat(TaskAddress.parse("10.0.0.1:65535").port()).isEqualTo(65535);
  }

  @Test
  void rejectsWhatWouldBreakAHostfileOrATarget() {
    assertThatThrownBy(() -> TaskAddress.parse("a\nb:1")).hasMessageContaining("U+000A");
    assertThatThrownBy(() -> TaskAddress.parse("a b:1")).hasMessageContaining("a space");
    assertThatThrownBy(() -> TaskAddress.parse("fd00::1:80")).hasMessageContaining("brackets");
    assertThatThrownBy(() -> TaskAddress.parse("host")).hasMessageContaining("host:port");
    assertThatThrownBy(() -> TaskAddress.parse("host:")).hasMessageContaining("no valid port");
    assertThatThrownBy(() -> TaskAddress.parse("host:x1")).hasMessageContaining("no valid port");
    assertThatThrownBy(() -> TaskAddress.of("n1", 65536)).hasMessageContaining("65536");
    assertThatThrownBy(() -> TaskAddress.of("n1", 0)).hasMessageContaining("not between 1 and 65535");
    assertThatThrownBy(() -> TaskAddress.of("", 1)).hasMessageContaining("empty");
    assertThatThrownBy(() -> TaskAddress.of("[zz::1]", 1)).hasMessageContaining("IPv6");
  }
}
