package io.clusterresolver.testkit;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The Azure Instance Metadata Service of a {@link SimulatedAzure}: {@code /metadata/instance/compute}
 * and {@code /metadata/instance}, only with {@code Metadata: true} and an {@code api-version};
 * 404 when no VM is "this" one. Its faults are the simulation's ({@link SimulatedAzure#IMDS}).
 */
final class AzureImds {

  private final Supplier<List<SimulatedVm>> vms;
  private final Supplier<String> self;
  private final Function<SimulatedVm, String> resourceId;
  private final String subscription;

  AzureImds(Supplier<List<SimulatedVm>> vms, Supplier<String> self, Function<SimulatedVm, String> resourceId,
      String subscription) {
    this.vms = vms;
    this.self = self;
    this.resourceId = resourceId;
    this.subscription = subscription;
  }

  ResponseDefinition answer(String path, Map<String, String> headers, Map<String, String> params) {
    if (!"true".equalsIgnoreCase(headers.get("metadata"))) {
      return ArmWire.plainJson(400, "{\"error\":\"Bad request. Required metadata header not specified\"}");
    }
    if (params.get("api-version") == null) {
      return ArmWire.plainJson(400, "{\"error\":\"Bad request. api-version was not specified in the request. For more information"
          + " refer to aka.ms/azureimds\",\"newest-versions\":[\"2023-07-01\",\"2021-12-13\",\"2021-02-01\"]}");
    }
    String id = self.get();
    SimulatedVm me = null;
    if (id != null) {
      for (SimulatedVm vm : vms.get()) {
        if (resourceId.apply(vm).equalsIgnoreCase(id)) {
          me = vm;
        }
      }
    }
    if (me == null) {
      return ArmWire.plainJson(404, "{\"error\":\"Not found\"}");
    }
    String compute = "{\"azEnvironment\":\"AzurePublicCloud\",\"location\":" + ArmJson.q(me.location())
        + ",\"name\":" + ArmJson.q(me.instanceId() != null ? me.scaleSet() + "_" + me.instanceId() : me.name())
        + ",\"osType\":\"Linux\",\"resourceGroupName\":" + ArmJson.q(me.resourceGroup())
        + ",\"resourceId\":" + ArmJson.q(resourceId.apply(me)) + ",\"subscriptionId\":" + ArmJson.q(subscription)
        + ",\"tags\":\"\",\"vmId\":" + ArmJson.q(me.vmId()) + ",\"vmScaleSetName\":" + ArmJson.q(me.scaleSet() == null ? "" : me.scaleSet())
        + ",\"vmSize\":" + ArmJson.q(me.size()) + ",\"zone\":\"\"}";
    switch (path.replaceAll("/+$", "")) {
      case "/metadata/instance/compute":
        return ArmWire.plainJson(200, compute);
      case "/metadata/instance":
        SimulatedVm.Nic nic = me.primaryNic();
        return ArmWire.plainJson(200, "{\"compute\":" + compute + ",\"network\":{\"interface\":[{\"ipv4\":{\"ipAddress\":[{\"privateIpAddress\":"
            + ArmJson.q(nic == null ? "" : nic.privateIp()) + ",\"publicIpAddress\":" + ArmJson.q(nic == null || nic.publicIp() == null
                ? "" : nic.publicIp()) + "}]}}]}}");
      default:
        return ArmWire.plainJson(404, "{\"error\":\"Not found\"}");
    }
  }
}
