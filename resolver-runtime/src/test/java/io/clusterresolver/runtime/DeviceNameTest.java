package io.clusterresolver.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DeviceNameTest {
  private static final DeviceName WORKER1_GPU0 =
      DeviceName.parse("/job:worker/replica:0/task:1/device:GPU:0");

  @Test
  void partialNamesMatchOnTheGivenPartsOnly() {
    assertThat(DeviceName.parse("/job:worker").matches(WORKER1_GPU0)).isTrue();
    assertThat(DeviceName.parse("/job:worker/task:1").matches(WORKER1_GPU0)).isTrue();
    assertThat(DeviceName.parse("/job:worker/task:0").matches(WORKER1_GPU0)).isFalse();
    assertThat(DeviceName.parse("/job:ps").matches(WORKER1_GPU0)).isFalse();
    assertThat(DeviceName.parse("/job:worker/replica:3").matches(WORKER1_GPU0)).isFalse();
    assertThat(DeviceName.parse("/job:worker/replica:0/task:1/device:GPU:0").matches(WORKER1_GPU0))
        .isTrue();
    assertThat(DeviceName.parse("/job:worker/device:CPU:0").matches(WORKER1_GPU0)).isFalse();
    assertThat(DeviceName.parse("/device:GPU:*").matches(WORKER1_GPU0)).isTrue();
    assertThat(DeviceName.parse("/gpu:0").matches(WORKER1_GPU0)).isTrue();
    assertThat(DeviceName.parse("/job:*/task:1").matches(WORKER1_GPU0)).isTrue();
  }

  @Test
  void invalidNamesAreRejectedNamingTheInput() {
    assertThatThrownBy(() -> DeviceName.parse("job:ps"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("job:ps");
    assertThatThrownBy(() -> DeviceName.parse("/job:ps/task:x"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'x'");
    assertThatThrownBy(() -> DeviceName.parse("/jobs:ps"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jobs");
  }

  @Test
  void callerNeedsJobAndTask() {
    assertThat(Caller.parse("/job:worker/replica:0/task:2").name())
        .isEqualTo("/job:worker/replica:0/task:2");
    assertThatThrownBy(() -> Caller.parse("/job:worker"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/task:INDEX");
  }
}
