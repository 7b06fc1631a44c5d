package io.clusterresolver.gce;

import com.google.cloud.compute.v1.Accelerators;
import com.google.cloud.compute.v1.MachineType;
import io.clusterresolver.cloud.CloudApi;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * GPUs of machine types whose GPUs are bundled (a2, a3, g2…), from {@code machineTypes.get}, asked
 * once per API endpoint, project, zone and type for the JVM: a machine type never changes.
 */
final class MachineTypeGpus {

  private static final Map<String, Integer> CACHE = new ConcurrentHashMap<>();

  private MachineTypeGpus() {}

  /** The GPU count of a type in a zone, asked of the API the first time only. */
  static int of(ComputeClients compute, CloudApi.Session session, String scope, String project, String zone,
      String type) {
    String key = scope + "|" + project + "|" + zone + "|" + type;
    Integer known = CACHE.get(key);
    if (known != null) {
      return known;
    }
    MachineType machineType = session.call("machineTypes.get " + zone + "/" + type,
        remaining -> compute.machineType(project, zone, type, remaining));
    int gpus = machineType.getAcceleratorsList().stream().mapToInt(Accelerators::getGuestAcceleratorCount).sum();
    CACHE.put(key, gpus);
    return gpus;
  }

  /** For tests: forget every cached type. */
  static void clear() {
    CACHE.clear();
  }
}
