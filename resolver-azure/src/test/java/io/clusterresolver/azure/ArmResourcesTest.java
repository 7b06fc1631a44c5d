package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import com.azure.json.JsonToken;
import com.azure.json.ReadValueCallback;
import com.fasterxml.jackson.core.JsonParser;
import com.azure.resourcemanager.compute.fluent.models.ResourceSkuInner;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineInner;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetInner;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetVMInner;
import com.azure.resourcemanager.compute.models.InstanceViewStatus;
import com.azure.resourcemanager.compute.models.OrchestrationMode;
import com.azure.resourcemanager.network.fluent.models.NetworkInterfaceInner;
import com.azure.resourcemanager.network.fluent.models.PublicIpAddressInner;
import io.clusterresolver.testkit.AzureScenarios;
import io.clusterresolver.testkit.SimulatedAzure;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link ArmResources}' streamed records against an independent reading of the same bytes: the
 * SDK's own generated {@code fromJson} models, field by field for every field a resolve uses, on
 * every page of the simulation's listings, Resource SKUs too (and on hand-written answers with the shapes the simulation
 * does not send: nulls, absent objects, look-alike fields nested elsewhere, offsets missing).
 */
class ArmResourcesTest {

  private static final String RG = AzureScenarios.MIXED_RG;
  private static SimulatedAzure azure;
  private static HttpClient http;

  @BeforeAll
  static void world() {
    azure = AzureScenarios.mixedResourceGroup(SimulatedAzure.start(), 230).pageSize(40);
    AzureScenarios.uniformScaleSet(azure, RG, "uni", 90);
    azure.scaleSet(new SimulatedAzure.ScaleSet("flex", RG, false, "eastus", "Standard_D4s_v3"));
    azure.update(vm -> vm.instanceId() == null && Integer.parseInt(vm.name().substring(3)) % 4 == 0, b -> b.scaleSet("flex"));
    http = HttpClient.newBuilder().sslContext(azure.sslContext()).build();
  }

  @AfterAll
  static void stop() {
    azure.close();
  }

  private static String path(String rest) {
    return azure.endpoint().toString().replaceAll("/+$", "") + "/subscriptions/" + azure.subscription() + rest;
  }

  @Test
  void vmsOfAResourceGroupWithTheirInstanceView() throws Exception {
    int items = compareVms(path("/resourceGroups/" + RG + "/providers/Microsoft.Compute/virtualMachines"
        + "?api-version=2025-04-01&$expand=instanceView"));
    assertThat(items).isGreaterThan(200);
  }

  @Test
  void vmsOfTheSubscriptionWithStatusOnly() throws Exception {
    int items = compareVms(path("/providers/Microsoft.Compute/virtualMachines?api-version=2025-04-01&statusOnly=true"));
    assertThat(items).isGreaterThan(200);
  }

  @Test
  void vmsOfAUniformScaleSet() throws Exception {
    List<String> statuses = new ArrayList<>();
    int items = compare(path("/resourceGroups/" + RG + "/providers/Microsoft.Compute/virtualMachineScaleSets/uni"
        + "/virtualMachines?api-version=2025-04-01&$expand=instanceView"), VirtualMachineScaleSetVMInner::fromJson,
        ArmResources.ScaleSetVm::read, (sdk, ours) -> {
          assertThat(ours.id()).isEqualTo(sdk.id());
          assertThat(ours.name()).isEqualTo(sdk.name());
          assertThat(ours.location()).isEqualTo(sdk.location());
          assertThat(ours.tags()).isEqualTo(sdk.tags());
          assertThat(ours.instanceId()).isEqualTo(sdk.instanceId());
          assertThat(ours.sku()).isEqualTo(sdk.sku() == null ? null : sdk.sku().name());
          assertThat(ours.created()).isEqualTo(sdk.timeCreated() == null ? null : sdk.timeCreated().toInstant());
          assertThat(ours.statuses()).isEqualTo(codes(sdk.instanceView() == null ? null : sdk.instanceView().statuses()));
          statuses.addAll(ours.statuses());
        });
    assertThat(items).isEqualTo(90);
    assertThat(statuses).contains(AzureMemberSource.RUNNING);
  }

