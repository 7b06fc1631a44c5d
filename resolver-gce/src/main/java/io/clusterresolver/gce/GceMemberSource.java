package io.clusterresolver.gce;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.CatalogCache;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.cloud.MembersLeftOut;
import io.clusterresolver.cloud.NotTheApiException;
import io.clusterresolver.cloud.OnceNoted;
import io.clusterresolver.cloud.RequiredLabels;
import io.clusterresolver.google.ResourceNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Lists Compute Engine instances as members, in as few calls as the API allows: one
 * {@code instances.aggregatedList} (every page of 500, server-side filter, partial success
 * refused), or one {@code instances.list} per configured zone, or an instance group's member URLs
 * joined to ONE listing of its zone — never one call per instance. TPU VM hosts are left out;
 * bundled GPUs come from {@code machineTypes.get}, once per zone and type for the JVM.
 */
final class GceMemberSource implements MemberSource {

  private static final System.Logger LOG = System.getLogger(GceMemberSource.class.getName());

  /** What to list. */
  record Query(String project, List<String> zones, RequiredLabels labels, List<String> states,
      String instanceGroup, String groupZone) {}

  private final ComputeCalls compute;
  private final Query query;
  private final AddressType address;
  private final Duration timeout;
  private final String scope;
  private final Runnable onListing;
  private final OnceNoted reportedWithoutAddress = new OnceNoted();

  /**
   * @param scope the API endpoint, for the catalog of machine types
   * @param onListing run when a listing starts (asks this process's identity in the background)
   */
  GceMemberSource(ComputeCalls compute, Query query, AddressType address, Duration timeout, String scope,
      Runnable onListing) {
    this.onListing = onListing;
    this.compute = compute;
    this.query = query;
    this.address = address;
    this.timeout = timeout;
    this.scope = scope;
  }

  @Override
  public List<Member> members() {
    CloudApi.Session session = GceFailures.API.session(timeout);
    onListing.run(); // this process's identity, asked while the pages come
    CatalogCache.Prefetch<Integer> types = MachineTypeGpus.prefetch(compute, session, scope, query.project());
    try {
      return list(session, types);
    } finally {
      types.cancel(); // no call outlives the resolve
    }
  }

  private List<Member> list(CloudApi.Session session, CatalogCache.Prefetch<Integer> types) {
    List<GceInstance> listed = query.instanceGroup() != null ? groupMembers(session, types)
        : query.zones().isEmpty() ? aggregated(session, types) : perZone(session, types);
    List<Member> members = new ArrayList<>(listed.size());
    MembersLeftOut withoutAddress = MembersLeftOut.of(GceClusterResolverProvider.NAME, "instance(s)", address, "on nic0");
    for (GceInstance i : listed) {
      if (!selected(i)) {
        continue;
      }
      String chosen = InstanceFacts.address(address, i).orElse(null);
      String id = InstanceFacts.memberId(i.id());
      if (chosen == null) {
        if (reportedWithoutAddress.first(id)) {
          withoutAddress.add(i.name() + " (" + i.status() + ")");
        }
        continue;
      }
      members.add(Member.builder(id, chosen).name(i.name()).creationTime(InstanceFacts.creationTime(i))
          .labels(i.labels()).accelerators("GPU", gpus(i, types)).build());
    }
    withoutAddress.log(LOG);
    return members;
  }

  /** Whether the query selects {@code i} (its state and labels; never a TPU VM's host): a member if it has an address. */
  private boolean selected(GceInstance i) {
    return !InstanceFacts.isTpuVmHost(i) && query.states().contains(i.status()) && query.labels().matches(i.labels());
  }

  /**
   * The page, when it is a Compute Engine answer: every one names its {@code kind}, so a 200 from
   * something else (a proxy's page, a wrong endpoint) is an error instead of an empty cluster.
   */
  private static <P> P compute(P page, Function<P, String> kind, String expected) {
    return NotTheApiException.require(page, expected.equals(kind.apply(page)),
        "no \"kind\": \"" + expected + "\"");
  }

  private static int gpus(GceInstance i, CatalogCache.Prefetch<Integer> types) {
    int attached = i.guestGpus();
    String type = ResourceNames.lastSegment(i.machineType());
    if (attached > 0 || !InstanceFacts.hasBundledGpus(type)) {
      return attached;
    }
    String zonalType = ResourceNames.lastSegment(i.zone()) + "/" + type;
    return types.await(List.of(zonalType)).get(zonalType);
  }

