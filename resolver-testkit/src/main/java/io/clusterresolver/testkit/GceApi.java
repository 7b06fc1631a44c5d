package io.clusterresolver.testkit;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The Compute Engine operations of {@link SimulatedGce}: listings with pages and filters, get, groups, machine types. */
final class GceApi {

  private static final Pattern PATH = Pattern.compile(
      "/compute/v1/projects/([^/]+)/(?:aggregated/instances|zones/([^/]+)/(?:instances(?:/([^/]+))?"
          + "|instanceGroups/([^/]+)/listInstances|machineTypes/([^/]+)))");
  private static final Pattern INSTANCE_STATE = Pattern.compile("\"instanceState\"\\s*:\\s*\"([A-Z]+)\"");

  private GceApi() {}

  static ResponseDefinition answer(SimulatedGce sim, String operation, SimulatedApi.Call call) {
    String path = call.path();
    Map<String, String> params = call.query();
    String body = call.body();
    Matcher m = PATH.matcher(path);
    if ("(unknown)".equals(operation) || !m.matches()) {
      throw GceJson.ApiError.notFound("The requested URL " + path + " was not found on this server.");
    }
    String project = m.group(1);
    if (!project.equals(sim.projectName())) {
      throw GceJson.ApiError.notFound("The resource 'projects/" + project + "' was not found");
    }
    String zone = m.group(2);
    if (zone != null && !sim.zones().contains(zone)) {
      throw GceJson.ApiError.notFound("The resource 'projects/" + project + "/zones/" + zone + "' was not found");
    }
    boolean paged = !operation.equals("instances.get") && !operation.equals("machineTypes.get");
    int[] position = paged && params.containsKey("pageToken") && !params.get("pageToken").isEmpty()
        ? GceJson.decodeToken(params.get("pageToken")) : new int[] {1, 0};
    int pageSize = paged ? pageSize(sim, params) : 0;
    Fault fault = sim.fault(operation, position[0]);
    if (SimulatedApi.fails(fault)) {
      return sim.faulted(fault, call);
    }
    long delay = sim.delay(fault);
    String prefix = GceJson.API + "projects/" + project;
    switch (operation) {
      case "instances.aggregatedList":
        return GceJson.json(200, aggregated(sim, params, position, pageSize, prefix), delay);
      case "instances.list":
        return GceJson.json(200, list(sim, zone, params, position, pageSize, prefix), delay);
      case "instances.get": {
        SimulatedGceInstance i = sim.instance(m.group(3));
        if (i == null || !i.zone().equals(zone)) {
          throw GceJson.ApiError.notFound("The resource '" + "projects/" + project + "/zones/" + zone + "/instances/"
              + m.group(3) + "' was not found");
        }
        StringBuilder out = new StringBuilder();
        GceJson.instance(out, project, i);
        return GceJson.json(200, out.toString(), delay);
      }
      case "instanceGroups.listInstances":
        return GceJson.json(200, groupMembers(sim, zone, m.group(4), body, position, pageSize, prefix), delay);
      default:
        return GceJson.json(200, machineType(sim, zone, m.group(5), prefix), delay);
    }
  }

  private static int pageSize(SimulatedGce sim, Map<String, String> params) {
    int max = SimulatedGce.MAX_RESULTS;
    if (params.containsKey("maxResults")) {
      String text = params.get("maxResults");
      try {
        max = Integer.parseInt(text);
      } catch (NumberFormatException e) {
        throw GceJson.ApiError.invalid("Invalid value for field 'maxResults': '" + text + "'. Must be an integer.");
      }
      if (max > SimulatedGce.MAX_RESULTS) {
        throw GceJson.ApiError.invalid("Invalid value for field 'maxResults': '" + text
            + "'. Must be less than or equal to 500");
      }
      if (max < 0) {
        throw GceJson.ApiError.invalid("Invalid value for field 'maxResults': '" + text
            + "'. Must be greater than or equal to 0");
      }
      max = max == 0 ? SimulatedGce.MAX_RESULTS : max;
    }
    return Math.min(max, sim.pageCapValue());
  }