  @Test
  void scaleSetsOfBothModes() throws Exception {
    for (String set : List.of("uni", "flex")) {
      HttpResponse<byte[]> answer = http.send(HttpRequest.newBuilder(URI.create(path("/resourceGroups/" + RG
          + "/providers/Microsoft.Compute/virtualMachineScaleSets/" + set + "?api-version=2025-04-01")))
          .header("Authorization", "Bearer " + SimulatedAzure.ACCESS_TOKEN).build(), HttpResponse.BodyHandlers.ofByteArray());
      assertThat(answer.statusCode()).as(set).isEqualTo(200);
      ArmResources.ScaleSet ours = compareScaleSet(answer.body());
      assertThat(ours.id()).endsWith("/virtualMachineScaleSets/" + set);
      assertThat(ours.flexible()).as(set).isEqualTo("flex".equals(set));
    }
    // shapes the simulation does not send: the mode in other cases, absent, null, look-alikes nested elsewhere
    for (String body : List.of("{\"properties\":{\"orchestrationMode\":\"flexible\"},\"id\":\"/s\"}",
        "{\"properties\":{\"orchestrationMode\":\"FLEXIBLE\"}}",
        "{\"properties\":{\"orchestrationMode\":\"Uniform\"}}",
        "{\"properties\":{\"orchestrationMode\":null,\"virtualMachineProfile\":{\"orchestrationMode\":\"Flexible\"}}}",
        "{\"id\":\"/s\",\"properties\":null,\"orchestrationMode\":\"Flexible\"}",
        "{\"id\":null,\"sku\":{\"name\":\"x\",\"capacity\":3},\"properties\":{\"orchestrationMode\":\"Flexible\","
            + "\"uniqueId\":\"u\",\"upgradePolicy\":{\"mode\":\"Manual\"}},\"zones\":[\"1\"],\"tags\":{}}",
        "{}")) {
      compareScaleSet(body.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The scale set as {@code VirtualMachineScaleSetInner.fromJson} reads it and as {@link ArmResources.ScaleSet}. */
  private static ArmResources.ScaleSet compareScaleSet(byte[] body) throws IOException {
    VirtualMachineScaleSetInner sdk;
    try (JsonReader json = JsonProviders.createReader(body)) {
      sdk = VirtualMachineScaleSetInner.fromJson(json);
    }
    ArmResources.ScaleSet ours;
    try (JsonParser json = ArmJson.parser(body)) {
      ours = ArmResources.ScaleSet.read(json);
    }
    String what = new String(body, StandardCharsets.UTF_8);
    assertThat(ours.id()).as(what).isEqualTo(sdk.id());
    // what AzureMemberSource asked of the SDK's model: whether the mode is OrchestrationMode.FLEXIBLE
    assertThat(ours.flexible()).as(what).isEqualTo(sdk.orchestrationMode() == OrchestrationMode.FLEXIBLE);
    assertThat(ours.orchestrationMode()).as(what)
        .isEqualTo(sdk.orchestrationMode() == null ? null : sdk.orchestrationMode().toString());
    return ours;
  }

  @Test
  void networkInterfacesOfAResourceGroupAndOfAScaleSet() throws Exception {
    int group = compareNics(path("/resourceGroups/" + RG + "/providers/Microsoft.Network/networkInterfaces"
        + "?api-version=2025-03-01"));
    int set = compareNics(path("/resourceGroups/" + RG + "/providers/microsoft.Compute/virtualMachineScaleSets/uni"
        + "/networkInterfaces?api-version=2018-10-01"));
    assertThat(group).isGreaterThan(230); // two NICs for some VMs
    assertThat(set).isEqualTo(90);
  }

  @Test
  void publicIpsOfAResourceGroupAndOfAScaleSet() throws Exception {
    String[] urls = {
        path("/resourceGroups/" + RG + "/providers/Microsoft.Network/publicIPAddresses?api-version=2025-03-01"),
        path("/resourceGroups/" + RG + "/providers/Microsoft.Compute/virtualMachineScaleSets/uni/publicipaddresses"
            + "?api-version=2018-10-01")};
    for (String url : urls) {
      Set<String> addresses = new HashSet<>();
      int items = compare(url, PublicIpAddressInner::fromJson, ArmResources.PublicIp::read, (sdk, ours) -> {
        assertThat(ours.id()).isEqualTo(sdk.id());
        assertThat(ours.ipAddress()).isEqualTo(sdk.ipAddress());
        addresses.add(ours.ipAddress());
      });
      assertThat(items).isPositive();
      assertThat(addresses).hasSize(items);
    }
  }

  @Test
  void resourceSkusOfALocation() throws Exception {
    azure.defineSku("Standard_NC4as_T4_v3", 1).defineSku("Standard_ND96asr_v4", 8).defineSku("Standard_D4s_v3", 0);
    List<String> gpus = new ArrayList<>();
    int items = compare(path("/providers/Microsoft.Compute/skus?api-version=2021-07-01&$filter=location%20eq%20%27eastus%27"),
        ResourceSkuInner::fromJson, ArmResources.Sku::read, (sdk, ours) -> compareSku(sdk, ours, gpus));
    assertThat(items).isGreaterThanOrEqualTo(3);
    assertThat(gpus).contains("1", "8");

    String hand = "{\"value\":[{\"capabilities\":null,\"name\":\"a\"},{\"resourceType\":\"virtualMachines\","
        + "\"locationInfo\":[{\"location\":\"eastus\",\"zones\":[\"1\"],\"zoneDetails\":[{\"capabilities\":"
        + "[{\"name\":\"GPUs\",\"value\":\"99\"}]}]}],\"capabilities\":[{\"value\":\"4\",\"name\":\"GPUs\"},"
        + "{\"name\":\"vCPUs\"}],\"restrictions\":[{\"type\":\"Zone\",\"values\":[\"eastus\"]}]}]}";
    assertThat(comparePage(hand.getBytes(StandardCharsets.UTF_8), ResourceSkuInner::fromJson, ArmResources.Sku::read,
        (sdk, ours) -> compareSku(sdk, ours, new ArrayList<>()))).isEqualTo(2);
  }

  private static void compareSku(ResourceSkuInner sdk, ArmResources.Sku ours, List<String> gpus) {
    assertThat(ours.resourceType()).isEqualTo(sdk.resourceType());
    assertThat(ours.name()).isEqualTo(sdk.name());
    if (sdk.capabilities() == null) {
      assertThat(ours.capabilities()).isNull();
      return;
    }
    List<ArmResources.Sku.Capability> capabilities = new ArrayList<>();
    sdk.capabilities().forEach(c -> capabilities.add(new ArmResources.Sku.Capability(c.name(), c.value())));
    assertThat(ours.capabilities()).isEqualTo(capabilities);
    capabilities.stream().filter(c -> "GPUs".equals(c.name())).forEach(c -> gpus.add(c.value()));
  }

  @Test
  void shapesTheSimulationDoesNotSend() throws Exception {
    String vms = "{\"value\":["
        // look-alikes nested where they are not read: an id, a primary flag and statuses elsewhere
        + "{\"properties\":{\"storageProfile\":{\"id\":\"x\",\"properties\":{\"primary\":true}},"
        + "\"instanceView\":{\"vmAgent\":{\"statuses\":[{\"code\":\"PowerState/running\"}]},"
        + "\"statuses\":[{\"code\":\"PowerState/stopped\"},{\"level\":\"Info\"}]},"
        + "\"networkProfile\":{\"networkInterfaces\":[{\"id\":\"/n/a\"},{\"properties\":{\"primary\":false},"
        + "\"id\":\"/n/B\"},{\"id\":\"/n/c\",\"properties\":{\"primary\":null}}]},"
        + "\"hardwareProfile\":{\"vmSizeProperties\":{\"vCPUsAvailable\":4},\"vmSize\":\"Standard_X\"},"
        + "\"timeCreated\":\"2026-03-01T08:00:00.1234567Z\"},\"id\":\"/late/id\",\"tags\":{\"a\":null,\"b\":\"\"}},"
        // nulls and absences everywhere
        + "{\"id\":\"/only/id\"},"
        + "{\"id\":null,\"name\":null,\"tags\":null,\"properties\":null},"
        + "{\"properties\":{\"instanceView\":null,\"networkProfile\":{\"networkInterfaces\":null},"
        + "\"hardwareProfile\":null,\"virtualMachineScaleSet\":{\"id\":\"/ss\"},\"timeCreated\":null}},"
        + "{\"properties\":{\"instanceView\":{\"statuses\":[]},\"timeCreated\":\"2026-03-01T08:00:00+05:30\"}},"
        // times outside RFC 3339's usual shape, which the SDK still reads: no offset (UTC), a lower-case 'z'
        + "{\"properties\":{\"timeCreated\":\"2026-03-01T08:00:00.5\"}},"
        + "{\"properties\":{\"timeCreated\":\"2026-03-01T08:00:00z\"}},"
        // scalars that are not strings where strings are read: their text, as azure-json's getString gives it
        + "{\"name\":12,\"location\":true,\"tags\":{\"n\":5,\"f\":1.50,\"e\":-2E3,\"t\":false,\"z\":null,"
        + "\"u\":\"caf\\u00e9 \\\"q\\\"\"},\"properties\":{\"hardwareProfile\":{\"vmSize\":7}}}"
        + "]}";
    assertThat(compareVmPage(vms.getBytes(StandardCharsets.UTF_8))).isEqualTo(8);

    String nics = "{\"value\":["
        + "{\"properties\":{\"ipConfigurations\":[{\"id\":\"c1\",\"properties\":{\"privateIPAddress\":\"10.0.0.1\","
        + "\"publicIPAddress\":{\"properties\":{\"ipAddress\":\"1.2.3.4\"},\"id\":\"/pip\"},\"primary\":false}},"
        + "{\"properties\":{\"primary\":true,\"privateIPAddressVersion\":\"IPv6\",\"privateIPAddress\":\"fd00::1\","
        + "\"subnet\":{\"id\":\"/subnet\"}}}],\"virtualMachine\":{\"id\":\"/vm\"},\"primary\":true,"
        + "\"dnsSettings\":{\"dnsServers\":[]}},\"id\":\"/nic\"},"
        + "{\"id\":\"/nic2\",\"properties\":{\"virtualMachine\":null,\"ipConfigurations\":null,\"primary\":null}},"
        + "{\"id\":\"/nic3\",\"properties\":{\"ipConfigurations\":[{\"properties\":null},{}]}},"
        + "{\"id\":\"/nic4\"}]}";
    assertThat(compareNicPage(nics.getBytes(StandardCharsets.UTF_8))).isEqualTo(4);
  }

  private int compareVms(String url) throws Exception {
    return everyPage(url, ArmResourcesTest::compareVmPage);
  }

  private static int compareVmPage(byte[] page) throws IOException {
    return comparePage(page, VirtualMachineInner::fromJson, ArmResources.Vm::read, (sdk, ours) -> {
      assertThat(ours.id()).isEqualTo(sdk.id());
      assertThat(ours.name()).isEqualTo(sdk.name());
      assertThat(ours.location()).isEqualTo(sdk.location());
      assertThat(ours.tags()).isEqualTo(sdk.tags());
      assertThat(ours.size()).isEqualTo(sdk.hardwareProfile() == null || sdk.hardwareProfile().vmSize() == null ? null
          : sdk.hardwareProfile().vmSize().toString());
      List<ArmResources.NicReference> refs = new ArrayList<>();
      if (sdk.networkProfile() != null && sdk.networkProfile().networkInterfaces() != null) {
        sdk.networkProfile().networkInterfaces().forEach(r -> refs.add(new ArmResources.NicReference(r.id(), r.primary())));
      }
      assertThat(ours.nics()).isEqualTo(refs);
      OffsetDateTime created = sdk.timeCreated();
      assertThat(ours.created()).isEqualTo(created == null ? null : created.toInstant());
      assertThat(ours.statuses()).isEqualTo(codes(sdk.instanceView() == null ? null : sdk.instanceView().statuses()));
      assertThat(ours.scaleSetId()).isEqualTo(sdk.virtualMachineScaleSet() == null ? null
          : sdk.virtualMachineScaleSet().id());
    });
  }

  private int compareNics(String url) throws Exception {
    return everyPage(url, ArmResourcesTest::compareNicPage);
  }

  private static int compareNicPage(byte[] page) throws IOException {
    return comparePage(page, NetworkInterfaceInner::fromJson, ArmResources.NetworkInterface::read, (sdk, ours) -> {
      assertThat(ours.id()).isEqualTo(sdk.id());
      assertThat(ours.primary()).isEqualTo(sdk.primary());
      assertThat(ours.vmId()).isEqualTo(sdk.virtualMachine() == null ? null : sdk.virtualMachine().id());
      if (sdk.ipConfigurations() == null) {
        assertThat(ours.ipConfigurations()).isNull();
        return;
      }
      List<ArmResources.IpConfiguration> configs = new ArrayList<>();
      sdk.ipConfigurations().forEach(c -> configs.add(new ArmResources.IpConfiguration(c.primary(),
          c.privateIpAddress(), c.privateIpAddressVersion() == null ? null : c.privateIpAddressVersion().toString(),
          c.publicIpAddress() == null ? null : c.publicIpAddress().id())));
      assertThat(ours.ipConfigurations()).isEqualTo(configs);
    });
  }

  private static List<String> codes(List<InstanceViewStatus> statuses) {
    List<String> codes = new ArrayList<>();
    if (statuses != null) {
      statuses.forEach(s -> {
        if (s.code() != null) {
          codes.add(s.code());
        }
      });
    }
    return codes;
  }

  /** Compares every item of every page of the listing at {@code url}; the number of items. */
  private <S, O> int compare(String url, ReadValueCallback<JsonReader, S> sdk, ArmJson.Reader<O> ours,
      BiConsumer<S, O> same) throws Exception {
    return everyPage(url, page -> comparePage(page, sdk, ours, same));
  }

  /** A comparison of one page; the number of items. */
  private interface PageCheck {
    int items(byte[] page) throws IOException;
  }

  private static int everyPage(String url, PageCheck check) throws Exception {
    int items = 0;
    for (byte[] page : pages(url)) {
      items += check.items(page);
    }
    return items;
  }

  private static <S, O> int comparePage(byte[] page, ReadValueCallback<JsonReader, S> sdk,
      ArmJson.Reader<O> ours, BiConsumer<S, O> same) throws IOException {
    List<S> expected = values(page, sdk);
    List<O> actual = ours(page, ours);
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      same.accept(expected.get(i), actual.get(i));
    }
    return expected.size();
  }

  /** The page's {@code value} items, each read by {@code item}. */
  private static <T> List<T> values(byte[] page, ReadValueCallback<JsonReader, T> item) throws IOException {
    try (JsonReader json = JsonProviders.createReader(page)) {
      json.nextToken();
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String field = json.getFieldName();
        json.nextToken();
        if ("value".equals(field)) {
          return json.readArray(item);
        }
        json.skipChildren();
      }
    }
    throw new AssertionError("no value list in " + new String(page, StandardCharsets.UTF_8));
  }

  /** The page's {@code value} items as ours reads them: each by {@code item}, on jackson-core's parser. */
  private static <T> List<T> ours(byte[] page, ArmJson.Reader<T> item) throws IOException {
    try (JsonParser json = ArmJson.parser(page)) {
      json.nextToken();
      for (String field = ArmJson.field(json); field != null; field = ArmJson.field(json)) {
        if ("value".equals(field)) {
          return ArmJson.list(json, item);
        }
        json.skipChildren();
      }
    }
    throw new AssertionError("no value list in " + new String(page, StandardCharsets.UTF_8));
  }

  /** Every page of a listing, following {@code nextLink}. */
  private static List<byte[]> pages(String url) throws Exception {
    List<byte[]> pages = new ArrayList<>();
    for (String next = url; next != null; ) {
      HttpResponse<byte[]> answer = http.send(HttpRequest.newBuilder(URI.create(next))
          .header("Authorization", "Bearer " + SimulatedAzure.ACCESS_TOKEN).build(), HttpResponse.BodyHandlers.ofByteArray());
      assertThat(answer.statusCode()).as("%s", next).isEqualTo(200);
      pages.add(answer.body());
      next = nextLink(answer.body());
    }
    assertThat(pages.size()).as("pages of %s", url).isGreaterThan(0);
    return pages;
  }

  private static String nextLink(byte[] page) throws IOException {
    try (JsonReader json = JsonProviders.createReader(page)) {
      json.nextToken();
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String field = json.getFieldName();
        json.nextToken();
        if ("nextLink".equals(field)) {
          return json.getString();
        }
        json.skipChildren();
      }
    }
    return null;
  }
}
