package io.clusterresolver.gce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.compute.v1.AcceleratorConfig;
import com.google.cloud.compute.v1.AccessConfig;
import com.google.cloud.compute.v1.Instance;
import com.google.cloud.compute.v1.InstanceAggregatedList;
import com.google.cloud.compute.v1.InstanceList;
import com.google.cloud.compute.v1.InstancesScopedList;
import com.google.cloud.compute.v1.NetworkInterface;
import com.google.gson.stream.JsonReader;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.clusterresolver.testkit.SimulatedGce;
import io.clusterresolver.testkit.SimulatedGceInstance;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The streamed reading of a listing page against the SDK's own: each page is read both ways, by
 * {@link InstancePage} and by protobuf's {@code JsonFormat} into google-cloud-compute's messages (as the
 * SDK's client read it), and every field a resolve uses must come out the same.
 */
class InstancePageTest {

  /** The simulation's aggregated pages (real field names, every kind of instance it writes), both ways. */
  @Test
  void theSimulationsAggregatedPagesReadAsTheSdkReadsThem() throws Exception {
    try (SimulatedGce gce = SimulatedGce.start()) {
      gce.addTypical(0, 620, b -> b);
      gce.add(SimulatedGceInstance.builder("gpu-host", -2L).zone("us-central1-a").machineType("n1-standard-8")
          .status("TERMINATED").label("cluster", "train").label("role", "ps").networkIp("10.9.0.1").natIp("34.1.2.3")
          .ipv6("2600:1900::1").otherNic("10.9.1.1").guestAccelerators("nvidia-tesla-t4", 2)
          .creationTimestamp(OffsetDateTime.parse("2026-03-29T01:30:00.000-07:00")).build());
      gce.add(SimulatedGceInstance.builder("v6-only", 7).zone("us-east1-b").ipv6("2600:1900::7").build());
      String base = gce.providerProperties().get("clusterresolver.gce.endpoint") + "/compute/v1/projects/"
          + gce.project() + "/aggregated/instances?maxResults=500&returnPartialSuccess=true";
      HttpClient http = HttpClient.newHttpClient();
      String token = null;
      int pages = 0;
      int instances = 0;
      do {
        String body = http.send(HttpRequest.newBuilder(URI.create(base + (token == null ? "" : "&pageToken=" + token)))
            .build(), HttpResponse.BodyHandlers.ofString()).body();
        List<GceInstance> seen = new ArrayList<>();
        InstancePage page = InstancePage.readAggregated(new JsonReader(new StringReader(body)), seen::add);
        InstanceAggregatedList sdk = sdk(body, InstanceAggregatedList.newBuilder()).build();
        assertSame(page, sdk);
        // Each instance is told as it is read: the page's own, once each, in its order (the SDK's instances).
        assertThat(seen).containsExactlyElementsOf(page.instances());
        assertThat(seen).extracting(GceInstance::name).containsExactlyInAnyOrderElementsOf(sdk.getItemsMap().values()
            .stream().flatMap(scoped -> scoped.getInstancesList().stream()).map(Instance::getName).toList());
        instances += page.instances().size();
        token = page.nextPageToken().isEmpty() ? null : page.nextPageToken();
        pages++;
      } while (token != null && pages < 10);
      assertThat(pages).isEqualTo(2);
      assertThat(instances).isEqualTo(622);
    }
  }

  /** What the API may send that the simulation does not: nulls, numbers as text, unknown fields, unreachable zones. */
  @Test
  void nullsNumbersAsTextUnknownFieldsAndUnreachableZonesReadAsTheSdkReadsThem() throws Exception {
    String body = "{\"kind\":\"compute#instanceAggregatedList\",\"id\":\"projects/p/aggregated/instances\","
        + "\"items\":{"
        + "\"zones/us-east1-b\":{\"instances\":[{\"id\":18446744073709551615,\"name\":\"a\",\"status\":\"RUNNING\","
        + "\"labels\":{\"k\":\"v\",\"tpu_name\":\"x\"},\"newField\":{\"deep\":[1,{\"x\":null}]},\"zone\":null,"
        + "\"networkInterfaces\":[{\"name\":\"nic1\",\"networkIP\":\"10.0.0.2\"},{\"name\":\"nic0\","
        + "\"networkIP\":\"10.0.0.1\",\"accessConfigs\":[{\"type\":\"ONE_TO_ONE_NAT\"},{\"natIP\":\"35.0.0.1\"}],"
        + "\"ipv6AccessConfigs\":[{\"externalIpv6\":\"2600::9\",\"externalIpv6PrefixLength\":96}]}],"
        + "\"guestAccelerators\":[{\"acceleratorCount\":\"2\"},{\"acceleratorCount\":1}],"
        + "\"creationTimestamp\":\"2026-01-01T00:00:00.000-08:00\"}]},"
        + "\"zones/us-east1-c\":{\"warning\":{\"code\":\"NO_RESULTS_ON_PAGE\",\"message\":\"none\"}},"
        + "\"zones/us-east1-d\":{\"warning\":{\"code\":\"UNREACHABLE\",\"data\":[{\"key\":\"scope\"}]}}},"
        + "\"unreachables\":[\"zones/asia-east1-a\"],\"nextPageToken\":\"tok\",\"warning\":null,\"selfLink\":\"x\"}";
    InstancePage page = InstancePage.readAggregated(new JsonReader(new StringReader(body)));
    assertSame(page, sdk(body, InstanceAggregatedList.newBuilder()).build());
    assertThat(page.unreachable()).containsExactly("zones/asia-east1-a", "zones/us-east1-d");
    assertThat(page.instances().get(0).id()).isEqualTo(-1L);

    String list = "{\"kind\":\"compute#instanceList\",\"items\":[{\"id\":\"42\",\"name\":\"b\"},{\"name\":\"c\"}]}";
    InstancePage zone = InstancePage.readList(new JsonReader(new StringReader(list)));
    InstanceList sdkList = sdk(list, InstanceList.newBuilder()).build();
    assertThat(zone.kind()).isEqualTo(sdkList.getKind());
    assertThat(zone.nextPageToken()).isEqualTo(sdkList.getNextPageToken());
    assertThat(zone.instances()).hasSize(sdkList.getItemsCount());
    for (int i = 0; i < sdkList.getItemsCount(); i++) {
      assertSame(zone.instances().get(i), sdkList.getItems(i));
    }
  }

  /** Where the SDK's parser refuses an answer, so does the streamed reading. */
  @Test
  void aValueOfTheWrongShapeIsAnErrorBothWays() {
    for (String body : List.of("{\"kind\":\"compute#instanceAggregatedList\",\"items\":[]}",
        "{\"items\":{\"zones/a\":{\"instances\":{}}}}",
        "{\"items\":{\"zones/a\":{\"instances\":[{\"id\":\"twelve\"}]}}}",
        "{\"items\":{\"zones/a\":{\"instances\":[{\"name\":{\"x\":1}}]}}}",
        "[]")) {
      assertThatThrownBy(() -> sdk(body, InstanceAggregatedList.newBuilder())).as(body)
          .isInstanceOf(InvalidProtocolBufferException.class);
      assertThatThrownBy(() -> InstancePage.readAggregated(new JsonReader(new StringReader(body)))).as(body)
          .isInstanceOfAny(IOException.class, IllegalStateException.class);
    }
  }

  private static <B extends com.google.protobuf.Message.Builder> B sdk(String body, B builder)
      throws InvalidProtocolBufferException {
    JsonFormat.parser().ignoringUnknownFields().merge(body, builder);
    return builder;
  }

  private static void assertSame(InstancePage page, InstanceAggregatedList sdk) {
    assertThat(page.kind()).isEqualTo(sdk.getKind());
    assertThat(page.nextPageToken()).isEqualTo(sdk.getNextPageToken());
    List<Instance> expected = new ArrayList<>();
    Set<String> unreachable = new TreeSet<>(sdk.getUnreachablesList());
    sdk.getItemsMap().forEach((scope, scoped) -> {
      expected.addAll(scoped.getInstancesList());
      if ("UNREACHABLE".equals(scoped.getWarning().getCode())) {
        unreachable.add(scope);
      }
    });
    assertThat(page.unreachable()).containsExactlyElementsOf(unreachable);
    assertThat(page.instances()).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      assertSame(page.instances().get(i), expected.get(i));
    }
  }

  private static void assertSame(GceInstance read, Instance sdk) {
    assertThat(read.id()).isEqualTo(sdk.getId());
    assertThat(read.name()).isEqualTo(sdk.getName());
    assertThat(read.status()).isEqualTo(sdk.getStatus());
    assertThat(read.creationTimestamp()).isEqualTo(sdk.getCreationTimestamp());
    assertThat(read.zone()).isEqualTo(sdk.getZone());
    assertThat(read.machineType()).isEqualTo(sdk.getMachineType());
    assertThat(read.labels()).isEqualTo(sdk.getLabelsMap());
    assertThat(read.guestGpus())
        .isEqualTo(sdk.getGuestAcceleratorsList().stream().mapToInt(AcceleratorConfig::getAcceleratorCount).sum());
    assertThat(read.networkInterfaces()).hasSize(sdk.getNetworkInterfacesCount());
    for (int n = 0; n < sdk.getNetworkInterfacesCount(); n++) {
      GceInstance.Nic nic = read.networkInterfaces().get(n);
      NetworkInterface expected = sdk.getNetworkInterfaces(n);
      assertThat(nic.name()).isEqualTo(expected.getName());
      assertThat(nic.networkIP()).isEqualTo(expected.getNetworkIP());
      assertThat(nic.ipv6Address()).isEqualTo(expected.getIpv6Address());
      assertThat(nic.natIPs()).isEqualTo(expected.getAccessConfigsList().stream().map(AccessConfig::getNatIP).toList());
      assertThat(nic.externalIpv6s())
          .isEqualTo(expected.getIpv6AccessConfigsList().stream().map(AccessConfig::getExternalIpv6).toList());
    }
  }
}
