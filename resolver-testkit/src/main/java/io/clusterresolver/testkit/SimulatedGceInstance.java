package io.clusterresolver.testkit;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One Compute Engine instance of a {@link SimulatedGce} project, as the Compute Engine API reports it.
 * Immutable: change one with {@link SimulatedGce#update} and {@link #toBuilder()}.
 */
public final class SimulatedGceInstance {

  private final String name;
  private final long id;
  private final String zone;
  private final String machineType;
  private final String status;
  private final Map<String, String> labels;
  private final String networkIp;
  private final String natIp;
  private final String ipv6;
  private final List<String> otherNicIps;
  private final OffsetDateTime creationTimestamp;
  private final String acceleratorType;
  private final int acceleratorCount;

  private SimulatedGceInstance(Builder b) {
    this.name = b.name;
    this.id = b.id;
    this.zone = b.zone;
    this.machineType = b.machineType;
    this.status = b.status;
    this.labels = Collections.unmodifiableMap(new LinkedHashMap<>(b.labels));
    this.networkIp = b.networkIp;
    this.natIp = b.natIp;
    this.ipv6 = b.ipv6;
    this.otherNicIps = List.copyOf(b.otherNicIps);
    this.creationTimestamp = b.creationTimestamp;
    this.acceleratorType = b.acceleratorType;
    this.acceleratorCount = b.acceleratorCount;
  }

  /** A {@code RUNNING} {@code n2-standard-4} in {@code us-central1-a}, created 2026-01-05 UTC, with no address yet. */
  public static Builder builder(String name, long id) {
    return new Builder(name, id);
  }

  /**
   * Instance {@code i}: named {@code vm-i}, id {@code 7000000000000000000 + i}, internal IP
   * {@code 10.128.x.y} (the i-th address from 10.128.0.0), created {@code i} seconds after
   * 2026-01-05T00:00:00Z, written with offset {@code -08:00}.
   */
  public static Builder typical(int i) {
    return builder("vm-" + i, 7_000_000_000_000_000_000L + i)
        .networkIp("10.128." + (i / 256) + "." + (i % 256))
        .creationTimestamp(OffsetDateTime.of(2026, 1, 5, 0, 0, 0, 0, ZoneOffset.UTC).plusSeconds(i)
            .withOffsetSameInstant(ZoneOffset.ofHours(-8)));
  }

  public String name() {
    return name;
  }

  /** The numeric id (an unsigned 64-bit value). */
  public long id() {
    return id;
  }

  /** The id as the API writes it (decimal, unsigned). */
  public String idText() {
    return Long.toUnsignedString(id);
  }

  public String zone() {
    return zone;
  }

  public String machineType() {
    return machineType;
  }

  /** {@code RUNNING}, {@code STOPPED}, {@code TERMINATED}, … */
  public String status() {
    return status;
  }

  public Map<String, String> labels() {
    return labels;
  }

  /** nic0's internal IPv4 ({@code networkIP}), if any (an IPv6-only instance has none). */
  public Optional<String> networkIp() {
    return Optional.ofNullable(networkIp);
  }

  /** nic0's external IPv4 ({@code accessConfigs[0].natIP}), if any. */
  public Optional<String> natIp() {
    return Optional.ofNullable(natIp);
  }

  /** nic0's IPv6 address ({@code ipv6Address}), if any. */
  public Optional<String> ipv6() {
    return Optional.ofNullable(ipv6);
  }

  /** The internal IPs of nic1, nic2, … */
  public List<String> otherNicIps() {
    return otherNicIps;
  }

  /** When it was created, with the UTC offset the API writes. */
  public OffsetDateTime creationTimestamp() {
    return creationTimestamp;
  }

  /** The attached accelerator type ({@code nvidia-tesla-t4}), or {@code null}. */
  public String acceleratorType() {
    return acceleratorType;
  }

  /** How many {@link #acceleratorType()} are attached ({@code guestAccelerators}). */
  public int acceleratorCount() {
    return acceleratorCount;
  }

  public Builder toBuilder() {
    Builder b = new Builder(name, id).zone(zone).machineType(machineType).status(status).networkIp(networkIp)
        .natIp(natIp).ipv6(ipv6).creationTimestamp(creationTimestamp)
        .guestAccelerators(acceleratorType, acceleratorCount);
    b.labels.putAll(labels);
    b.otherNicIps.addAll(otherNicIps);
    return b;
  }

  @Override
  public String toString() {
    return "SimulatedGceInstance{" + name + " (" + idText() + ") in " + zone + ", " + status + "}";
  }

  /** Builds a {@link SimulatedGceInstance}. */
  public static final class Builder {
    private final String name;
    private final long id;
    private String zone = "us-central1-a";
    private String machineType = "n2-standard-4";
    private String status = "RUNNING";
    private final Map<String, String> labels = new LinkedHashMap<>();
    private String networkIp;
    private String natIp;
    private String ipv6;
    private final List<String> otherNicIps = new ArrayList<>();
    private OffsetDateTime creationTimestamp = OffsetDateTime.of(2026, 1, 5, 0, 0, 0, 0, ZoneOffset.UTC);
    private String acceleratorType;
    private int acceleratorCount;

    private Builder(String name, long id) {
      this.name = Objects.requireNonNull(name, "name");
      this.id = id;
    }

    public Builder zone(String zone) {
      this.zone = Objects.requireNonNull(zone);
      return this;
    }

    public Builder machineType(String machineType) {
      this.machineType = Objects.requireNonNull(machineType);
      return this;
    }

    public Builder status(String status) {
      this.status = Objects.requireNonNull(status);
      return this;
    }

    public Builder label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    /** nic0's internal IPv4; {@code null} for an IPv6-only instance. */
    public Builder networkIp(String ip) {
      this.networkIp = ip;
      return this;
    }

    public Builder natIp(String ip) {
      this.natIp = ip;
      return this;
    }

    public Builder ipv6(String ip) {
      this.ipv6 = ip;
      return this;
    }

    /** Adds a network interface after nic0 with this internal IP. */
    public Builder otherNic(String ip) {
      otherNicIps.add(ip);
      return this;
    }

    public Builder creationTimestamp(OffsetDateTime created) {
      this.creationTimestamp = Objects.requireNonNull(created);
      return this;
    }

    /** Attached GPUs ({@code guestAccelerators}); {@code null} or 0 for none. */
    public Builder guestAccelerators(String type, int count) {
      this.acceleratorType = count > 0 ? type : null;
      this.acceleratorCount = type == null ? 0 : count;
      return this;
    }

    public SimulatedGceInstance build() {
      return new SimulatedGceInstance(this);
    }
  }
}