  private static List<SimulatedGceInstance> matching(SimulatedGce sim, String zone, Map<String, String> params) {
    GceFilter filter = GceFilter.parse(params.get("filter"));
    List<SimulatedGceInstance> out = new ArrayList<>();
    for (SimulatedGceInstance i : sim.sortedInstances()) {
      if ((zone == null || i.zone().equals(zone)) && filter.matches(i)) {
        out.add(i);
      }
    }
    return out;
  }

  private static String aggregated(SimulatedGce sim, Map<String, String> params, int[] position, int pageSize,
      String prefix) {
    boolean partial = "true".equals(params.get("returnPartialSuccess"));
    List<String> unreachable = new ArrayList<>();
    for (String zone : sim.zones()) {
      if (sim.isUnreachable(zone)) {
        unreachable.add("zones/" + zone);
      }
    }
    if (!unreachable.isEmpty() && !partial) {
      throw new GceJson.ApiError(503, "backendError", "UNAVAILABLE", "The service is currently unavailable in "
          + String.join(", ", unreachable) + ".");
    }
    List<SimulatedGceInstance> all = new ArrayList<>();
    for (SimulatedGceInstance i : matching(sim, null, params)) {
      if (!sim.isUnreachable(i.zone())) {
        all.add(i);
      }
    }
    int end = Math.min(all.size(), position[1] + pageSize);
    Map<String, List<SimulatedGceInstance>> byZone = new TreeMap<>();
    sim.zones().forEach(z -> byZone.put(z, new ArrayList<>()));
    for (SimulatedGceInstance i : all.subList(position[1], end)) {
      byZone.get(i.zone()).add(i);
    }
    StringBuilder out = new StringBuilder(256 + (end - position[1]) * 1300);
    out.append("{\"kind\":\"compute#instanceAggregatedList\",\"id\":\"projects/").append(sim.projectName())
        .append("/aggregated/instances\",\"items\":{");
    boolean first = true;
    for (Map.Entry<String, List<SimulatedGceInstance>> scope : byZone.entrySet()) {
      String key = "zones/" + scope.getKey();
      out.append(first ? "" : ",").append('"').append(key).append("\":{");
      first = false;
      if (sim.isUnreachable(scope.getKey())) {
        out.append("\"warning\":").append(GceJson.warning("UNREACHABLE", "Scope '" + key + "' is unreachable.", key));
      } else if (scope.getValue().isEmpty()) {
        out.append("\"warning\":").append(GceJson.warning("NO_RESULTS_ON_PAGE",
            "There are no results for scope '" + key + "' on this page.", key));
      } else {
        instances(out, sim, "instances", scope.getValue());
      }
      out.append('}');
    }
    out.append('}');
    if (!unreachable.isEmpty()) {
      out.append(",\"unreachables\":[");
      for (int n = 0; n < unreachable.size(); n++) {
        out.append(n == 0 ? "" : ",").append(GceJson.str(unreachable.get(n)));
      }
      out.append(']');
    }
    return page(out, end < all.size(), position[0], end, prefix + "/aggregated/instances");
  }

  private static String list(SimulatedGce sim, String zone, Map<String, String> params, int[] position, int pageSize,
      String prefix) {
    List<SimulatedGceInstance> all = matching(sim, zone, params);
    int end = Math.min(all.size(), position[1] + pageSize);
    StringBuilder out = new StringBuilder(256 + (end - position[1]) * 1300);
    out.append("{\"kind\":\"compute#instanceList\",\"id\":\"projects/").append(sim.projectName()).append("/zones/")
        .append(zone).append("/instances\",");
    instances(out, sim, "items", all.subList(position[1], end));
    return page(out, end < all.size(), position[0], end, prefix + "/zones/" + zone + "/instances");
  }

