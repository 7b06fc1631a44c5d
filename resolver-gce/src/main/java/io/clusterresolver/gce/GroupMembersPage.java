package io.clusterresolver.gce;

import com.google.gson.stream.JsonReader;
import io.clusterresolver.google.GoogleJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One page of {@code instanceGroups.listInstances} ({@code InstanceGroupsListInstances}), as much of it as a resolve
 * reads.
 *
 * @param kind the answer's {@code kind} (every Compute Engine answer names it)
 * @param nextPageToken the next page's token, {@code ""} on the last page
 * @param instances each member's instance URL ({@code items[].instance}), in the page's order
 */
record GroupMembersPage(String kind, String nextPageToken, List<String> instances) {

  GroupMembersPage {
    instances = List.copyOf(instances);
  }

  /** Reads the page: of each {@code InstanceWithNamedPorts}, only its {@code instance} URL. */
  static GroupMembersPage read(JsonReader in) throws IOException {
    String kind = "";
    String nextPageToken = "";
    List<String> instances = new ArrayList<>();
    for (String field = GoogleJson.firstField(in); field != null; field = GoogleJson.nextField(in)) {
      switch (field) {
        case "kind" -> kind = GoogleJson.string(in);
        case "nextPageToken" -> nextPageToken = GoogleJson.string(in);
        case "items" -> instances.addAll(GoogleJson.list(in,
            item -> GoogleJson.member(item, "instance", GoogleJson::string, "")));
        default -> in.skipValue();
      }
    }
    return new GroupMembersPage(kind, nextPageToken, instances);
  }
}
