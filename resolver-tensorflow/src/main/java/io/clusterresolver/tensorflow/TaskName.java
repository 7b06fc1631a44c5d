package io.clusterresolver.tensorflow;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A task's full name, as TensorFlow spells it in device names. */
record TaskName(String job, int index) {
  private static final Pattern IN_DEVICE =
      Pattern.compile("/job:([^/]+)(?:/replica:\\d+)?/task:(\\d+)(?:/|$)");

  /** {@code /job:<job>/replica:0/task:<index>}. */
  @Override
  public String toString() {
    return "/job:" + job + "/replica:0/task:" + index;
  }

  /** The task a full device name ({@code /job:w/replica:0/task:1/device:CPU:0}) belongs to. */
  static Optional<TaskName> ofDevice(String device) {
    if (device == null) {
      return Optional.empty();
    }
    Matcher m = IN_DEVICE.matcher(device);
    return m.find() ? Optional.of(new TaskName(m.group(1), Integer.parseInt(m.group(2))))
        : Optional.empty();
  }
}
