package io.clusterresolver.gce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.google.cloud.compute.v1.InstanceGroupsListInstances;
import com.google.cloud.compute.v1.InstanceWithNamedPorts;
import com.google.gson.stream.JsonReader;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.clusterresolver.testkit.SimulatedGce;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The streamed reading of an {@code instanceGroups.listInstances} page against the SDK's own: each page is read both
 * ways, by {@link GroupMembersPage} and by protobuf's {@code JsonFormat} into google-cloud-compute's
 * {@code InstanceGroupsListInstances} (as the SDK's client read it), and what a resolve uses must come out the same.
 */
class GroupMembersPageTest {

  /** The simulation's pages of a group of 450 (every page), both ways. */
  @Test
  void theSimulationsPagesReadAsTheSdkReadsThem() throws Exception {
    try (SimulatedGce gce = SimulatedGce.start()) {
      gce.pageCap(200);
      gce.addTypical(0, 450, b -> b.zone("us-east1-b"));
      List<String> names = new ArrayList<>();
      for (int i = 0; i < 450; i++) {
        names.add("vm-" + i);
      }
      gce.defineInstanceGroup("us-east1-b", "trainers", names);
      String base = gce.providerProperties().get("clusterresolver.gce.endpoint") + "/compute/v1/projects/"
          + gce.project() + "/zones/us-east1-b/instanceGroups/trainers/listInstances?maxResults=500";
      HttpClient http = HttpClient.newHttpClient();
      String token = null;
      int pages = 0;
      List<String> read = new ArrayList<>();
      do {
        String body = http.send(HttpRequest.newBuilder(URI.create(base + (token == null ? "" : "&pageToken=" + token)))
            .POST(HttpRequest.BodyPublishers.ofString("{\"instanceState\":\"ALL\"}")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        GroupMembersPage page = GroupMembersPage.read(new JsonReader(new StringReader(body)));
        assertSame(page, sdk(body));
        read.addAll(page.instances());
        token = page.nextPageToken().isEmpty() ? null : page.nextPageToken();
        pages++;
      } while (token != null && pages < 10);
      assertThat(pages).isEqualTo(3);
      assertThat(read).hasSize(450).allMatch(url -> url.contains("/zones/us-east1-b/instances/vm-"));
    }
  }

  /** What the API may send that the simulation does not: nulls, named ports, unknown fields, an empty page. */
  @Test
  void nullsNamedPortsUnknownFieldsAndAnEmptyPageReadAsTheSdkReadsThem() throws Exception {
    for (String body : List.of(
        "{\"kind\":\"compute#instanceGroupsListInstances\",\"id\":\"x\",\"items\":[{\"instance\":\"https://c/"
            + "instances/a\",\"status\":\"RUNNING\",\"namedPorts\":[{\"name\":\"http\",\"port\":80}]},{\"status\":"
            + "\"STOPPED\",\"instance\":\"https://c/instances/b\",\"newField\":{\"deep\":[1,{\"x\":null}]}},"
            + "{\"instance\":null}],\"nextPageToken\":\"tok\",\"warning\":null,\"selfLink\":\"s\"}",
        "{\"kind\":\"compute#instanceGroupsListInstances\",\"items\":null,\"nextPageToken\":null}",
        "{\"kind\":\"compute#instanceGroupsListInstances\",\"warning\":{\"code\":\"NO_RESULTS_ON_PAGE\"}}",
        "{}")) {
      assertSame(GroupMembersPage.read(new JsonReader(new StringReader(body))), sdk(body));
    }
  }

  /**
   * Where the SDK's parser refuses an answer, so does the streamed reading. (Not the other way round everywhere:
   * gson's tree, under protobuf's parser, reads a one-element array as its element, {@code ["a"]} as {@code "a"}.)
   */
  @Test
  void aValueOfTheWrongShapeIsAnErrorBothWays() {
    for (String body : List.of("{\"items\":{}}", "{\"items\":[{\"instance\":{\"x\":1}}]}",
        "{\"kind\":{}}", "{\"kind\":[]}", "{\"items\":[\"a\"]}", "[]")) {
      Throwable sdkRefusal = catchThrowable(() -> sdk(body));
      Throwable ourRefusal = catchThrowable(() -> GroupMembersPage.read(new JsonReader(new StringReader(body))));
      assertThat(sdkRefusal).as("the SDK's reading of %s", body).isInstanceOf(InvalidProtocolBufferException.class);
      assertThat(ourRefusal).as("our reading of %s", body).isInstanceOfAny(IOException.class,
          IllegalStateException.class);
    }
  }

  private static InstanceGroupsListInstances sdk(String body) throws InvalidProtocolBufferException {
    InstanceGroupsListInstances.Builder builder = InstanceGroupsListInstances.newBuilder();
    JsonFormat.parser().ignoringUnknownFields().merge(body, builder);
    return builder.build();
  }

  private static void assertSame(GroupMembersPage page, InstanceGroupsListInstances sdk) {
    assertThat(page.kind()).isEqualTo(sdk.getKind());
    assertThat(page.nextPageToken()).isEqualTo(sdk.getNextPageToken());
    assertThat(page.instances())
        .containsExactlyElementsOf(sdk.getItemsList().stream().map(InstanceWithNamedPorts::getInstance).toList());
  }
}
