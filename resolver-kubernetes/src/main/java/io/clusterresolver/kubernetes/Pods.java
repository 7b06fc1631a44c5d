package io.clusterresolver.kubernetes;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.Rfc3339;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads one listed pod ({@link ListedPod}): whether it is a member (Running, Ready, not being deleted, with an address
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
  private static final Pattern INTEGER = Pattern.compile("\\d{1,9}"); // compiled once, not for each label
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
  static Reading read(ListedPod pod, AddressType addressType, int port, String portName) {
    String name = pod.name();
    String phase = pod.phase();
    if (pod.terminating()) {
      return new Reading(null, name + " (terminating)");
    }
    if (!"Running".equals(phase)) {
      return new Reading(null, name + " (phase " + phase + ")");
    }
    if (!pod.ready()) {
      return new Reading(null, name + " (not ready)");
    }
    String address = address(pod.podIps(), addressType);
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
    Member.Builder member = Member.builder(name, address).name(name).port(taskPort)
        .creationTime(instant(pod.creationTimestamp())).labels(pod.labels()).accelerators(accelerators(pod));
    Integer ordinal = ordinal(name, pod.labels(), pod.controllerKind(), pod.controllerName());
    if (ordinal != null) {
      member.ordinal(ordinal);
    }
    return new Reading(member.build(), null);
  }

  /** The first pod IP of the chosen family ({@code podIPs} come before {@code podIP}). Never the host IP. */
  static String address(List<String> podIps, AddressType type) {
    boolean wantV6 = type == AddressType.IPV6;
    for (String ip : podIps) {
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
  static Integer ordinal(String name, Map<String, String> labels, String controllerKind, String controllerName) {
    if ("StatefulSet".equals(controllerKind)) {
      Integer label = integer(labels.get(POD_INDEX_LABEL));
      if (label != null) {
        return label;
      }
      Matcher m = ORDINAL_SUFFIX.matcher(name);
      return m.find() && name.equals(controllerName + m.group()) ? Integer.valueOf(m.group(1)) : null;
    }
    if ("Job".equals(controllerKind)) {
      return integer(labels.get(COMPLETION_INDEX_LABEL));
    }
    return null;
  }

  /** Accelerators from the containers' resource limits, summed per device type. */
  static Map<String, Integer> accelerators(ListedPod pod) {
    Map<String, Integer> found = new TreeMap<>();
    for (ListedPod.Container c : pod.containers()) {
      for (Map.Entry<String, String> limit : c.limits().entrySet()) {
        String type = ACCELERATOR_RESOURCES.get(limit.getKey());
        Integer n = type == null ? null : integer(amount(limit.getValue()));
        if (n != null && n > 0) {
          found.merge(type, n, Integer::sum);
        }
      }
    }
    return found;
  }

  /**
   * A quantity's number without its unit ({@code 8} of {@code 8}, {@code 500} of {@code 500m}), as
   * fabric8's {@code Quantity.getAmount()} read it before: the unit starts at the first of its letters.
   */
  private static String amount(String quantity) {
    for (int i = 0; i < quantity.length(); i++) {
      if ("eEinumkKMGTP".indexOf(quantity.charAt(i)) >= 0) {
        return quantity.substring(0, i);
      }
    }
    return quantity;
  }

  private static Integer namedPort(ListedPod pod, String portName) {
    for (ListedPod.Container c : pod.containers()) {
      for (ListedPod.Port p : c.ports()) {
        if (portName.equals(p.name()) && p.containerPort() != null) {
          return p.containerPort();
        }
      }
    }
    return null;
  }

  /**
   * A creation time; {@code null} when it is none (the pod is still a member, ordered after those with one). The API
   * server writes {@code metav1.Time} in RFC 3339 ({@code 2006-01-02T15:04:05Z}), which {@link Rfc3339} reads.
   */
  static Instant instant(String timestamp) {
    try {
      return timestamp == null ? null : Rfc3339.parse(timestamp);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static Integer integer(String text) {
    if (text == null || !INTEGER.matcher(text).matches()) {
      return null;
    }
    return Integer.valueOf(text);
  }
}
