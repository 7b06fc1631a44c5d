package io.clusterresolver.testkit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * One virtual machine of a {@link SimulatedAzure}: a standalone VM, a member of a Flexible scale set,
 * or an instance of a Uniform scale set ({@link Builder#scaleSet} and {@link Builder#instanceId}).
 * Immutable; {@link #toBuilder()} derives a changed copy.
 */
public final class SimulatedVm {

  /** When {@link #typical(int) typical} VM 0 was created; VM i is i seconds younger. */
  public static final Instant TYPICAL_EPOCH = Instant.parse("2026-03-01T08:00:00Z");

  /** One network interface of the VM. */
  public record Nic(String name, String privateIp, String publicIp, boolean primary) {
    /** Validates the name. */
    public Nic {
      Objects.requireNonNull(name, "name");
    }
  }

  private final String name;
  private final String resourceGroup;
  private final String location;
  private final String size;
  private final Map<String, String> tags;
  private final Instant timeCreated;
  private final String powerState;
  private final String provisioningState;
  private final List<Nic> nics;
  private final String scaleSet;
  private final String instanceId;
  private final String vmId;

  private SimulatedVm(Builder b) {
    this.name = b.name;
    this.resourceGroup = b.resourceGroup;
    this.location = b.location;
    this.size = b.size;
    this.tags = Collections.unmodifiableMap(new LinkedHashMap<>(b.tags));
    this.timeCreated = b.timeCreated;
    this.powerState = b.powerState;
    this.provisioningState = b.provisioningState;
    this.nics = List.copyOf(b.nics);
    this.scaleSet = b.scaleSet;
    this.instanceId = b.instanceId;
    this.vmId = b.vmId;
  }

  /** A builder with defaults: resource group {@code cluster-rg}, {@code eastus}, {@code Standard_D4s_v3}, running. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * A running VM {@code vm-NNNN} created {@code i} seconds after {@link #TYPICAL_EPOCH}, with one
   * NIC {@code vm-NNNN-nic} at {@code 10.1.x.y} (and public IP {@code 20.1.x.y}).
   */
  public static Builder typical(int i) {
    String name = String.format("vm-%04d", i);
    return builder(name)
        .timeCreated(TYPICAL_EPOCH.plusSeconds(i))
        .vmId(new UUID(0x5eed_0000_0000_0000L, i).toString())
        .nic(new Nic(name + "-nic", "10.1." + (i / 250) + "." + (i % 250 + 4), "20.1." + (i / 250) + "." + (i % 250 + 4), true));
  }

  public String name() {
    return name;
  }

  /** The resource group as the VM's id spells it (ARM may spell it in other cases elsewhere). */
  public String resourceGroup() {
    return resourceGroup;
  }

  public String location() {
    return location;
  }

  /** The VM size ({@code hardwareProfile.vmSize}, or the scale set SKU of a Uniform instance). */
  public String size() {
    return size;
  }

  public Map<String, String> tags() {
    return tags;
  }

  public Instant timeCreated() {
    return timeCreated;
  }

  /** The power state's code suffix: {@code running}, {@code stopped}, {@code deallocated}, … */
  public String powerState() {
    return powerState;
  }

  /** {@code Succeeded}, {@code Updating}, {@code Failed}, … */
  public String provisioningState() {
    return provisioningState;
  }

  public List<Nic> nics() {
    return nics;
  }

  /** The scale set it belongs to, or {@code null}. */
  public String scaleSet() {
    return scaleSet;
  }

  /** A Uniform instance's id ({@code 0}, {@code 1}, …), or {@code null}. */
  public String instanceId() {
    return instanceId;
  }

  public String vmId() {
    return vmId;
  }

  /** The primary NIC (the one flagged primary, else the first), or {@code null}. */
  public Nic primaryNic() {
    for (Nic n : nics) {
      if (n.primary()) {
        return n;
      }
    }
    return nics.isEmpty() ? null : nics.get(0);
  }

  public Builder toBuilder() {
    Builder b = new Builder(name).resourceGroup(resourceGroup).location(location).size(size).timeCreated(timeCreated)
        .powerState(powerState).provisioningState(provisioningState).scaleSet(scaleSet).instanceId(instanceId)
        .vmId(vmId);
    b.tags.putAll(tags);
    b.nics.addAll(nics);
    return b;
  }

  @Override
  public String toString() {
    return "SimulatedVm{" + resourceGroup + "/" + name + ", " + powerState + ", " + provisioningState + "}";
  }

  /** Builds a {@link SimulatedVm}. */
  public static final class Builder {
    private final String name;
    private String resourceGroup = "cluster-rg";
    private String location = "eastus";
    private String size = "Standard_D4s_v3";
    private final Map<String, String> tags = new LinkedHashMap<>();
    private Instant timeCreated = TYPICAL_EPOCH;
    private String powerState = "running";
    private String provisioningState = "Succeeded";
    private final List<Nic> nics = new ArrayList<>();
    private String scaleSet;
    private String instanceId;
    private String vmId;

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
      this.vmId = UUID.nameUUIDFromBytes(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
    }

    public Builder resourceGroup(String resourceGroup) {
      this.resourceGroup = Objects.requireNonNull(resourceGroup);
      return this;
    }

    public Builder location(String location) {
      this.location = Objects.requireNonNull(location);
      return this;
    }

    public Builder size(String size) {
      this.size = Objects.requireNonNull(size);
      return this;
    }

    public Builder tag(String key, String value) {
      tags.put(key, value);
      return this;
    }

    public Builder clearTags() {
      tags.clear();
      return this;
    }

    public Builder timeCreated(Instant timeCreated) {
      this.timeCreated = timeCreated;
      return this;
    }

    /** {@code running}, {@code stopped}, {@code deallocated}, {@code starting}, {@code stopping}, {@code deallocating}. */
    public Builder powerState(String powerState) {
      this.powerState = Objects.requireNonNull(powerState);
      return this;
    }

    public Builder provisioningState(String provisioningState) {
      this.provisioningState = Objects.requireNonNull(provisioningState);
      return this;
    }

    public Builder nic(Nic nic) {
      nics.add(nic);
      return this;
    }

    public Builder clearNics() {
      nics.clear();
      return this;
    }

    public Builder scaleSet(String scaleSet) {
      this.scaleSet = scaleSet;
      return this;
    }

    public Builder instanceId(String instanceId) {
      this.instanceId = instanceId;
      return this;
    }

    public Builder vmId(String vmId) {
      this.vmId = Objects.requireNonNull(vmId);
      return this;
    }

    public SimulatedVm build() {
      return new SimulatedVm(this);
    }
  }
}
