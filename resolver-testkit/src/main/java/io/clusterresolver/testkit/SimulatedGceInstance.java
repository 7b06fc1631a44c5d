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
 * Immutable: change one with {@link SimulatedGce#update} and {@link #toBuilder()}. Two instances with the same
 * values are equal.
 *
 * @param name the instance's name
 * @param id the numeric id (an unsigned 64-bit value)
 * @param zone the zone, such as {@code us-central1-a}
 * @param machineType the machine type, such as {@code n2-standard-4}
 * @param status {@code RUNNING}, {@code STOPPED}, {@code TERMINATED}, …
 * @param labels the instance's labels
 * @param networkIp nic0's internal IPv4 ({@code networkIP}), if any (an IPv6-only instance has none)
 * @param natIp nic0's external IPv4 ({@code accessConfigs[0].natIP}), if any
 * @param ipv6 nic0's IPv6 address ({@code ipv6Address}), if any
 * @param otherNicIps the internal IPs of nic1, nic2, …
 * @param creationTimestamp when it was created, with the UTC offset the API writes
 * @param acceleratorType the attached accelerator type ({@code nvidia-tesla-t4}), or {@code null}
 * @param acceleratorCount how many {@link #acceleratorType()} are attached ({@code guestAccelerators})
 */
public record SimulatedGceInstance(
    String name,
    long id,
    String zone,
    String machineType,
    String status,
    Map<String, String> labels,
    Optional<String> networkIp,
    Optional<String> natIp,
    Optional<String> ipv6,
    List<String> otherNicIps,
    OffsetDateTime creationTimestamp,
    String acceleratorType,
    int acceleratorCount) {

  /** Validates the values and keeps unmodifiable copies of the labels and NIC addresses. */
  public SimulatedGceInstance {
    Objects.requireNonNull(name, "name");
    labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    otherNicIps = List.copyOf(otherNicIps);
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

  /** The id as the API writes it (decimal, unsigned). */
  public String idText() {
    return Long.toUnsignedString(id);
  }

  /** A builder with this instance's values. */
  public Builder toBuilder() {
    Builder b = new Builder(name, id).zone(zone).machineType(machineType).status(status)
        .networkIp(networkIp.orElse(null)).natIp(natIp.orElse(null)).ipv6(ipv6.orElse(null))
        .creationTimestamp(creationTimestamp)
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
      return new SimulatedGceInstance(name, id, zone, machineType, status, labels, Optional.ofNullable(networkIp),
          Optional.ofNullable(natIp), Optional.ofNullable(ipv6), otherNicIps, creationTimestamp, acceleratorType,
          acceleratorCount);
    }
  }
}
