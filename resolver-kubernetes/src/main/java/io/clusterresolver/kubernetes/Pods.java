package io.clusterresolver.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.Member;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one listed pod: whether it is a member (Running, Ready, not being deleted, with an address
 * of the chosen type and a port), and if so its {@link Member}; if not, why not. Pure functions.
 *
 * <p>A member pod's id and name are the pod's name (unique in its namespace; what {@code POD_NAME}
 * holds), its address its pod IP (never the node's), its port the port its task listens on, its
 * ordinal its StatefulSet ordinal or Indexed Job completion index, and its accelerators those of its
 * containers' resource limits ({@code GPU}, {@code TPU}).
 */
final class Pods {

  /** The StatefulSet ordinal label (Kubernetes 1.28+). */
  static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
  /** The Indexed Job completion index label (Kubernetes 1.28+; also an annotation before). */
  static final String COMPLETION_INDEX_LABEL = "batch.kubernetes.io/job-completion-index";

  /** Extended resources counted as accelerators, by device type. */
  private static final Map<String, String> ACCELERATOR_RESOURCES = Map.of(
      "nvidia.com/gpu", "GPU", "amd.com/gpu", "GPU", "google.com/tpu", "TPU");
  private static final Pattern ORDINAL_SUFFIX = Pattern.compile("-(\\d{1,9})$");

  private Pods() {}

  /** A pod read: a member, or the reason it is left out. */
  record Reading(Member member, String leftOutBecause) {}

  /**
   * Reads a pod.
   *
   * @param port the configured port ({@code port-name} unset)
   * @param portName the named container port to use instead, or {@code null}
   */
  static Reading read(Pod pod, AddressType addressType, int port, String portName) {
    ObjectMeta meta = pod.getMetadata();
    String name = meta.getName();
    PodStatus status = pod.getStatus();
    String phase = status == null ? null : status.getPhase();
    if (meta.getDeletionTimestamp() != null) {
      return new Reading(null, name + " (terminating)");
    }
    if (!"Running".equals(phase)) {
      return new Reading(null, name + " (phase " + phase + ")");
    }
    if (!isReady(status)) {
      return new Reading(null, name + " (not ready)");
    }
    String address = address(status, addressType);
    if (address == null) {
      return new Reading(null, name + " (no " + addressType.configName() + " pod IP)");
    }
    int taskPort = port;
    if (portName != null) {
      Integer named = namedPort(pod, portName);
      if (named == null) {
        return new Reading(null, name + " (no container port named " + portName + ")");
      }
      taskPort = named;
      if (taskPort < 1 || taskPort > 65535) {
        throw new ClusterResolverException("kubernetes: pod " + name + " has an address no task can listen on: its"
            + " container port " + portName + " is " + taskPort + ", not between 1 and 65535");
      }
    }
    Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
    Member.Builder member = Member.builder(name, address).name(name).port(taskPort)
        .creationTime(instant(meta.getCreationTimestamp())).labels(labels).accelerators(accelerators(pod));
    Integer ordinal = ordinal(name, labels, controller(meta));
    if (ordinal != null) {
      member.ordinal(ordinal);
    }
    return new Reading(member.build(), null);
  }

  /** Whether the pod's {@code Ready} condition is {@code True}. */
  static boolean isReady(PodStatus status) {
    if (status.getConditions() == null) {
      return false;
    }
    for (PodCondition c : status.getConditions()) {
      if ("Ready".equals(c.getType())) {
        return "True".equals(c.getStatus());
      }
    }
    return false;
  }

  /** The pod IP of the chosen family: {@code podIPs} first (dual stack), then {@code podIP}. Never the host IP. */
  static String address(PodStatus status, AddressType type) {
    List<String> ips = new ArrayList<>();
    if (status.getPodIPs() != null) {
      for (PodIP ip : status.getPodIPs()) {
        if (ip.getIp() != null) {
          ips.add(ip.getIp());
        }
      }
    }
    if (status.getPodIP() != null) {
      ips.add(status.getPodIP());
    }
    boolean wantV6 = type == AddressType.IPV6;
    for (String ip : ips) {
      if (!ip.isBlank() && ip.contains(":") == wantV6) {
        return ip;
      }
    }
    return null;
  }

  /**
   * The pod's index within its controller: the StatefulSet ordinal ({@value #POD_INDEX_LABEL}, else
   * the name's numeric suffix), the Indexed Job completion index ({@value #COMPLETION_INDEX_LABEL}),
   * or {@code null}.
   */
  static Integer ordinal(String name, Map<String, String> labels, OwnerReference controller) {
    String kind = controller == null ? null : controller.getKind();
    if ("StatefulSet".equals(kind)) {
      Integer label = integer(labels.get(POD_INDEX_LABEL));
      if (label != null) {
        return label;
      }
      Matcher m = ORDINAL_SUFFIX.matcher(name);
      return m.find() && name.equals(controller.getName() + m.group()) ? Integer.valueOf(m.group(1)) : null;
    }
    if ("Job".equals(kind)) {
      return integer(labels.get(COMPLETION_INDEX_LABEL));
    }
    return null;
  }

  /** Accelerators from the containers' resource limits, summed per device type. */
  static Map<String, Integer> accelerators(Pod pod) {
    Map<String, Integer> found = new TreeMap<>();
    if (pod.getSpec() == null || pod.getSpec().getContainers() == null) {
      return found;
    }
    for (Container c : pod.getSpec().getContainers()) {
      if (c.getResources() == null || c.getResources().getLimits() == null) {
        continue;
      }
      for (Map.Entry<String, Quantity> limit : c.getResources().getLimits().entrySet()) {
        String type = ACCELERATOR_RESOURCES.get(limit.getKey());
        Integer n = limit.getValue() == null ? null : integer(limit.getValue().getAmount());
        if (type != null && n != null && n > 0) {
          found.merge(type, n, Integer::sum);
        }
      }
    }
    return found;
  }

  private static Integer namedPort(Pod pod, String portName) {
    if (pod.getSpec() == null || pod.getSpec().getContainers() == null) {
      return null;
    }
    for (Container c : pod.getSpec().getContainers()) {
      if (c.getPorts() != null) {
        for (ContainerPort p : c.getPorts()) {
          if (portName.equals(p.getName()) && p.getContainerPort() != null) {
            return p.getContainerPort();
          }
        }
      }
    }
    return null;
  }

  private static OwnerReference controller(ObjectMeta meta) {
    if (meta.getOwnerReferences() == null) {
      return null;
    }
    for (OwnerReference o : meta.getOwnerReferences()) {
      if (Boolean.TRUE.equals(o.getController())) {
        return o;
      }
    }
    return null;
  }

  private static Instant instant(String timestamp) {
    try {
      return timestamp == null ? null : Instant.parse(timestamp);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static Integer integer(String text) {
    if (text == null || !text.matches("\\d{1,9}")) {
      return null;
    }
    return Integer.valueOf(text);
  }
}
