package io.clusterresolver.testkit;

import java.util.Locale;

/**
 * One Resource Manager request of {@link SimulatedAzure}, parsed from its path (compared ignoring
 * case, as ARM does): the operation, its resource group, scale set and resource name.
 */
record ArmRoute(String operation, String resourceGroup, String scaleSet, String name) {

  /** Routes a path, compared ignoring case like ARM; {@code null} when no operation has this path. */
  static ArmRoute parse(String method, String path) {
    String[] s = path.replaceAll("/+$", "").split("/");
    // s[0] is "", s[1] "subscriptions", s[2] the subscription
    if (s.length < 5 || !s[1].equalsIgnoreCase("subscriptions") || !"GET".equals(method)) {
      return null;
    }
    int i = 3;
    String rg = null;
    if (s[i].equalsIgnoreCase("resourceGroups") && s.length > i + 1) {
      rg = s[i + 1];
      i += 2;
    }
    if (s.length < i + 3 || !s[i].equalsIgnoreCase("providers")) {
      return null;
    }
    String namespace = s[i + 1].toLowerCase(Locale.ROOT);
    String type = s[i + 2].toLowerCase(Locale.ROOT);
    int rest = s.length - (i + 3);
    String name = rest >= 1 ? s[i + 3] : null;
    String sub = rest >= 2 ? s[i + 4].toLowerCase(Locale.ROOT) : null;
    switch (namespace + "/" + type) {
      case "microsoft.compute/virtualmachines":
        if (rest == 0) {
          return new ArmRoute("ListVirtualMachines", rg, null, null);
        }
        if (rg != null && rest == 1) {
          return new ArmRoute("GetVirtualMachine", rg, null, name);
        }
        if (rg != null && rest == 2 && "instanceview".equals(sub)) {
          return new ArmRoute("GetVirtualMachineInstanceView", rg, null, name);
        }
        return null;
      case "microsoft.compute/virtualmachinescalesets":
        if (rg == null || rest == 0) {
          return null;
        }
        if (rest == 1) {
          return new ArmRoute("GetVirtualMachineScaleSet", rg, name, null);
        }
        if (rest == 2 && "virtualmachines".equals(sub)) {
          return new ArmRoute("ListVirtualMachineScaleSetVMs", rg, name, null);
        }
        if (rest == 2 && "networkinterfaces".equals(sub)) {
          return new ArmRoute("ListVirtualMachineScaleSetNetworkInterfaces", rg, name, null);
        }
        if (rest == 2 && "publicipaddresses".equals(sub)) {
          return new ArmRoute("ListVirtualMachineScaleSetPublicIPAddresses", rg, name, null);
        }
        return null;
      case "microsoft.network/networkinterfaces":
        return rest == 0 ? new ArmRoute("ListNetworkInterfaces", rg, null, null)
            : rest == 1 && rg != null ? new ArmRoute("GetNetworkInterface", rg, null, name) : null;
      case "microsoft.network/publicipaddresses":
        return rest == 0 ? new ArmRoute("ListPublicIPAddresses", rg, null, null)
            : rest == 1 && rg != null ? new ArmRoute("GetPublicIPAddress", rg, null, name) : null;
      case "microsoft.compute/skus":
        return rg == null && rest == 0 ? new ArmRoute("ListResourceSkus", null, null, null) : null;
      default:
        return null;
    }
  }
}
