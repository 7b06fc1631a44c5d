package io.clusterresolver.testkit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One pod of a {@link SimulatedKubernetes}, as the pods list of the Kubernetes API reports it
 * ({@code metadata}, {@code spec.containers}, {@code status}). Immutable: change a pod with
 * {@link SimulatedKubernetes#update} and {@link #toBuilder()}. Two pods with the same values are equal.
 *
 * <pre>{@code
 * SimulatedPod.builder("ml", "trainer-3").statefulSet("trainer", 3).label("app", "trainer")
 *     .podIp("10.8.0.13").gpus(8).build();
 * }</pre>
 *
 * @param namespace the pod's namespace
 * @param name the pod's name
 * @param uid {@code metadata.uid}
 * @param labels the pod's labels
 * @param creationTimestamp when it was created
 * @param deletionTimestamp when deletion was requested (the pod is terminating), or {@code null}
 * @param ownerKind the controller's kind ({@code StatefulSet}, {@code Job}, …), or {@code null}
 * @param ownerName the controller's name, or {@code null}
 * @param phase {@code Pending}, {@code Running}, {@code Succeeded}, {@code Failed} or {@code Unknown}
 * @param ready the status of the pod's {@code Ready} condition
 * @param podIps {@code status.podIPs} in order; the first is {@code status.podIP}. Empty before the pod has one
 * @param hostIp {@code status.hostIP}: the node's address, which a resolver must not use
 * @param nodeName the node it runs on
 * @param ports the container's ports
 * @param limits the container's {@code resources.limits}
 */
public record SimulatedPod(
    String namespace,
    String name,
    String uid,
    Map<String, String> labels,
    Instant creationTimestamp,
    Instant deletionTimestamp,
    String ownerKind,
    String ownerName,
    String phase,
    boolean ready,
    List<String> podIps,
    String hostIp,
    String nodeName,
    List<Port> ports,
    Map<String, String> limits) {

  /** A container port: its name (may be {@code null}) and number. */
  public record Port(String name, int containerPort) {}

  /** Validates the values and keeps unmodifiable copies of the collections. */
  public SimulatedPod {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    podIps = List.copyOf(podIps);
    ports = List.copyOf(ports);
    limits = Collections.unmodifiableMap(new LinkedHashMap<>(limits));
  }

  /**
   * A Running, Ready pod with no labels, no IP and no owner, created at 2025-01-01T00:00:00Z, on
   * node {@code node-1} (host IP {@code 192.168.0.1}).
   */
  public static Builder builder(String namespace, String name) {
    return new Builder(namespace, name);
  }

  /** A builder with this pod's values. */
  public Builder toBuilder() {
    Builder b = new Builder(namespace, name).labels(labels).created(creationTimestamp).terminating(deletionTimestamp)
        .owner(ownerKind, ownerName).phase(phase).ready(ready).hostIp(hostIp).nodeName(nodeName);
    b.uid = uid;
    b.podIps.addAll(podIps);
    b.ports.addAll(ports);
    b.limits.putAll(limits);
    return b;
  }

  /** {@code namespace/name}: the key the API server lists pods in. */
  public String key() {
    return namespace + "/" + name;
  }

  /** The pod as one item of a {@code PodList}. */
  String json() {
    StringBuilder s = new StringBuilder(1024);
    s.append("{\"metadata\":{\"name\":").append(KubernetesWire.quote(name))
        .append(",\"namespace\":").append(KubernetesWire.quote(namespace))
        .append(",\"uid\":").append(KubernetesWire.quote(uid))
        .append(",\"resourceVersion\":\"").append(Math.abs(uid.hashCode())).append('"')
        .append(",\"creationTimestamp\":").append(KubernetesWire.quote(creationTimestamp.toString()));
    if (deletionTimestamp != null) {
      s.append(",\"deletionTimestamp\":").append(KubernetesWire.quote(deletionTimestamp.toString()))
          .append(",\"deletionGracePeriodSeconds\":30");
    }
    if (!labels.isEmpty()) {
      s.append(",\"labels\":").append(KubernetesWire.object(labels));
    }
    if (ownerKind != null) {
      String apiVersion = ownerKind.equals("Job") ? "batch/v1" : "apps/v1";
      s.append(",\"ownerReferences\":[{\"apiVersion\":\"").append(apiVersion).append("\",\"kind\":")
          .append(KubernetesWire.quote(ownerKind)).append(",\"name\":").append(KubernetesWire.quote(ownerName))
          .append(",\"uid\":").append(KubernetesWire.quote(KubernetesWire.uid(ownerKind + "/" + ownerName)))
          .append(",\"controller\":true,\"blockOwnerDeletion\":true}]");
    }
    s.append("},\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"registry.example/trainer:1.0\"");
    if (!ports.isEmpty()) {
      s.append(",\"ports\":[");
      for (int i = 0; i < ports.size(); i++) {
        Port p = ports.get(i);
        s.append(i == 0 ? "" : ",").append('{');
        if (p.name() != null) {
          s.append("\"name\":").append(KubernetesWire.quote(p.name())).append(',');
        }
        s.append("\"containerPort\":").append(p.containerPort()).append(",\"protocol\":\"TCP\"}");
      }
      s.append(']');
    }
    s.append(",\"resources\":{");
    if (!limits.isEmpty()) {
      s.append("\"limits\":").append(KubernetesWire.object(limits)).append(",\"requests\":")
          .append(KubernetesWire.object(limits));
    }
    s.append("}}],\"restartPolicy\":\"Always\",\"serviceAccountName\":\"default\",\"nodeName\":")
        .append(KubernetesWire.quote(nodeName)).append("},\"status\":{\"phase\":").append(KubernetesWire.quote(phase));
    String t = creationTimestamp.toString();
    s.append(",\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\",\"lastTransitionTime\":\"").append(t)
        .append("\"},{\"type\":\"Initialized\",\"status\":\"True\",\"lastTransitionTime\":\"").append(t)
        .append("\"},{\"type\":\"ContainersReady\",\"status\":\"").append(ready ? "True" : "False")
        .append("\",\"lastTransitionTime\":\"").append(t)
        .append("\"},{\"type\":\"Ready\",\"status\":\"").append(ready ? "True" : "False")
        .append("\",\"lastTransitionTime\":\"").append(t).append("\"}]");
    if (!phase.equals("Pending") || !podIps.isEmpty()) {
      s.append(",\"hostIP\":").append(KubernetesWire.quote(hostIp))
          .append(",\"hostIPs\":[{\"ip\":").append(KubernetesWire.quote(hostIp)).append("}]");
    }
    if (!podIps.isEmpty()) {
      s.append(",\"podIP\":").append(KubernetesWire.quote(podIps.get(0))).append(",\"podIPs\":[");
      for (int i = 0; i < podIps.size(); i++) {
        s.append(i == 0 ? "" : ",").append("{\"ip\":").append(KubernetesWire.quote(podIps.get(i))).append('}');
      }
      s.append(']');
    }
    s.append(",\"startTime\":\"").append(t).append("\",\"qosClass\":\"")
        .append(limits.isEmpty() ? "BestEffort" : "Guaranteed").append("\"}}");
    return s.toString();
  }

  @Override
  public String toString() {
    return "SimulatedPod{" + key() + " " + phase + (ready ? " ready" : " not ready")
        + (deletionTimestamp != null ? " terminating" : "") + " " + podIps + "}";
  }

  /** Builds a {@link SimulatedPod}. Not thread-safe. */
  public static final class Builder {
    private final String namespace;
    private final String name;
    private String uid;
    private final Map<String, String> labels = new LinkedHashMap<>();
    private Instant creationTimestamp = Instant.parse("2025-01-01T00:00:00Z");
    private Instant deletionTimestamp;
    private String ownerKind;
    private String ownerName;
    private String phase = "Running";
    private boolean ready = true;
    private final List<String> podIps = new ArrayList<>();
    private String hostIp = "192.168.0.1";
    private String nodeName = "node-1";
    private final List<Port> ports = new ArrayList<>();
    private final Map<String, String> limits = new LinkedHashMap<>();

    private Builder(String namespace, String name) {
      this.namespace = Objects.requireNonNull(namespace, "namespace");
      this.name = Objects.requireNonNull(name, "name");
      this.uid = KubernetesWire.uid(namespace + "/" + name);
    }

    public Builder label(String key, String value) {
      labels.put(Objects.requireNonNull(key), Objects.requireNonNull(value));
      return this;
    }

    public Builder labels(Map<String, String> labels) {
      labels.forEach(this::label);
      return this;
    }

    public Builder created(Instant creationTimestamp) {
      this.creationTimestamp = Objects.requireNonNull(creationTimestamp);
      return this;
    }

    /** Marks the pod as being deleted (terminating) since this time; {@code null} for not. */
    public Builder terminating(Instant deletionTimestamp) {
      this.deletionTimestamp = deletionTimestamp;
      return this;
    }

    /** The pod's controller, such as {@code StatefulSet}/{@code web}. */
    public Builder owner(String kind, String name) {
      this.ownerKind = kind;
      this.ownerName = name;
      return this;
    }

    /**
     * Makes it pod {@code ordinal} of StatefulSet {@code set}: the owner, and the labels
     * {@code apps.kubernetes.io/pod-index}, {@code statefulset.kubernetes.io/pod-name} and
     * {@code controller-revision-hash} (the name should be {@code set-ordinal}).
     */
    public Builder statefulSet(String set, int ordinal) {
      owner("StatefulSet", set);
      label("apps.kubernetes.io/pod-index", Integer.toString(ordinal));
      label("controller-revision-hash", set + "-7c9d8b6f5d");
      label("statefulset.kubernetes.io/pod-name", name);
      return this;
    }

    /**
     * Makes it the pod of completion index {@code index} of Indexed Job {@code job}: the owner and
     * the labels {@code batch.kubernetes.io/job-completion-index}, {@code job-name} and
     * {@code batch.kubernetes.io/job-name}.
     */
    public Builder indexedJob(String job, int index) {
      owner("Job", job);
      label("batch.kubernetes.io/job-completion-index", Integer.toString(index));
      label("batch.kubernetes.io/job-name", job);
      label("job-name", job);
      return this;
    }

    /** {@code Pending}, {@code Running}, {@code Succeeded}, {@code Failed} or {@code Unknown}. */
    public Builder phase(String phase) {
      this.phase = Objects.requireNonNull(phase);
      return this;
    }

    public Builder ready(boolean ready) {
      this.ready = ready;
      return this;
    }

    /** Sets {@code status.podIPs} (the first is {@code status.podIP}); none for a pod without an IP yet. */
    public Builder podIps(String... ips) {
      podIps.clear();
      podIps.addAll(List.of(ips));
      return this;
    }

    public Builder hostIp(String hostIp) {
      this.hostIp = Objects.requireNonNull(hostIp);
      return this;
    }

    public Builder nodeName(String nodeName) {
      this.nodeName = Objects.requireNonNull(nodeName);
      return this;
    }

    /** Adds a container port. */
    public Builder port(String name, int containerPort) {
      ports.add(new Port(name, containerPort));
      return this;
    }

    /** Adds a resource limit, like {@code nvidia.com/gpu} {@code 8}. */
    public Builder limit(String resource, String quantity) {
      limits.put(Objects.requireNonNull(resource), Objects.requireNonNull(quantity));
      return this;
    }

    public SimulatedPod build() {
      return new SimulatedPod(namespace, name, uid, labels, creationTimestamp, deletionTimestamp, ownerKind, ownerName,
          phase, ready, podIps, hostIp, nodeName, ports, limits);
    }
  }
}
