package io.clusterresolver.azure;

import static io.clusterresolver.azure.ArmJson.field;
import static io.clusterresolver.azure.ArmJson.list;
import static io.clusterresolver.azure.ArmJson.listField;
import static io.clusterresolver.azure.ArmJson.nullableBoolean;
import static io.clusterresolver.azure.ArmJson.object;
import static io.clusterresolver.azure.ArmJson.string;
import static io.clusterresolver.azure.ArmJson.stringField;
import static io.clusterresolver.azure.ArmJson.strings;

import com.azure.core.util.CoreUtils;
import com.fasterxml.jackson.core.JsonParser;
import io.clusterresolver.cloud.Rfc3339;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/**
 * What a resolve reads of the resources it lists, streamed from jackson-core's {@link JsonParser} into small
 * records, every other field skipped unread ({@link ArmJson}: each value read as azure-json's reader, which the
 * generated models use, reads it). The SDK's generated models build the whole of each resource instead (a VM with
 * its storage, OS and security profiles, agent and disk statuses: 85 model classes and a dozen objects per VM, for 9
 * fields). Field names, nesting and how each value is read ({@code getString}, {@code getNullable(getBoolean)},
 * {@link CoreUtils#parseBestOffsetDateTime}) are those of the generated {@code fromJson} of
 * azure-resourcemanager-compute 2.55 and -network 2.57; {@code ArmResourcesTest} compares both readings of the
 * simulation's pages. A {@code null} in a list is skipped (the models keep it as a {@code null} element).
 */
final class ArmResources {

  private ArmResources() {}

  /** A NIC as a VM names it: its id and whether it is the VM's primary one ({@code null}: not said). */
  record NicReference(String id, Boolean primary) {}

  /**
   * A VM of a VM listing ({@code VirtualMachineInner}).
   *
   * @param statuses the instance view's status codes, empty without an instance view
   * @param scaleSetId the scale set it belongs to (a Flexible one), or {@code null}
   */
  record Vm(String id, String name, String location, Map<String, String> tags, String size,
      List<NicReference> nics, Instant created, List<String> statuses, String scaleSetId) {

    static Vm read(JsonParser json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String id = null;
      String name = null;
      String location = null;
      Map<String, String> tags = null;
      String size = null;
      List<NicReference> nics = List.of();
      Instant created = null;
      List<String> statuses = List.of();
      String scaleSetId = null;
      for (String field = field(json); field != null; field = field(json)) {
        switch (field) {
          case "id" -> id = string(json);
          case "name" -> name = string(json);
          case "location" -> location = string(json);
          case "tags" -> tags = strings(json);
          case "properties" -> {
            if (!object(json)) {
              continue;
            }
            for (String p = field(json); p != null; p = field(json)) {
              switch (p) {
                case "hardwareProfile" -> size = stringField(json, "vmSize");
                case "networkProfile" -> nics = listField(json, "networkInterfaces", ArmResources::nicReference);
                case "timeCreated" -> created = instant(json);
                case "instanceView" -> statuses = listField(json, "statuses", ArmResources::statusCode);
                case "virtualMachineScaleSet" -> scaleSetId = stringField(json, "id");
                default -> json.skipChildren();
              }
            }
          }
          default -> json.skipChildren();
        }
      }
      return new Vm(id, name, location, tags, size, nics, created, statuses, scaleSetId);
    }
  }

  /** A VM of a Uniform scale set's VM listing ({@code VirtualMachineScaleSetVMInner}). */
  record ScaleSetVm(String id, String name, String location, Map<String, String> tags, String instanceId,
      String sku, Instant created, List<String> statuses) {

    static ScaleSetVm read(JsonParser json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String id = null;
      String name = null;
      String location = null;
      Map<String, String> tags = null;
      String instanceId = null;
      String sku = null;
      Instant created = null;
      List<String> statuses = List.of();
      for (String field = field(json); field != null; field = field(json)) {
        switch (field) {
          case "id" -> id = string(json);
          case "name" -> name = string(json);
          case "location" -> location = string(json);
          case "tags" -> tags = strings(json);
          case "instanceId" -> instanceId = string(json);
          case "sku" -> sku = stringField(json, "name");
          case "properties" -> {
            if (!object(json)) {
              continue;
            }
            for (String p = field(json); p != null; p = field(json)) {
              switch (p) {
                case "timeCreated" -> created = instant(json);
                case "instanceView" -> statuses = listField(json, "statuses", ArmResources::statusCode);
                default -> json.skipChildren();
              }
            }
          }
          default -> json.skipChildren();
        }
      }
      return new ScaleSetVm(id, name, location, tags, instanceId, sku, created, statuses);
    }
  }

  /** An IP configuration of a NIC: whether primary, its private address and version, its public IP's id. */
  record IpConfiguration(Boolean primary, String privateIp, String privateIpVersion, String publicIpId) {}

  /** A NIC of a network-interface listing ({@code NetworkInterfaceInner}); {@code vmId} is the VM it is attached to. */
  record NetworkInterface(String id, Boolean primary, String vmId, List<IpConfiguration> ipConfigurations) {

