package io.clusterresolver.cloud;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * One machine a cloud provider found: a VM, an instance, a TPU worker. Immutable.
 *
 * <p>A member carries what {@link ClusterLayout} needs to place tasks on it: a stable {@link #id()},
 * the {@link #address()} its tasks listen on (a host name or an IP literal, without port), its
 * {@link #creationTime()} and {@link #name()} for ordering, its {@link #labels()} (tags) for job
 * names and ordering, and its {@link #accelerators()} by device type. A member may also say its own
 * {@link #port()} (a pod's named container port, a TPU worker's API port), which its tasks listen on
 * instead of the layout's, and its {@link #ordinal()} within its group (a StatefulSet ordinal, an
 * Indexed Job completion index, a TPU worker id), which orders members and can be their task index.
 */
public final class Member {

  private final String id;
  private final String address;
  private final Instant creationTime;
  private final String name;
  private final Map<String, String> labels;
  private final Map<String, Integer> accelerators;
  private final Integer port;
  private final Integer ordinal;

  private Member(Builder b) {
    this.id = b.id;
    this.address = b.address;
    this.creationTime = b.creationTime;
    this.name = b.name;
    this.labels = Collections.unmodifiableMap(new LinkedHashMap<>(b.labels));
    this.accelerators = Collections.unmodifiableMap(new TreeMap<>(b.accelerators));
    this.port = b.port;
    this.ordinal = b.ordinal;
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

  /**
   * The port this member's first task listens on, when the member says it (a pod's named container
   * port); empty when its tasks take the layout's {@linkplain ClusterLayout#port() port}.
   */
  public OptionalInt port() {
    return port == null ? OptionalInt.empty() : OptionalInt.of(port);
  }

  /**
   * The member's position in its group, when it has one: a StatefulSet ordinal, an Indexed Job
   * completion index, a TPU worker id. Members with one come first in a layout, by ordinal; with
   * {@link ClusterLayout.Builder#indexByOrdinal()} it is the task index.
   */
  public OptionalInt ordinal() {
    return ordinal == null ? OptionalInt.empty() : OptionalInt.of(ordinal);
  }

  /** A builder with this member's values, to derive a changed copy. */
  public Builder toBuilder() {
    Builder b = new Builder(id, address).creationTime(creationTime).name(name);
    b.labels.putAll(labels);
    b.accelerators.putAll(accelerators);
    b.port = port;
    b.ordinal = ordinal;
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
        && labels.equals(other.labels) && accelerators.equals(other.accelerators)
        && Objects.equals(port, other.port) && Objects.equals(ordinal, other.ordinal);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, address, creationTime, name, labels, accelerators, port, ordinal);
  }

  @Override
  public String toString() {
    return "Member{" + id + " at " + address + (port == null ? "" : ", port " + port)
        + (ordinal == null ? "" : ", ordinal " + ordinal) + (name == null ? "" : ", name " + name)
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
    private Integer port;
    private Integer ordinal;

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

    /**
     * The port this member's first task listens on, instead of the layout's; task {@code i} on it
     * listens on {@code port + i}.
     *
     * @throws IllegalArgumentException when it is not between 1 and 65535
     */
    public Builder port(int port) {
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("Port " + port + " of member " + id + " is not between 1 and 65535");
      }
      this.port = port;
      return this;
    }

    /**
     * The member's position in its group (a StatefulSet ordinal, a completion index, a worker id).
     *
     * @throws IllegalArgumentException when it is negative
     */
    public Builder ordinal(int ordinal) {
      if (ordinal < 0) {
        throw new IllegalArgumentException("Ordinal of member " + id + " is negative: " + ordinal);
      }
      this.ordinal = ordinal;
      return this;
    }

    public Member build() {
      return new Member(this);
    }
  }
}
