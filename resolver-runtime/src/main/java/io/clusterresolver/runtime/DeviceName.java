package io.clusterresolver.runtime;

import java.util.Locale;
import java.util.Objects;

/**
 * A full or partial TensorFlow device name: {@code /job:J/replica:R/task:T/device:TYPE:ID}, any
 * part of which may be missing (or {@code *}). Also accepts the legacy {@code /cpu:0} and {@code
 * /gpu:0} forms. A partial name matches every device that agrees with it on the parts it gives
 * (TensorFlow's {@code DeviceNameUtils::IsSpecification}).
 */
final class DeviceName {
  final String job; // null = any
  final Integer replica;
  final Integer task;
  final String type;
  final Integer id;

  private DeviceName(String job, Integer replica, Integer task, String type, Integer id) {
    this.job = job;
    this.replica = replica;
    this.task = task;
    this.type = type;
    this.id = id;
  }

  /** The full name of device {@code TYPE:id} of a task. */
  static String format(String job, int task, String type, int id) {
    return "/job:" + job + "/replica:0/task:" + task + "/device:" + type + ":" + id;
  }

  /** The device-name prefix naming a task, {@code /job:J/replica:0/task:T}. */
  static String taskName(String job, int task) {
    return "/job:" + job + "/replica:0/task:" + task;
  }

  /**
   * Parses a full or partial name.
   *
   * @throws IllegalArgumentException naming the input when it is not a device name
   */
  static DeviceName parse(String name) {
    if (name == null || !name.startsWith("/")) {
      throw invalid(name, "a device name starts with '/'");
    }
    String job = null;
    Integer replica = null;
    Integer task = null;
    String type = null;
    Integer id = null;
    for (String part : name.substring(1).split("/", -1)) {
      int colon = part.indexOf(':');
      if (colon <= 0) {
        throw invalid(name, "'" + part + "' is not of the form key:value");
      }
      String key = part.substring(0, colon);
      String value = part.substring(colon + 1);
      switch (key) {
        case "job":
          job = value.isEmpty() || value.equals("*") ? null : value;
          break;
        case "replica":
          replica = number(name, value);
          break;
        case "task":
          task = number(name, value);
          break;
        case "device":
          {
            int second = value.indexOf(':');
            String t = second < 0 ? value : value.substring(0, second);
            type = t.equals("*") || t.isEmpty() ? null : t;
            id = second < 0 ? null : number(name, value.substring(second + 1));
            break;
          }
        case "cpu":
        case "gpu":
        case "CPU":
        case "GPU":
          // Legacy short form: /cpu:0, /gpu:1.
          type = key.toUpperCase(Locale.ROOT);
          id = number(name, value);
          break;
        default:
          throw invalid(name, "unknown part '" + key + "'");
      }
    }
    return new DeviceName(job, replica, task, type, id);
  }

  private static Integer number(String name, String value) {
    if (value.equals("*")) {
      return null;
    }
    try {
      int n = Integer.parseInt(value);
      if (n < 0) {
        throw invalid(name, "'" + value + "' is negative");
      }
      return n;
    } catch (NumberFormatException e) {
      throw invalid(name, "'" + value + "' is not a number");
    }
  }

  private static IllegalArgumentException invalid(String name, String why) {
    return new IllegalArgumentException("Invalid device name '" + name + "': " + why);
  }

  /** Whether {@code device} (a full name) agrees with this (partial) name on every part given. */
  boolean matches(DeviceName device) {
    return (job == null || job.equals(device.job))
        && (replica == null || replica.equals(device.replica))
        && (task == null || task.equals(device.task))
        && (type == null || type.equals(device.type))
        && (id == null || id.equals(device.id));
  }

  /** Whether this full device name belongs to the given task. */
  boolean isOnTask(String otherJob, int otherTask) {
    return Objects.equals(job, otherJob) && task != null && task == otherTask;
  }
}
