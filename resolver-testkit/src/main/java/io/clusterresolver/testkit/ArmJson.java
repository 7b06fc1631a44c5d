package io.clusterresolver.testkit;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Azure Resource Manager's JSON for the simulated resources (field names as in the Compute and
 * Network REST API references) and ARM's error shape {@code {"error":{"code","message"}}}.
 */
final class ArmJson {

  private ArmJson() {}

  static String q(String s) {
    return Json.quote(s);
  }

  static String error(String code, String message) {
    return "{\"error\":{\"code\":" + q(code) + ",\"message\":" + q(message) + "}}";
  }

  static String tags(Map<String, String> tags) {
    StringBuilder b = new StringBuilder("{");
    tags.forEach((k, v) -> b.append(b.length() > 1 ? "," : "").append(q(k)).append(':').append(q(v)));
    return b.append('}').toString();
  }

  static String rg(String sub, String rg) {
    return "/subscriptions/" + sub + "/resourceGroups/" + rg;
  }

  static String vmId(String sub, SimulatedVm vm, String scaleSetRg) {
    if (vm.instanceId() != null) {
      return rg(sub, scaleSetRg) + "/providers/Microsoft.Compute/virtualMachineScaleSets/" + vm.scaleSet()
          + "/virtualMachines/" + vm.instanceId();
    }
    return rg(sub, vm.resourceGroup()) + "/providers/Microsoft.Compute/virtualMachines/" + vm.name();
  }

  static String scaleSetId(String sub, String rg, String name) {
    return rg(sub, rg) + "/providers/Microsoft.Compute/virtualMachineScaleSets/" + name;
  }

  /** A NIC's id: a resource group's NIC, or a Uniform instance's NIC under the scale set. */
  static String nicId(String sub, SimulatedVm vm, SimulatedVm.Nic nic) {
    if (vm.instanceId() != null) {
      return rg(sub, vm.resourceGroup()) + "/providers/Microsoft.Compute/virtualMachineScaleSets/" + vm.scaleSet()
          + "/virtualMachines/" + vm.instanceId() + "/networkInterfaces/" + nic.name();
    }
    return rg(sub, vm.resourceGroup()) + "/providers/Microsoft.Network/networkInterfaces/" + nic.name();
  }

  static String publicIpId(String sub, SimulatedVm vm, SimulatedVm.Nic nic) {
    if (vm.instanceId() != null) {
      return rg(sub, vm.resourceGroup()) + "/providers/Microsoft.Compute/virtualMachineScaleSets/" + vm.scaleSet()
          + "/virtualMachines/" + vm.instanceId() + "/networkInterfaces/" + nic.name()
          + "/ipConfigurations/ipconfig1/publicIPAddresses/pip";
    }
    return rg(sub, vm.resourceGroup()) + "/providers/Microsoft.Network/publicIPAddresses/" + nic.name() + "-pip";
  }

  static String statuses(SimulatedVm vm) {
    String provisioning = vm.provisioningState();
    return "[{\"code\":\"ProvisioningState/" + provisioning.toLowerCase(Locale.ROOT) + "\",\"level\":\""
        + ("Failed".equals(provisioning) ? "Error" : "Info") + "\",\"displayStatus\":\"Provisioning "
        + provisioning.toLowerCase(Locale.ROOT) + "\",\"time\":\"" + vm.timeCreated() + "\"},"
        + "{\"code\":\"PowerState/" + vm.powerState() + "\",\"level\":\"Info\",\"displayStatus\":\"VM "
        + vm.powerState() + "\"}]";
  }

  static String instanceView(SimulatedVm vm) {
    return "{\"computerName\":" + q(vm.name()) + ",\"osName\":\"ubuntu\",\"osVersion\":\"22.04\","
        + "\"vmAgent\":{\"vmAgentVersion\":\"2.10.0.8\",\"statuses\":[{\"code\":\"ProvisioningState/succeeded\","
        + "\"level\":\"Info\",\"displayStatus\":\"Ready\",\"message\":\"Guest Agent is running\"}]},"
        + "\"hyperVGeneration\":\"V2\",\"statuses\":" + statuses(vm) + "}";
  }

