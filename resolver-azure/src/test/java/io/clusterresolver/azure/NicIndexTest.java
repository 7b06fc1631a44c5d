package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The NIC join on ARM's own JSON: primary NIC, primary IP configuration, ids in any case. */
class NicIndexTest {

  private static final String VM = "/subscriptions/s/resourceGroups/RG/providers/Microsoft.Compute/virtualMachines/vm1";

  private static ArmResources.NetworkInterface nic(String name, boolean primary, String configs) throws Exception {
    String json = "{\"id\":\"/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/networkInterfaces/" + name
        + "\",\"name\":\"" + name + "\",\"properties\":{\"primary\":" + primary + ",\"virtualMachine\":{\"id\":\"" + VM
        + "\"},\"ipConfigurations\":[" + configs + "]}}";
    try (JsonParser reader = ArmJson.parser(json.getBytes(StandardCharsets.UTF_8))) {
      return ArmResources.NetworkInterface.read(reader);
    }
  }

  private static String config(String ip, boolean primary, String version) {
    return "{\"name\":\"c\",\"properties\":{\"primary\":" + primary + ",\"privateIPAddress\":\"" + ip
        + "\",\"privateIPAddressVersion\":\"" + version + "\"}}";
  }

  @Test
  void theNicFlaggedPrimaryWinsWhateverTheOrderAndTheVmIdsCase() throws Exception {
    NicIndex index = new NicIndex();
    index.add(nic("second", false, config("10.0.0.9", true, "IPv4")));
    index.add(nic("first", true, config("10.0.0.4", true, "IPv4")));
    index.add(nic("third", false, config("10.0.0.7", true, "IPv4")));
    assertThat(index.of(VM.toLowerCase(), null).privateIpv4()).isEqualTo("10.0.0.4");
  }

  @Test
  void theVmsPrimaryReferenceWinsOverTheNicsFlag() throws Exception {
    NicIndex index = new NicIndex();
    index.add(nic("first", true, config("10.0.0.4", true, "IPv4")));
    index.add(nic("second", false, config("10.0.0.9", true, "IPv4")));
    String second = "/subscriptions/s/resourcegroups/rg/providers/microsoft.network/networkinterfaces/second";
    assertThat(index.of(VM.toLowerCase(), second).privateIpv4()).isEqualTo("10.0.0.9");
  }

  @Test
  void thePrimaryIpConfigurationIsTakenAndAnIpv6OneHasNoIpv4() throws Exception {
    NicIndex index = new NicIndex();
    index.add(nic("n", true, config("10.0.0.5", false, "IPv4") + "," + config("10.0.0.6", true, "IPv4")));
    assertThat(index.of(VM.toLowerCase(), null).privateIpv4()).isEqualTo("10.0.0.6");
    NicIndex v6 = new NicIndex();
    v6.add(nic("n", true, config("fd00::5", true, "IPv6")));
    assertThat(v6.of(VM.toLowerCase(), null).privateIpv4()).isNull();
  }
}