    static NetworkInterface read(JsonParser json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String id = null;
      Boolean primary = null;
      String vmId = null;
      List<IpConfiguration> configs = null;
      for (String field = field(json); field != null; field = field(json)) {
        switch (field) {
          case "id" -> id = string(json);
          case "properties" -> {
            if (!object(json)) {
              continue;
            }
            for (String p = field(json); p != null; p = field(json)) {
              switch (p) {
                case "primary" -> primary = nullableBoolean(json);
                case "virtualMachine" -> vmId = stringField(json, "id");
                case "ipConfigurations" -> configs = list(json, NetworkInterface::ipConfiguration);
                default -> json.skipChildren();
              }
            }
          }
          default -> json.skipChildren();
        }
      }
      return new NetworkInterface(id, primary, vmId, configs);
    }

    private static IpConfiguration ipConfiguration(JsonParser json) throws IOException {
      if (!object(json)) {
        return null;
      }
      Boolean primary = null;
      String privateIp = null;
      String version = null;
      String publicIpId = null;
      for (String field = field(json); field != null; field = field(json)) {
        if (!"properties".equals(field)) {
          json.skipChildren();
        } else if (object(json)) {
          for (String p = field(json); p != null; p = field(json)) {
            switch (p) {
              case "primary" -> primary = nullableBoolean(json);
              case "privateIPAddress" -> privateIp = string(json);
              case "privateIPAddressVersion" -> version = string(json);
              case "publicIPAddress" -> publicIpId = stringField(json, "id");
              default -> json.skipChildren();
            }
          }
        }
      }
      return new IpConfiguration(primary, privateIp, version, publicIpId);
    }
  }

  /** A public IP of a public-IP listing ({@code PublicIpAddressInner}). */
  record PublicIp(String id, String ipAddress) {

    static PublicIp read(JsonParser json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String id = null;
      String ipAddress = null;
      for (String field = field(json); field != null; field = field(json)) {
        if ("id".equals(field)) {
          id = string(json);
        } else if ("properties".equals(field) && object(json)) {
          ipAddress = stringField(json, "ipAddress");
        } else if (!"properties".equals(field)) {
          json.skipChildren();
        }
      }
      return new PublicIp(id, ipAddress);
    }
  }

  /**
   * A Resource SKU ({@code ResourceSkuInner}): its resource type, name and capabilities in order (a
   * location's listing holds thousands of SKUs of every resource type, each with its locations, zones,
   * restrictions and costs, none of which a resolve reads).
   */
  record Sku(String resourceType, String name, List<Capability> capabilities) {

    /** One named capability, like {@code GPUs} = {@code 8}. */
    record Capability(String name, String value) {}

    static Sku read(JsonParser json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String resourceType = null;
      String name = null;
      List<Capability> capabilities = null;
      for (String field = field(json); field != null; field = field(json)) {
        switch (field) {
          case "resourceType" -> resourceType = string(json);
          case "name" -> name = string(json);
          case "capabilities" -> capabilities = list(json, Sku::capability);
          default -> json.skipChildren();
        }
      }
      return new Sku(resourceType, name, capabilities);
    }

    private static Capability capability(JsonParser json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String name = null;
      String value = null;
      for (String field = field(json); field != null; field = field(json)) {
        switch (field) {
          case "name" -> name = string(json);
          case "value" -> value = string(json);
          default -> json.skipChildren();
        }
      }
      return new Capability(name, value);
    }
  }

  /**
   * A scale set as VirtualMachineScaleSets.Get answers it ({@code VirtualMachineScaleSetInner}): its id and
   * {@code properties.orchestrationMode} ({@code null}: not said, which ARM means as Uniform).
   */
  record ScaleSet(String id, String orchestrationMode) {

    /** {@code Flexible} (the SDK's {@code OrchestrationMode.FLEXIBLE}, a case-sensitive name): listed as VMs. */
    boolean flexible() {
      return "Flexible".equals(orchestrationMode);
    }

    static ScaleSet read(JsonParser json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String id = null;
      String mode = null;
      for (String field = field(json); field != null; field = field(json)) {
        switch (field) {
          case "id" -> id = string(json);
          case "properties" -> mode = stringField(json, "orchestrationMode");
          default -> json.skipChildren();
        }
      }
      return new ScaleSet(id, mode);
    }
  }

  /** A VM's reference to a NIC: its id and {@code properties.primary}. */
  private static NicReference nicReference(JsonParser json) throws IOException {
    if (!object(json)) {
      return null;
    }
    String id = null;
    Boolean primary = null;
    for (String field = field(json); field != null; field = field(json)) {
      if ("id".equals(field)) {
        id = string(json);
      } else if ("properties".equals(field) && object(json)) {
        for (String p = field(json); p != null; p = field(json)) {
          if ("primary".equals(p)) {
            primary = nullableBoolean(json);
          } else {
            json.skipChildren();
          }
        }
      } else if (!"properties".equals(field)) {
        json.skipChildren();
      }
    }
    return new NicReference(id, primary);
  }

  /** The status's {@code code}. */
  private static String statusCode(JsonParser json) throws IOException {
    return stringField(json, "code");
  }

  /**
   * ARM's {@code timeCreated} as the models read it ({@link CoreUtils#parseBestOffsetDateTime}): its usual
   * RFC 3339 shape by the kit's {@link Rfc3339} (the JDK's formatter, interpreted on a cold start, was a
   * tenth of the listing's samples on the caller's thread), anything else by the SDK's own reading.
   */
  private static Instant instant(JsonParser json) throws IOException {
    String text = string(json);
    if (text == null) {
      return null;
    }
    try {
      return Rfc3339.parse(text);
    } catch (DateTimeException e) {
      OffsetDateTime time = CoreUtils.parseBestOffsetDateTime(text);
      return time == null ? null : time.toInstant();
    }
  }
}
