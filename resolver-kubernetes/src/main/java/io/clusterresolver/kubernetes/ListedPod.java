package io.clusterresolver.kubernetes;

import java.util.List;
import java.util.Map;

/**
 * The fields of one listed pod that a resolve reads, and nothing else: what {@link PodListJson}
 * keeps of the API server's {@code Pod} object. Missing fields are {@code null} (strings) or empty.
 *
 * @param name {@code metadata.name}
 * @param creationTimestamp {@code metadata.creationTimestamp}, as sent (RFC 3339)
 * @param terminating whether {@code metadata.deletionTimestamp} is set
 * @param labels {@code metadata.labels}
 * @param controllerKind the {@code kind} of the first {@code metadata.ownerReferences} entry with {@code controller: true}
 * @param controllerName that entry's {@code name}
 * @param phase {@code status.phase}
 * @param ready whether the first {@code status.conditions} entry of type {@code Ready} has status {@code True}
 * @param podIps {@code status.podIPs[].ip}, then {@code status.podIP}, in that order (never the host's)
 * @param containers {@code spec.containers}, in order
 */
record ListedPod(String name, String creationTimestamp, boolean terminating, Map<String, String> labels,
    String controllerKind, String controllerName, String phase, boolean ready, List<String> podIps,
    List<Container> containers) {

  ListedPod {
    labels = Map.copyOf(labels);
    podIps = List.copyOf(podIps);
    containers = List.copyOf(containers);
  }

  /**
   * One container's ports and resource limits.
   *
   * @param ports {@code ports}, in order
   * @param limits {@code resources.limits}: resource name to the quantity as sent, such as {@code 8} or {@code 500m}
   */
  record Container(List<Port> ports, Map<String, String> limits) {
    Container {
      ports = List.copyOf(ports);
      limits = Map.copyOf(limits);
    }
  }

  /**
   * A container port.
   *
   * @param name {@code name}, or {@code null}
   * @param containerPort {@code containerPort}, or {@code null}
   */
  record Port(String name, Integer containerPort) {}
}