  /** A VM as {@code Virtual Machines - List} gives it, with its instance view or not. */
  static String vm(String sub, SimulatedVm vm, String scaleSetId, boolean withInstanceView) {
    StringBuilder b = new StringBuilder(1400);
    b.append("{\"name\":").append(q(vm.name())).append(",\"id\":").append(q(vmId(sub, vm, null)))
        .append(",\"type\":\"Microsoft.Compute/virtualMachines\",\"location\":").append(q(vm.location()))
        .append(",\"tags\":").append(tags(vm.tags()))
        .append(",\"properties\":{\"vmId\":").append(q(vm.vmId()))
        .append(",\"hardwareProfile\":{\"vmSize\":").append(q(vm.size())).append('}')
        .append(",\"storageProfile\":{\"imageReference\":{\"publisher\":\"Canonical\",\"offer\":\"0001-com-ubuntu-server-jammy\","
            + "\"sku\":\"22_04-lts-gen2\",\"version\":\"latest\"},\"osDisk\":{\"osType\":\"Linux\",\"name\":")
        .append(q(vm.name() + "_OsDisk")).append(",\"createOption\":\"FromImage\",\"caching\":\"ReadWrite\","
            + "\"managedDisk\":{\"storageAccountType\":\"Premium_LRS\"},\"diskSizeGB\":30},\"dataDisks\":[]}")
        .append(",\"osProfile\":{\"computerName\":").append(q(vm.name())).append(",\"adminUsername\":\"azureuser\","
            + "\"linuxConfiguration\":{\"disablePasswordAuthentication\":true}}")
        .append(",\"networkProfile\":{\"networkInterfaces\":[");
    List<SimulatedVm.Nic> nics = vm.nics();
    for (int i = 0; i < nics.size(); i++) {
      SimulatedVm.Nic nic = nics.get(i);
      b.append(i > 0 ? "," : "").append("{\"id\":").append(q(nicId(sub, vm, nic)))
          .append(",\"properties\":{\"primary\":").append(nic == vm.primaryNic()).append("}}");
    }
    b.append("]}");
    if (scaleSetId != null) {
      b.append(",\"virtualMachineScaleSet\":{\"id\":").append(q(scaleSetId)).append('}');
    }
    b.append(",\"provisioningState\":").append(q(vm.provisioningState()))
        .append(",\"timeCreated\":").append(q(time(vm.timeCreated())));
    if (withInstanceView) {
      b.append(",\"instanceView\":").append(instanceView(vm));
    }
    return b.append("}}").toString();
  }

  /** A Uniform instance as {@code Virtual Machine Scale Set VMs - List} gives it. */
  static String scaleSetVm(String sub, SimulatedVm vm, boolean withInstanceView) {
    StringBuilder b = new StringBuilder(1200);
    b.append("{\"name\":").append(q(vm.scaleSet() + "_" + vm.instanceId())).append(",\"id\":")
        .append(q(vmId(sub, vm, vm.resourceGroup()))).append(",\"type\":\"Microsoft.Compute/virtualMachineScaleSets/virtualMachines\"")
        .append(",\"location\":").append(q(vm.location())).append(",\"tags\":").append(tags(vm.tags()))
        .append(",\"instanceId\":").append(q(vm.instanceId()))
        .append(",\"sku\":{\"name\":").append(q(vm.size())).append(",\"tier\":\"Standard\"}")
        .append(",\"properties\":{\"latestModelApplied\":true,\"vmId\":").append(q(vm.vmId()))
        .append(",\"hardwareProfile\":{},\"networkProfile\":{\"networkInterfaces\":[");
    List<SimulatedVm.Nic> nics = vm.nics();
    for (int i = 0; i < nics.size(); i++) {
      b.append(i > 0 ? "," : "").append("{\"id\":").append(q(nicId(sub, vm, nics.get(i)))).append('}');
    }
    b.append("]},\"provisioningState\":").append(q(vm.provisioningState()))
        .append(",\"timeCreated\":").append(q(time(vm.timeCreated())));
    if (withInstanceView) {
      b.append(",\"instanceView\":{\"platformUpdateDomain\":0,\"platformFaultDomain\":0,\"computerName\":")
          .append(q(vm.name())).append(",\"statuses\":").append(statuses(vm)).append('}');
    }
    return b.append("}}").toString();
  }