  private static void instances(StringBuilder out, SimulatedGce sim, String field, List<SimulatedGceInstance> page) {
    out.append('"').append(field).append("\":[");
    for (int n = 0; n < page.size(); n++) {
      if (n > 0) {
        out.append(',');
      }
      GceJson.instance(out, sim.projectName(), page.get(n));
    }
    out.append(']');
  }

  private static String groupMembers(SimulatedGce sim, String zone, String group, String body, int[] position,
      int pageSize, String prefix) {
    List<String> names = sim.group(zone, group);
    if (names == null) {
      throw GceJson.ApiError.notFound("The resource 'projects/" + sim.projectName() + "/zones/" + zone
          + "/instanceGroups/" + group + "' was not found");
    }
    Matcher state = INSTANCE_STATE.matcher(body == null ? "" : body);
    String wanted = state.find() ? state.group(1) : "ALL";
    if (!wanted.equals("ALL") && !wanted.equals("RUNNING")) {
      throw GceJson.ApiError.invalid("Invalid value for field 'resource.instanceState': '" + wanted + "'.");
    }
    List<String[]> members = new ArrayList<>();
    for (String name : names) {
      SimulatedGceInstance i = sim.instance(name);
      String status = i == null ? "RUNNING" : i.status();
      if (wanted.equals("ALL") || status.equals("RUNNING")) {
        members.add(new String[] {name, status});
      }
    }
    int end = Math.min(members.size(), position[1] + pageSize);
    StringBuilder out = new StringBuilder();
    out.append("{\"kind\":\"compute#instanceGroupsListInstances\",\"id\":\"projects/").append(sim.projectName())
        .append("/zones/").append(zone).append("/instanceGroups/").append(group).append("/listInstances\"");
    if (end > position[1]) {
      out.append(",\"items\":[");
      for (int n = position[1]; n < end; n++) {
        out.append(n == position[1] ? "" : ",").append("{\"instance\":\"").append(prefix).append("/zones/").append(zone)
            .append("/instances/").append(members.get(n)[0]).append("\",\"status\":\"").append(members.get(n)[1])
            .append("\"}");
      }
      out.append(']');
    }
    return page(out, end < members.size(), position[0], end, prefix + "/zones/" + zone + "/instanceGroups/" + group);
  }

  private static String machineType(SimulatedGce sim, String zone, String name, String prefix) {
    int[] type = sim.machineType(name);
    if (type == null) {
      throw GceJson.ApiError.notFound("The resource 'projects/" + sim.projectName() + "/zones/" + zone
          + "/machineTypes/" + name + "' was not found");
    }
    StringBuilder out = new StringBuilder("{\"kind\":\"compute#machineType\",\"id\":\"")
        .append(Math.abs((long) name.hashCode()) + 1000).append("\",\"creationTimestamp\":\"1969-12-31T16:00:00.000-08:00\",")
        .append("\"name\":").append(GceJson.str(name)).append(",\"description\":\"simulated\",\"guestCpus\":8,")
        .append("\"memoryMb\":32768,\"maximumPersistentDisks\":128,\"maximumPersistentDisksSizeGb\":\"263168\",")
        .append("\"zone\":\"").append(zone).append("\",\"isSharedCpu\":false");
    if (type[0] > 0) {
      out.append(",\"accelerators\":[{\"guestAcceleratorType\":").append(GceJson.str(sim.machineTypeGpu(name)))
          .append(",\"guestAcceleratorCount\":").append(type[0]).append("}]");
    }
    return out.append(",\"selfLink\":\"").append(prefix).append("/zones/").append(zone).append("/machineTypes/")
        .append(name).append("\"}").toString();
  }

  private static String page(StringBuilder out, boolean more, int page, int end, String selfLink) {
    if (more) {
      out.append(",\"nextPageToken\":\"").append(GceJson.encodeToken(page + 1, end)).append('"');
    }
    return out.append(",\"selfLink\":\"").append(selfLink).append("\"}").toString();
  }
}
