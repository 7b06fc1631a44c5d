package io.clusterresolver.gce;

import com.google.api.gax.rpc.RequestParamsBuilder;
import com.google.api.gax.core.CredentialsProvider;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.google.GoogleApi;
import io.clusterresolver.google.GoogleCalls;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The Compute Engine calls of a resolve, the {@code GET}s {@code instances.aggregatedList}, {@code instances.list}
 * and {@code machineTypes.get} and the {@code POST} {@code instanceGroups.listInstances}, through
 * {@link GoogleCalls}: the requests of google-cloud-compute's {@code HttpJsonInstancesStub},
 * {@code HttpJsonMachineTypesStub} and {@code HttpJsonInstanceGroupsStub} (same paths, query parameters, routing
 * header and body), each answer streamed into a record ({@link InstancePage}, {@link GroupMembersPage}, a GPU count)
 * instead of the SDK's protobuf messages (whose first use builds Compute Engine's whole descriptor, and which
 * {@code JsonFormat} fills field by field, reflectively). The client is built on the first call (so creating a
 * resolver touches neither the network nor the credentials) and kept. Each call runs with what is left of the
 * resolve's deadline and is made once: the kit's {@code CloudApi} retries it ({@link GceFailures#API}), Compute
 * Engine's rate-quota answer (403 {@code rateLimitExceeded}, which the SDK would take for a permission error) included.
 */
final class ComputeCalls {

  /** Compute Engine's largest page. */
  static final int PAGE_SIZE = 500;

  /** Read-only access to Compute Engine is all the provider needs. */
  static final String SCOPE = "https://www.googleapis.com/auth/compute.readonly";

  private static final GoogleCalls.Method<InstancePage> AGGREGATED_LIST = GoogleCalls.get(
      "google.cloud.compute.v1.Instances/AggregatedList", "/compute/v1/projects/{project}/aggregated/instances",
      InstancePage::readAggregated);

  private static final GoogleCalls.Method<InstancePage> LIST = GoogleCalls.get(
      "google.cloud.compute.v1.Instances/List", "/compute/v1/projects/{project}/zones/{zone}/instances",
      InstancePage::readList);

  private static final GoogleCalls.Method<MachineTypeGpus.Answer> MACHINE_TYPE = GoogleCalls.get(
      "google.cloud.compute.v1.MachineTypes/Get",
      "/compute/v1/projects/{project}/zones/{zone}/machineTypes/{machineType}", MachineTypeGpus.Answer::read);

  private static final GoogleCalls.Method<GroupMembersPage> GROUP_MEMBERS = GoogleCalls.get(
      "google.cloud.compute.v1.InstanceGroups/ListInstances",
      "/compute/v1/projects/{project}/zones/{zone}/instanceGroups/{instanceGroup}/listInstances",
      GroupMembersPage::read);

  private final Supplier<GoogleCalls> calls;

  /**
   * @param endpoint the API endpoint, or {@code null} for Google's
   * @param credentials the {@code credentials} property's credentials, loaded on the first call
   */
  ComputeCalls(URI endpoint, CredentialsProvider credentials, AnswerLimit limit) {
    this.calls = new GoogleApi(endpoint, credentials, limit).client(rest -> new GoogleCalls(rest,
        "compute.googleapis.com:443"));
  }

  /**
   * One page of every zone's instances (partial success asked for: the caller refuses unreachable zones), each
   * instance told to {@code seen} as it is read.
   */
  InstancePage aggregatedList(String project, String filter, String token, Duration remaining,
      Consumer<GceInstance> seen) {
    Map<String, List<String>> query = query(filter, token);
    query.put("returnPartialSuccess", List.of("true"));
    return calls.get().call(watched(AGGREGATED_LIST, in -> InstancePage.readAggregated(in, seen)),
        new GoogleCalls.Get(Map.of("project", project), query, routing(project)), remaining);
  }

  /** One page of one zone's instances, each told to {@code seen} as it is read. */
  InstancePage list(String project, String zone, String filter, String token, Duration remaining,
      Consumer<GceInstance> seen) {
    return calls.get().call(watched(LIST, in -> InstancePage.readList(in, seen)),
        new GoogleCalls.Get(Map.of("project", project, "zone", zone), query(filter, token), routing(project)),
        remaining);
  }

  /**
   * One page of an instance group's members: the {@code POST} of an {@code InstanceGroupsListInstancesRequest}.
   *
   * @param instanceState {@code RUNNING} (only the running members) or {@code ALL}
   */
  GroupMembersPage groupMembers(String project, String zone, String group, String instanceState, String token,
      Duration remaining) {
    RequestParamsBuilder routing = RequestParamsBuilder.create();
    routing.add("instance_group", group);
    routing.add("project", project);
    routing.add("zone", zone);
    // The body as the SDK's stub writes an InstanceGroupsListInstancesRequest (the state is a bare word: no escaping).
    return calls.get().post(GROUP_MEMBERS, new GoogleCalls.Get(Map.of("project", project, "zone", zone, "instanceGroup",
        group), query("", token), routing.build()), "{\"instanceState\":\"" + instanceState + "\"}", remaining);
  }

  /** {@code method} with its answer read by {@code answer} (the path template is parsed once, in the constant). */
  private static GoogleCalls.Method<InstancePage> watched(GoogleCalls.Method<InstancePage> method,
      GoogleCalls.Answer<InstancePage> answer) {
    return new GoogleCalls.Method<>(method.fullName(), method.path(), answer);
  }

  /** A machine type's bundled GPUs. */
  MachineTypeGpus.Answer machineType(String project, String zone, String type, Duration remaining) {
    RequestParamsBuilder routing = RequestParamsBuilder.create();
    routing.add("machine_type", type);
    routing.add("project", project);
    routing.add("zone", zone);
    return calls.get().call(MACHINE_TYPE, new GoogleCalls.Get(Map.of("project", project, "zone", zone, "machineType", type),
        Map.of(), routing.build()), remaining);
  }

  private static Map<String, List<String>> query(String filter, String token) {
    Map<String, List<String>> query = new LinkedHashMap<>();
    if (!filter.isEmpty()) {
      query.put("filter", List.of(filter));
    }
    query.put("maxResults", List.of(Integer.toString(PAGE_SIZE)));
    if (token != null) {
      query.put("pageToken", List.of(token));
    }
    return query;
  }

  /** The {@code x-goog-request-params} header the SDK's stub sends. */
  private static Map<String, String> routing(String project) {
    RequestParamsBuilder params = RequestParamsBuilder.create();
    params.add("project", project);
    return params.build();
  }
}
