package io.clusterresolver.runtime;

import io.clusterresolver.proto.DeviceFilters;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.Map;

/**
 * Which of a task's devices a caller may see (TensorFlow's device filters): a task always sees its
 * own; otherwise the server's filters for the caller, else the filters of the caller's connection;
 * no filter means every device. A device the caller may not see is "unknown" to it.
 */
record DeviceVisibility(String job, int taskIndex, Map<String, DeviceName> parsedDevices,
    DeviceFilters serverFilters) {

  /** Whether {@code caller} may see {@code device} of this task. */
  boolean visibleTo(Caller caller, DeviceFilters contextFilters, String device) {
    DeviceName name = parsedDevices.get(device);
    if (name == null) {
      return false;
    }
    if (caller.job().equals(job) && caller.task() == taskIndex) {
      return true; // a task always sees its own devices
    }
    List<String> filters =
        serverFilters.hasFilters(caller.job(), caller.task())
            ? serverFilters.filters(caller.job(), caller.task())
            : contextFilters.filters(caller.job(), caller.task());
    if (filters.isEmpty()) {
      return true;
    }
    for (String filter : filters) {
      if (DeviceName.parse(filter).matches(name)) {
        return true;
      }
    }
    return false;
  }

  /** The error for a device that does not exist or that the caller may not see: the same to it. */
  static StatusRuntimeException unknownDevice(String device) {
    return Status.NOT_FOUND.withDescription("unknown device " + device).asRuntimeException();
  }
}
