package io.clusterresolver.testkit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One Cloud TPU node of a {@link SimulatedTpu}: what {@code nodes.get} returns for it. Immutable;
 * {@link #toBuilder()} derives a changed copy. Two nodes with the same values are equal.
 *
 * <pre>{@code
 * SimulatedTpuNode node = SimulatedTpuNode.builder("my-v4-32")
 *     .acceleratorType("v4-32")
 *     .workers("10.130.0.7", "10.130.0.5", "10.130.0.6", "10.130.0.4")   // worker order, as the API lists them
 *     .build();
 * }</pre>
 *
 * @param name the short name (the last part of the resource name)
 * @param acceleratorType the accelerator type, like {@code v4-32}, or {@code null} when the API gives none (old nodes)
 * @param state the node's state
 * @param health the health, or {@code null} when the API gives none
 * @param healthDescription the health description, or {@code null}
 * @param endpoints the workers' endpoints in worker order
 * @param createTime when the node was created
 * @param id the node's numeric id
 * @param runtimeVersion the TPU software version
 * @param preemptible whether the node is preemptible
 */
public record SimulatedTpuNode(
    String name,
    String acceleratorType,
    State state,
    Health health,
    String healthDescription,
    List<Endpoint> endpoints,
    Instant createTime,
    long id,
    String runtimeVersion,
    boolean preemptible) {

  /** The node states of the Cloud TPU API v2 ({@code Node.State}), with their enum numbers. */
  public enum State {
    STATE_UNSPECIFIED(0), CREATING(1), READY(2), RESTARTING(3), REIMAGING(4), DELETING(5), REPAIRING(6),
    STOPPED(8), STOPPING(9), STARTING(10), PREEMPTED(11), TERMINATED(12), HIDING(13), HIDDEN(14), UNHIDING(15),
    UNKNOWN(16);

    private final int number;

    State(int number) {
      this.number = number;
    }

    /** The enum's number, as the API writes it when asked for {@code enum-encoding=int}. */
    public int number() {
      return number;
    }
  }

  /** The node health values of the Cloud TPU API v2 ({@code Node.Health}), with their enum numbers. */
  public enum Health {
    HEALTH_UNSPECIFIED(0), HEALTHY(1), TIMEOUT(3), UNHEALTHY_TENSORFLOW(4), UNHEALTHY_MAINTENANCE(5);

    private final int number;

    Health(int number) {
      this.number = number;
    }

    /** The enum's number. */
    public int number() {
      return number;
    }
  }

  /**
   * One worker's network endpoint.
   *
   * @param ipAddress the internal IP
   * @param port the port, or 0 when the API gives none
   * @param externalIp the external IP, or {@code null}
   */
  public record Endpoint(String ipAddress, int port, String externalIp) {
    /** Validates the address. */
    public Endpoint {
      Objects.requireNonNull(ipAddress, "ipAddress");
    }

    /** An endpoint. */
    public static Endpoint of(String ipAddress, int port, String externalIp) {
      return new Endpoint(ipAddress, port, externalIp);
    }
  }

  /** Validates the values and keeps an unmodifiable copy of the endpoints. */
  public SimulatedTpuNode {
    Objects.requireNonNull(state, "state");
    endpoints = List.copyOf(endpoints);
  }

  /** A READY, HEALTHY {@code v2-8} node without workers yet, called {@code name} (the short name). */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** A builder with this node's values. */
  public Builder toBuilder() {
    Builder b = new Builder(name).acceleratorType(acceleratorType).state(state).health(health)
        .healthDescription(healthDescription).createTime(createTime).id(id).runtimeVersion(runtimeVersion)
        .preemptible(preemptible);
    b.endpoints.addAll(endpoints);
    return b;
  }

  @Override
  public String toString() {
    return "SimulatedTpuNode{" + name + ", " + acceleratorType + ", " + state + ", " + endpoints.size() + " workers}";
  }

  /** Builds a {@link SimulatedTpuNode}. */
  public static final class Builder {
    private final String name;
    private String acceleratorType = "v2-8";
    private State state = State.READY;
    private Health health = Health.HEALTHY;
    private String healthDescription;
    private final List<Endpoint> endpoints = new ArrayList<>();
    private Instant createTime = Instant.parse("2026-01-05T08:00:00.123456Z");
    private long id = 4_711_000_000_000_000_001L;
    private String runtimeVersion = "tpu-ubuntu2204-base";
    private boolean preemptible;

    private Builder(String name) {
      if (name == null || name.isEmpty() || name.contains("/")) {
        throw new IllegalArgumentException("A node's short name, not '" + name + "'");
      }
      this.name = name;
    }

    /** The accelerator type; {@code null} leaves it out of the JSON. */
    public Builder acceleratorType(String acceleratorType) {
      this.acceleratorType = acceleratorType;
      return this;
    }

    public Builder state(State state) {
      this.state = Objects.requireNonNull(state, "state");
      return this;
    }

    /** The health; {@code null} leaves it out of the JSON. */
    public Builder health(Health health) {
      this.health = health;
      return this;
    }

    public Builder healthDescription(String healthDescription) {
      this.healthDescription = healthDescription;
      return this;
    }

    /** Replaces the workers by these internal IPs, in this order, each on port 8470, without external IP. */
    public Builder workers(String... ipAddresses) {
      endpoints.clear();
      for (String ip : ipAddresses) {
        endpoints.add(Endpoint.of(ip, 8470, null));
      }
      return this;
    }

    /** Adds one worker endpoint. */
    public Builder endpoint(String ipAddress, int port, String externalIp) {
      endpoints.add(Endpoint.of(ipAddress, port, externalIp));
      return this;
    }

    /** Removes every worker endpoint. */
    public Builder clearEndpoints() {
      endpoints.clear();
      return this;
    }

    public Builder createTime(Instant createTime) {
      this.createTime = Objects.requireNonNull(createTime, "createTime");
      return this;
    }

    public Builder id(long id) {
      this.id = id;
      return this;
    }

    public Builder runtimeVersion(String runtimeVersion) {
      this.runtimeVersion = runtimeVersion;
      return this;
    }

    public Builder preemptible(boolean preemptible) {
      this.preemptible = preemptible;
      return this;
    }

    public SimulatedTpuNode build() {
      return new SimulatedTpuNode(name, acceleratorType, state, health, healthDescription, endpoints, createTime, id,
          runtimeVersion, preemptible);
    }
  }
}
