package io.clusterresolver.cloud;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One machine a cloud provider found: a VM, an instance, a TPU worker. Immutable.
 *
 * <p>A member carries what {@link ClusterLayout} needs to place tasks on it: a stable {@link #id()},
 * the {@link #address()} its tasks listen on (a host name or an IP literal, without port), its
 * {@link #creationTime()} and {@link #name()} for ordering, its {@link #labels()} (tags) for job
 * names and ordering, and its {@link #accelerators()} by device type.
 */
public final class Member {

  private final String id;
  private final String address;
  private final Instant creationTime;
  private final String name;
  private final Map<String, String> labels;
  private final Map<String, Integer> accelerators;

  private Member(Builder b) {
    this.id = b.id;
    this.address = b.address;
    this.creationTime = b.creationTime;
    this.name = b.name;
    this.labels = Collections.unmodifiableMap(new LinkedHashMap<>(b.labels));
    this.accelerators = Collections.unmodifiableMap(new TreeMap<>(b.accelerators));
  }

  /**
   * A builder for a member.
   *
   * @param id the cloud's stable identifier (an instance id, a VM resource id)
   * @param address the host name or IP literal its tasks listen on, without port
   */
  public static Builder builder(String id, String address) {
    return new Builder(id, address);
  }

  /** The cloud's stable identifier, unique among members. */
  public String id() {
    return id;
  }

  /** The host name or IP literal tasks on this member listen on, without port. */
  public String address() {
    return address;
  }

  /** When the machine was created or launched, if known. */
  public Optional<Instant> creationTime() {
    return Optional.ofNullable(creationTime);
  }

  /** A human-given name, if any (a VM name, the {@code Name} tag). */
  public Optional<String> name() {
    return Optional.ofNullable(name);
  }

  /** Labels or tags, in the order the cloud gave them. */
  public Map<String, String> labels() {
    return labels;
  }

  /** Accelerators of the whole machine by device type ({@code GPU}, {@code TPU}, …); empty when none. */
  public Map<String, Integer> accelerators() {
    return accelerators;
  }

  /** A builder with this member's values, to derive a changed copy. */
  public Builder toBuilder() {
    Builder b = new Builder(id, address).creationTime(creationTime).name(name);
    b.labels.putAll(labels);
    b.accelerators.putAll(accelerators);
    return b;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Member)) {
      return false;
    }
    Member other = (Member) o;
    return id.equals(other.id) && address.equals(other.address)
        && Objects.equals(creationTime, other.creationTime) && Objects.equals(name, other.name)
        && labels.equals(other.labels) && accelerators.equals(other.accelerators);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, address, creationTime, name, labels, accelerators);
  }

  @Override
  public String toString() {
    return "Member{" + id + " at " + address + (name == null ? "" : ", name " + name)
        + (creationTime == null ? "" : ", created " + creationTime)
        + (accelerators.isEmpty() ? "" : ", accelerators " + accelerators) + "}";
  }

  /** Builds a {@link Member}. Not thread-safe. */
  public static final class Builder {
    private final String id;
    private final String address;
    private Instant creationTime;
    private String name;
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, Integer> accelerators = new TreeMap<>();

    private Builder(String id, String address) {
      if (id == null || id.isEmpty()) {
        throw new IllegalArgumentException("Member id must not be null or empty");
      }
      if (address == null || address.isEmpty()) {
        throw new IllegalArgumentException("Address of member " + id + " must not be null or empty");
      }
      this.id = id;
      this.address = address;
    }

    public Builder creationTime(Instant creationTime) {
      this.creationTime = creationTime;
      return this;
    }

    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** Adds a label (tag). */
    public Builder label(String key, String value) {
      labels.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Adds labels (tags), keeping their order. */
    public Builder labels(Map<String, String> labels) {
      labels.forEach(this::label);
      return this;
    }

    /** Sets the number of accelerators of one device type; zero removes it. */
    public Builder accelerators(String deviceType, int count) {
      if (count < 0) {
        throw new IllegalArgumentException("Accelerator count of " + deviceType + " on member " + id + " is negative: " + count);
      }
      if (count == 0) {
        accelerators.remove(deviceType);
      } else {
        accelerators.put(Objects.requireNonNull(deviceType, "deviceType"), count);
      }
      return this;
    }

    /** Sets accelerators of several device types. */
    public Builder accelerators(Map<String, Integer> accelerators) {
      accelerators.forEach(this::accelerators);
      return this;
    }

    public Member build() {
      return new Member(this);
    }
  }
}