  /**
   * A NIC as {@code Network Interfaces - List} gives it; {@code vmIdAsListed} is the VM's id as this
   * listing spells it (ARM returns resource groups in other cases here).
   */
  static String nic(String sub, SimulatedVm vm, SimulatedVm.Nic nic, String vmIdAsListed) {
    String id = nicId(sub, vm, nic);
    StringBuilder b = new StringBuilder(900);
    b.append("{\"name\":").append(q(nic.name())).append(",\"id\":").append(q(id))
        .append(",\"type\":\"Microsoft.Network/networkInterfaces\",\"location\":").append(q(vm.location()))
        .append(",\"properties\":{\"provisioningState\":\"Succeeded\",\"ipConfigurations\":[{\"name\":\"ipconfig1\",\"id\":")
        .append(q(id + "/ipConfigurations/ipconfig1"))
        .append(",\"properties\":{\"provisioningState\":\"Succeeded\",\"privateIPAddress\":").append(q(nic.privateIp()))
        .append(",\"privateIPAllocationMethod\":\"Dynamic\",\"privateIPAddressVersion\":\"IPv4\"");
    if (nic.publicIp() != null) {
      b.append(",\"publicIPAddress\":{\"id\":").append(q(publicIpId(sub, vm, nic))).append('}');
    }
    b.append(",\"subnet\":{\"id\":").append(q(rg(sub, vm.resourceGroup()) + "/providers/Microsoft.Network/virtualNetworks/vnet/subnets/default"))
        .append("},\"primary\":true}}],\"dnsSettings\":{\"dnsServers\":[],\"appliedDnsServers\":[]},")
        .append("\"macAddress\":\"00-0D-3A-00-00-01\",\"enableAcceleratedNetworking\":true,\"primary\":")
        .append(nic == vm.primaryNic()).append(",\"virtualMachine\":{\"id\":").append(q(vmIdAsListed)).append("}}}");
    return b.toString();
  }

  static String publicIp(String sub, SimulatedVm vm, SimulatedVm.Nic nic) {
    String id = publicIpId(sub, vm, nic);
    return "{\"name\":" + q(nic.name() + "-pip") + ",\"id\":" + q(id) + ",\"type\":\"Microsoft.Network/publicIPAddresses\","
        + "\"location\":" + q(vm.location()) + ",\"sku\":{\"name\":\"Standard\",\"tier\":\"Regional\"},"
        + "\"properties\":{\"provisioningState\":\"Succeeded\",\"ipAddress\":" + q(nic.publicIp())
        + ",\"publicIPAddressVersion\":\"IPv4\",\"publicIPAllocationMethod\":\"Static\",\"idleTimeoutInMinutes\":4,"
        + "\"ipConfiguration\":{\"id\":" + q(nicId(sub, vm, nic) + "/ipConfigurations/ipconfig1") + "}}}";
  }

  static String scaleSet(String sub, SimulatedAzure.ScaleSet set, int capacity) {
    return "{\"name\":" + q(set.name()) + ",\"id\":" + q(scaleSetId(sub, set.resourceGroup(), set.name()))
        + ",\"type\":\"Microsoft.Compute/virtualMachineScaleSets\",\"location\":" + q(set.location())
        + ",\"sku\":{\"name\":" + q(set.size()) + ",\"tier\":\"Standard\",\"capacity\":" + capacity + "},"
        + "\"properties\":{\"orchestrationMode\":" + q(set.uniform() ? "Uniform" : "Flexible")
        + ",\"provisioningState\":\"Succeeded\",\"uniqueId\":\"" + java.util.UUID.nameUUIDFromBytes(set.name().getBytes(
            java.nio.charset.StandardCharsets.UTF_8)) + "\",\"platformFaultDomainCount\":1"
        + (set.uniform() ? ",\"upgradePolicy\":{\"mode\":\"Manual\"},\"overprovision\":false" : "") + "}}";
  }

  static String sku(String name, String location, int gpus) {
    return "{\"resourceType\":\"virtualMachines\",\"name\":" + q(name) + ",\"tier\":\"Standard\",\"size\":"
        + q(name.replaceFirst("^Standard_", "")) + ",\"family\":\"standardFamily\",\"locations\":[" + q(location)
        + "],\"locationInfo\":[{\"location\":" + q(location) + ",\"zones\":[\"1\",\"2\",\"3\"],\"zoneDetails\":[]}],"
        + "\"capabilities\":[{\"name\":\"vCPUs\",\"value\":\"8\"},{\"name\":\"MemoryGB\",\"value\":\"32\"}"
        + (gpus > 0 ? ",{\"name\":\"GPUs\",\"value\":\"" + gpus + "\"}" : "") + "],\"restrictions\":[]}";
  }

  static String time(Instant t) {
    return t.toString().replace("Z", "+00:00");
  }
}