  /**
   * Asks for an instance's machine type as soon as it is read, when {@link #list} will need it: a member (as its
   * loop selects them) whose GPUs only its type tells.
   */
  private void lookUpType(GceInstance i, CatalogCache.Prefetch<Integer> types) {
    String type = ResourceNames.lastSegment(i.machineType());
    if (i.guestGpus() == 0 && InstanceFacts.hasBundledGpus(type) && selected(i)
        && InstanceFacts.address(address, i).isPresent()) {
      types.start(List.of(ResourceNames.lastSegment(i.zone()) + "/" + type));
    }
  }

  /** The server-side filter: labels (exact) and, when only one state is asked for, the status. */
  String filter(boolean withLabels) {
    List<String> terms = new ArrayList<>();
    if (withLabels) {
      query.labels().wanted().forEach((k, v) -> terms.add("(labels." + k + " = \"" + v + "\")"));
    }
    if (query.states().size() == 1) {
      terms.add("(status = \"" + query.states().get(0) + "\")");
    }
    return String.join(" AND ", terms);
  }

  private List<GceInstance> aggregated(CloudApi.Session session, CatalogCache.Prefetch<Integer> types) {
    List<GceInstance> instances = new ArrayList<>();
    String filter = filter(true);
    session.forEachPage("instances.aggregatedList",
        (token, remaining) -> compute(compute.aggregatedList(query.project(), filter, token, remaining,
            i -> lookUpType(i, types)),
            InstancePage::kind, "compute#instanceAggregatedList"),
        InstancePage::nextPageToken,
        page -> {
          Set<String> unreachable = page.unreachable();
          instances.addAll(page.instances());
          if (!unreachable.isEmpty()) {
            throw new ClusterResolverException("gce: instances.aggregatedList of project " + query.project()
                + " could not reach " + String.join(", ", unreachable) + " (a partial answer): the cluster would miss"
                + " that zone's instances; retry, or list only other zones with clusterresolver.gce.zones");
          }
        });
    return instances;
  }

  private List<GceInstance> perZone(CloudApi.Session session, CatalogCache.Prefetch<Integer> types) {
    List<GceInstance> instances = new ArrayList<>();
    String filter = filter(true);
    for (String zone : query.zones()) {
      session.forEachPage("instances.list " + zone,
          (token, remaining) -> compute(compute.list(query.project(), zone, filter, token, remaining,
              i -> lookUpType(i, types)), InstancePage::kind, "compute#instanceList"),
          InstancePage::nextPageToken,
          page -> instances.addAll(page.instances()));
    }
    return instances;
  }

  /** The group's member URLs (every page), joined to one listing of its zone (labels applied here). */
  private List<GceInstance> groupMembers(CloudApi.Session session, CatalogCache.Prefetch<Integer> types) {
    String zone = query.groupZone();
    Set<String> names = new LinkedHashSet<>();
    String state = query.states().equals(List.of("RUNNING")) ? "RUNNING" : "ALL";
    session.forEachPage("instanceGroups.listInstances " + zone + "/" + query.instanceGroup(),
        (token, remaining) -> compute(compute.groupMembers(query.project(), zone, query.instanceGroup(), state, token,
            remaining), GroupMembersPage::kind, "compute#instanceGroupsListInstances"),
        GroupMembersPage::nextPageToken,
        page -> page.instances().forEach(url -> names.add(ResourceNames.lastSegment(url))));
    if (names.isEmpty()) {
      return List.of();
    }
    Map<String, GceInstance> byName = new LinkedHashMap<>();
    String filter = filter(false);
    session.forEachPage("instances.list " + zone,
        (token, remaining) -> compute(compute.list(query.project(), zone, filter, token, remaining, i -> {
          if (names.contains(i.name())) {
            lookUpType(i, types); // the zone's other instances are not the group's
          }
        }), InstancePage::kind, "compute#instanceList"),
        InstancePage::nextPageToken,
        page -> page.instances().forEach(i -> byName.put(i.name(), i)));
    List<GceInstance> members = new ArrayList<>(names.size());
    List<String> missing = new ArrayList<>();
    for (String name : names) {
      GceInstance i = byName.get(name);
      if (i == null) {
        missing.add(name);
      } else {
        members.add(i);
      }
    }
    if (!missing.isEmpty()) {
      throw new ClusterResolverException("gce: instance group " + query.instanceGroup() + " lists "
          + String.join(", ", missing.subList(0, Math.min(20, missing.size()))) + (missing.size() > 20 ? ", …" : "")
          + " but the listing of zone " + zone + " does not have " + (missing.size() == 1 ? "it" : "them")
          + " (deleted or changed state between the two calls): retry");
    }
    return members;
  }
}
