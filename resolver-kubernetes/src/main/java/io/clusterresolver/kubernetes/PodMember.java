package io.clusterresolver.kubernetes;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One pod that is a member of the cluster: Running, Ready, not being deleted, with an address of
 * the configured type and a port. Immutable.
 *
 * @param name the pod's name (unique in its namespace; what {@code POD_NAME} holds)
 * @param address its pod IP (never the node's), without port
 * @param port the port its task listens on
 * @param creationTime {@code metadata.creationTimestamp}, or {@code null} if absent
 * @param owner {@code Kind/name} of its controller (a StatefulSet, a Job), or {@code null}
 * @param ordinal its StatefulSet ordinal or Indexed Job completion index, or {@code null}
 * @param labels its labels
 * @param accelerators accelerators from its containers' resource limits ({@code GPU}, {@code TPU})
 */
record PodMember(String name, String address, int port, Instant creationTime, String owner, Integer ordinal,
    Map<String, String> labels, Map<String, Integer> accelerators) {

  PodMember {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(address, "address");
    labels = Map.copyOf(labels);
    accelerators = Map.copyOf(accelerators);
  }
}
