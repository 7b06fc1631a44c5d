package io.clusterresolver.gce;

import com.google.gson.stream.JsonReader;
import io.clusterresolver.google.GoogleJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

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

  /** Nobody to tell of an instance as it is read. */
  private static final Consumer<GceInstance> NOT_WATCHED = instance -> { };

  InstancePage {
    instances = List.copyOf(instances);
    unreachable = Collections.unmodifiableSortedSet(new TreeSet<>(unreachable));
  }

  /** Reads an {@code InstanceAggregatedList}: {@code items} maps each scope to its instances and warning. */
  static InstancePage readAggregated(JsonReader in) throws IOException {
    return read(in, true, NOT_WATCHED);
  }

  /**
   * Reads an {@code InstanceAggregatedList}, telling {@code seen} of each instance the moment it is read (while the
   * rest of the page is still coming): what an instance needs besides the listing can be asked before the page ends.
   */
  static InstancePage readAggregated(JsonReader in, Consumer<GceInstance> seen) throws IOException {
    return read(in, true, seen);
  }

  /** Reads an {@code InstanceList}: {@code items} is the zone's instances. */
  static InstancePage readList(JsonReader in) throws IOException {
    return read(in, false, NOT_WATCHED);
  }

  /** Reads an {@code InstanceList}, telling {@code seen} of each instance the moment it is read. */
  static InstancePage readList(JsonReader in, Consumer<GceInstance> seen) throws IOException {
    return read(in, false, seen);
  }

  private static InstancePage read(JsonReader in, boolean aggregated, Consumer<GceInstance> seen) throws IOException {
    Fields page = new Fields(seen);
    for (String field = GoogleJson.firstField(in); field != null; field = GoogleJson.nextField(in)) {
      switch (field) {
        case "kind" -> page.kind = GoogleJson.string(in);
        case "nextPageToken" -> page.nextPageToken = GoogleJson.string(in);
        case "unreachables" -> page.unreachable.addAll(GoogleJson.list(in, GoogleJson::string));
        case "items" -> {
          if (aggregated) {
            for (String scope = GoogleJson.firstField(in); scope != null; scope = GoogleJson.nextField(in)) {
              scoped(in, scope, page);
            }
          } else {
            page.instances(in);
          }
        }
        default -> in.skipValue();
      }
    }
    return new InstancePage(page.kind, page.nextPageToken, page.instances, page.unreachable);
  }

  /** Reads one scope's {@code InstancesScopedList} into the page: its instances, and the scope if UNREACHABLE. */
  private static void scoped(JsonReader in, String scope, Fields page) throws IOException {
    for (String field = GoogleJson.firstField(in); field != null; field = GoogleJson.nextField(in)) {
      switch (field) {
        case "instances" -> page.instances(in);
        case "warning" -> {
          if ("UNREACHABLE".equals(GoogleJson.member(in, "code", GoogleJson::string, ""))) {
            page.unreachable.add(scope);
          }
        }
        default -> in.skipValue();
      }
    }
  }

  /** A page's fields as they are read. */
  private static final class Fields {
    final Consumer<GceInstance> seen;
    String kind = "";
    String nextPageToken = "";
    final List<GceInstance> instances = new ArrayList<>();
    final Set<String> unreachable = new TreeSet<>();

    Fields(Consumer<GceInstance> seen) {
      this.seen = seen;
    }

    /** Reads a list of instances ({@code null}: none), each told to {@link #seen} as it is read. */
    void instances(JsonReader in) throws IOException {
      instances.addAll(GoogleJson.list(in, this::instance));
    }

    private GceInstance instance(JsonReader in) throws IOException {
      GceInstance instance = GceInstance.read(in);
      seen.accept(instance);
      return instance;
    }
  }
}
