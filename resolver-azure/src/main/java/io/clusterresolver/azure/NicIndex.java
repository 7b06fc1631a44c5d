package io.clusterresolver.azure;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The network interfaces of one NIC listing, for joining VMs to addresses without a call per VM:
 * by NIC id and by the VM id each NIC names, both in lower case (ARM spells the same resource group
 * in different cases in different listings). Not thread-safe: one per resolve.
 */
final class NicIndex {

  /** A NIC: whether it is its VM's primary one, and its primary IP configuration's addresses. */
  record Nic(String id, boolean primary, String privateIpv4, String publicIpId) {}

  private final Map<String, Nic> byNicId = new HashMap<>();
  private final Map<String, Nic> byVmId = new HashMap<>();

  /** Adds a listed NIC (one attached to no VM, or without IP configurations, is ignored). */
  void add(ArmResources.NetworkInterface nic) {
    if (nic.vmId() == null || nic.ipConfigurations() == null) {
      return;
    }
    ArmResources.IpConfiguration config = null;
    for (ArmResources.IpConfiguration c : nic.ipConfigurations()) {
      if (config == null || Boolean.TRUE.equals(c.primary())) {
        config = c;
      }
    }
    if (config == null) {
      return;
    }
    boolean ipv4 = config.privateIpVersion() == null || "IPv4".equalsIgnoreCase(config.privateIpVersion());
    Nic found = new Nic(lower(nic.id()), Boolean.TRUE.equals(nic.primary()), ipv4 ? config.privateIp() : null,
        lower(config.publicIpId()));
    byNicId.put(found.id(), found);
    String vm = lower(nic.vmId());
    Nic previous = byVmId.get(vm);
    if (previous == null || (found.primary() && !previous.primary())) {
      byVmId.put(vm, found);
    }
  }

  /**
   * A VM's primary NIC: the one its {@code primary} reference names ({@code primaryNicId}, lower
   * case, may be {@code null}), else the NIC flagged primary (or the only one) naming the VM.
   */
  Nic of(String vmId, String primaryNicId) {
    Nic named = primaryNicId == null ? null : byNicId.get(primaryNicId);
    return named != null ? named : byVmId.get(vmId);
  }

  private static String lower(String id) {
    return id == null ? null : id.toLowerCase(Locale.ROOT);
  }
}
