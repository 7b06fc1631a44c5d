package io.clusterresolver.gce;

import com.google.gson.stream.JsonReader;
import io.clusterresolver.google.GoogleJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One page of {@code instances.aggregatedList} or {@code instances.list}, as much of it as a resolve reads.
 *
 * @param kind the answer's {@code kind} (every Compute Engine answer names it)
 * @param nextPageToken the next page's token, {@code ""} on the last page
 * @param instances the page's instances (of every zone, for an aggregated page)
 * @param unreachable the zones the aggregated page could not reach, sorted: {@code unreachables}, and every
 *     scope whose warning is {@code UNREACHABLE}
 */
record InstancePage(String kind, String nextPageToken, List<GceInstance> instances, Set<String> unreachable) {

  InstancePage {
    instances = List.copyOf(instances);
    unreachable = Collections.unmodifiableSortedSet(new TreeSet<>(unreachable));
  }

  /** Reads an {@code InstanceAggregatedList}: {@code items} maps each scope to its instances and warning. */
  static InstancePage readAggregated(JsonReader in) throws IOException {
    return read(in, true);
  }

  /** Reads an {@code InstanceList}: {@code items} is the zone's instances. */
  static InstancePage readList(JsonReader in) throws IOException {
    return read(in, false);
  }

  private static InstancePage read(JsonReader in, boolean aggregated) throws IOException {
    String[] text = {"", ""};
    List<GceInstance> instances = new ArrayList<>();
    Set<String> unreachable = new TreeSet<>();
    GoogleJson.object(in, (field, r) -> {
      switch (field) {
        case "kind":
          text[0] = GoogleJson.string(r);
          return true;
        case "nextPageToken":
          text[1] = GoogleJson.string(r);
          return true;
        case "unreachables":
          unreachable.addAll(GoogleJson.list(r, GoogleJson::string));
          return true;
        case "items":
          if (aggregated) {
            GoogleJson.object(r, (scope, s) -> {
              if (scoped(s, instances)) {
                unreachable.add(scope);
              }
              return true;
            });
          } else {
            instances.addAll(GoogleJson.list(r, GceInstance::read));
          }
          return true;
        default:
          return false;
      }
    });
    return new InstancePage(text[0], text[1], instances, unreachable);
  }

  /** Reads one scope's {@code InstancesScopedList} into {@code instances}: whether its warning is UNREACHABLE. */
  private static boolean scoped(JsonReader in, List<GceInstance> instances) throws IOException {
    boolean[] unreachable = {false};
    GoogleJson.object(in, (field, r) -> {
      switch (field) {
        case "instances":
          instances.addAll(GoogleJson.list(r, GceInstance::read));
          return true;
        case "warning":
          unreachable[0] = "UNREACHABLE".equals(GoogleJson.member(r, "code", GoogleJson::string, ""));
          return true;
        default:
          return false;
      }
    });
    return unreachable[0];
  }
}
