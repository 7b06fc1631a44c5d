package io.clusterresolver.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bytes checked against TensorFlow's own output (conformance/tf-vectors/devicefilters.json). */
class DeviceFiltersTest {

  @Test
  void protoDocExampleIsByteIdentical() {
    DeviceFilters filters =
        DeviceFilters.builder()
            .setDeviceFilters("worker", 1, List.of("/job:ps", "/job:worker/task:1"))
            .setDeviceFilters("worker", 0, List.of("/job:ps", "/job:worker/task:0"))
            .build();
    assertThat(Hex.of(filters.toBytes()))
        .isEqualTo(
            "0a4e0a06776f726b657212210800121d0a072f6a6f623a70730a122f6a6f623a776f726b65722f746173"
                + "6b3a3012210801121d0a072f6a6f623a70730a122f6a6f623a776f726b65722f7461736b3a31");
    assertThat(filters.filters("worker", 1)).containsExactly("/job:ps", "/job:worker/task:1");
    assertThat(filters.filters("ps", 0)).isEmpty();
  }

  @Test
  void emptyListMeansNoFilterButKeepsTheJob() {
    DeviceFilters filters =
        DeviceFilters.builder()
            .setDeviceFilters("worker", 0, List.of())
            .setDeviceFilters("worker", 1, List.of("/job:ps"))
            .build();
    assertThat(Hex.of(filters.toBytes()))
        .isEqualTo("0a170a06776f726b6572120d080112090a072f6a6f623a7073");
    assertThat(filters.hasFilters("worker", 0)).isFalse();
    assertThat(filters.hasFilters("worker", 1)).isTrue();
  }

  @Test
  void partialSpecsAndNothingSet() {
    DeviceFilters filters =
        DeviceFilters.builder()
            .setDeviceFilters(
                "worker", 0, List.of("/job:worker/replica:3", "/job:ps/task:0/device:CPU:0"))
            .build();
    assertThat(Hex.of(filters.toBytes()))
        .isEqualTo(
            "0a420a06776f726b65721238080012340a152f6a6f623a776f726b65722f7265706c6963613a330a1b2f"
                + "6a6f623a70732f7461736b3a302f6465766963653a4350553a30");
    assertThat(DeviceFilters.builder().build().toBytes()).isEmpty();
    assertThat(DeviceFilters.none().isEmpty()).isTrue();
  }

  @Test
  void settingATaskAgainReplacesItsFilters() {
    DeviceFilters filters =
        DeviceFilters.builder()
            .setDeviceFilters("worker", 0, List.of("/job:a"))
            .setDeviceFilters("worker", 0, List.of("/job:b"))
            .build();
    assertThat(filters.filters("worker", 0)).containsExactly("/job:b");
    assertThat(DeviceFilters.fromProto(filters.toProto())).isEqualTo(filters);
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void nonStringFilterIsRejectedNamingTheTask() {
    List raw = new ArrayList();
    raw.add("/job:ps");
    raw.add(3);
    assertThatThrownBy(() -> DeviceFilters.builder().setDeviceFilters("worker", 0, raw))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("worker")
        .hasMessageContaining("3");
  }
}
