package io.clusterresolver.azure;

import com.azure.core.util.CoreUtils;
import com.azure.json.JsonReader;
import com.azure.json.JsonToken;
import com.azure.json.ReadValueCallback;
import io.clusterresolver.cloud.Rfc3339;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a resolve reads of the resources it lists, streamed from azure-json's {@link JsonReader} into
 * small records, every other field skipped unread. The SDK's generated models build the whole of each
 * resource instead (a VM with its storage, OS and security profiles, agent and disk statuses: 85
 * model classes and a dozen objects per VM, for 9 fields). Field names, nesting and how each value is
 * read ({@code getString}, {@code getNullable(getBoolean)}, {@link CoreUtils#parseBestOffsetDateTime})
 * are those of the generated {@code fromJson} of azure-resourcemanager-compute 2.55 and -network 2.57;
 * {@code ArmResourcesTest} compares both readings of the simulation's pages. A {@code null} in a list
 * is skipped (the models keep it as a {@code null} element).
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

    static Vm read(JsonReader json) throws IOException {
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
          case "id" -> id = json.getString();
          case "name" -> name = json.getString();
          case "location" -> location = json.getString();
          case "tags" -> tags = json.readMap(JsonReader::getString);
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

    static ScaleSetVm read(JsonReader json) throws IOException {
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
          case "id" -> id = json.getString();
          case "name" -> name = json.getString();
          case "location" -> location = json.getString();
          case "tags" -> tags = json.readMap(JsonReader::getString);
          case "instanceId" -> instanceId = json.getString();
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

    static NetworkInterface read(JsonReader json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String id = null;
      Boolean primary = null;
      String vmId = null;
      List<IpConfiguration> configs = null;
      for (String field = field(json); field != null; field = field(json)) {
        switch (field) {
          case "id" -> id = json.getString();
          case "properties" -> {
            if (!object(json)) {
              continue;
            }
            for (String p = field(json); p != null; p = field(json)) {
              switch (p) {
                case "primary" -> primary = json.getNullable(JsonReader::getBoolean);
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

    private static IpConfiguration ipConfiguration(JsonReader json) throws IOException {
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
              case "primary" -> primary = json.getNullable(JsonReader::getBoolean);
              case "privateIPAddress" -> privateIp = json.getString();
              case "privateIPAddressVersion" -> version = json.getString();
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

    static PublicIp read(JsonReader json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String id = null;
      String ipAddress = null;
      for (String field = field(json); field != null; field = field(json)) {
        if ("id".equals(field)) {
          id = json.getString();
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

    static Sku read(JsonReader json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String resourceType = null;
      String name = null;
      List<Capability> capabilities = null;
      for (String field = field(json); field != null; field = field(json)) {
        switch (field) {
          case "resourceType" -> resourceType = json.getString();
          case "name" -> name = json.getString();
          case "capabilities" -> capabilities = list(json, Sku::capability);
          default -> json.skipChildren();
        }
      }
      return new Sku(resourceType, name, capabilities);
    }

    private static Capability capability(JsonReader json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String name = null;
      String value = null;
      for (String field = field(json); field != null; field = field(json)) {
        switch (field) {
          case "name" -> name = json.getString();
          case "value" -> value = json.getString();
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

    static ScaleSet read(JsonReader json) throws IOException {
      if (!object(json)) {
        return null;
      }
      String id = null;
      String mode = null;
      for (String field = field(json); field != null; field = field(json)) {
        switch (field) {
          case "id" -> id = json.getString();
          case "properties" -> mode = stringField(json, "orchestrationMode");
          default -> json.skipChildren();
        }
      }
      return new ScaleSet(id, mode);
    }
  }

  /** A VM's reference to a NIC: its id and {@code properties.primary}. */
  private static NicReference nicReference(JsonReader json) throws IOException {
    if (!object(json)) {
      return null;
    }
    String id = null;
    Boolean primary = null;
    for (String field = field(json); field != null; field = field(json)) {
      if ("id".equals(field)) {
        id = json.getString();
      } else if ("properties".equals(field) && object(json)) {
        for (String p = field(json); p != null; p = field(json)) {
          if ("primary".equals(p)) {
            primary = json.getNullable(JsonReader::getBoolean);
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
  private static String statusCode(JsonReader json) throws IOException {
    return stringField(json, "code");
  }

  /**
   * The list field {@code name} of the object the reader is at (read to its end), each item read by
   * {@code item}; empty when the object, the field or its value is absent or {@code null}.
   */
  private static <T> List<T> listField(JsonReader json, String name, ReadValueCallback<JsonReader, T> item)
      throws IOException {
    List<T> items = null;
    if (object(json)) {
      for (String field = field(json); field != null; field = field(json)) {
        if (name.equals(field)) {
          items = list(json, item);
        } else {
          json.skipChildren();
        }
      }
    }
    return items == null ? new ArrayList<>(0) : items;
  }

  /** The array the reader is at, each item read by {@code item}, {@code null} items left out; {@code null} for a JSON null. */
  private static <T> List<T> list(JsonReader json, ReadValueCallback<JsonReader, T> item) throws IOException {
    if (!array(json)) {
      return null;
    }
    List<T> items = new ArrayList<>(2);
    while (json.nextToken() != JsonToken.END_ARRAY) {
      T read = item.read(json);
      if (read != null) {
        items.add(read);
      }
    }
    return items;
  }

  /** The string field {@code name} of the object the reader is at (read to its end), or {@code null}. */
  private static String stringField(JsonReader json, String name) throws IOException {
    String value = null;
    if (!object(json)) {
      return null;
    }
    for (String field = field(json); field != null; field = field(json)) {
      if (name.equals(field)) {
        value = json.getString();
      } else {
        json.skipChildren();
      }
    }
    return value;
  }

  /**
   * ARM's {@code timeCreated} as the models read it ({@link CoreUtils#parseBestOffsetDateTime}): its usual
   * RFC 3339 shape by the kit's {@link Rfc3339} (the JDK's formatter, interpreted on a cold start, was a
   * tenth of the listing's samples on the caller's thread), anything else by the SDK's own reading.
   */
  private static Instant instant(JsonReader json) throws IOException {
    String text = json.getString();
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

  /**
   * Whether the reader is at an object whose fields follow ({@code false} at a JSON {@code null});
   * anything else is an error, as in the generated models' {@code readObject}.
   */
  private static boolean object(JsonReader json) throws IOException {
    return at(json, JsonToken.START_OBJECT);
  }

  private static boolean array(JsonReader json) throws IOException {
    return at(json, JsonToken.START_ARRAY);
  }

  private static boolean at(JsonReader json, JsonToken start) throws IOException {
    JsonToken token = json.currentToken();
    if (token == null) {
      token = json.nextToken();
    }
    if (token == JsonToken.NULL) {
      return false;
    }
    if (token != start) {
      throw new IllegalStateException("Unexpected token " + token + " where ARM's answer has a"
          + (start == JsonToken.START_OBJECT ? "n object" : "n array"));
    }
    return true;
  }

  /** The next field's name with the reader at its value, or {@code null} at the end of the object. */
  private static String field(JsonReader json) throws IOException {
    if (json.nextToken() != JsonToken.FIELD_NAME) {
      return null;
    }
    String name = json.getFieldName();
    json.nextToken();
    return name;
  }
}
