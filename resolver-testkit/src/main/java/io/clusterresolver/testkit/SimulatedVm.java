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
 * Immutable; {@link #toBuilder()} derives a changed copy. Two VMs with the same values are equal.
 *
 * @param name the VM's name
 * @param resourceGroup the resource group as the VM's id spells it (ARM may spell it in other cases elsewhere)
 * @param location the region, such as {@code eastus}
 * @param size the VM size ({@code hardwareProfile.vmSize}, or the scale set SKU of a Uniform instance)
 * @param tags the VM's tags
 * @param timeCreated when it was created
 * @param powerState the power state's code suffix: {@code running}, {@code stopped}, {@code deallocated}, …
 * @param provisioningState {@code Succeeded}, {@code Updating}, {@code Failed}, …
 * @param nics its network interfaces
 * @param scaleSet the scale set it belongs to, or {@code null}
 * @param instanceId a Uniform instance's id ({@code 0}, {@code 1}, …), or {@code null}
 * @param vmId the VM's unique id ({@code properties.vmId})
 */
public record SimulatedVm(
    String name,
    String resourceGroup,
    String location,
    String size,
    Map<String, String> tags,
    Instant timeCreated,
    String powerState,
    String provisioningState,
    List<Nic> nics,
    String scaleSet,
    String instanceId,
    String vmId) {

  /** When {@link #typical(int) typical} VM 0 was created; VM i is i seconds younger. */
  public static final Instant TYPICAL_EPOCH = Instant.parse("2026-03-01T08:00:00Z");

  /** One network interface of the VM. */
  public record Nic(String name, String privateIp, String publicIp, boolean primary) {
    /** Validates the name. */
    public Nic {
      Objects.requireNonNull(name, "name");
    }
  }

  /** Validates the values and keeps unmodifiable copies of the tags and NICs. */
  public SimulatedVm {
    Objects.requireNonNull(name, "name");
    tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    nics = List.copyOf(nics);
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
      return new SimulatedVm(name, resourceGroup, location, size, tags, timeCreated, powerState, provisioningState, nics,
          scaleSet, instanceId, vmId);
    }
  }
}
