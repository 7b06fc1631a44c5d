package io.clusterresolver.azure;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.CatalogCache;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.InBackground;
import io.clusterresolver.cloud.RetryPolicy;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.cloud.MembersLeftOut;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lists Azure VMs as members, in pages, never one call per VM:
 *
 * <ul>
 *   <li>standalone VMs (and Flexible scale sets): one VM listing with the power state in it
 *       ({@code $expand=instanceView} in a resource group, {@code statusOnly=true} across the
 *       subscription) and one network-interface listing joined on the VM id;
 *   <li>Uniform scale sets: the scale set's VM listing ({@code $expand=instanceView}) and its own
 *       network-interface listing;
 *   <li>the network-interface (and public-IP) listing fetched on another thread, from the first VM
 *       page on, while the VMs are listed, so that their requests are in flight together;
 *   <li>public IPs from one public-IP listing, only for {@code address=public-ipv4}; GPUs from
 *       Resource SKUs, once per location for the JVM: the first listed VM's location on another
 *       thread too, while the VMs and NICs are listed, the others (if any) after them.
 * </ul>
 *
 * Members are the VMs whose tags match and whose power state is {@code PowerState/running}
 * (provisioning state is not consulted). Ids are ARM resource ids in lower case, since ARM returns
 * the same id in different cases.
 */
final class AzureMemberSource implements MemberSource {

  private static final System.Logger LOG = System.getLogger(AzureMemberSource.class.getName());
  static final String PROVIDER = AzureClusterResolverProvider.NAME;
  static final String RUNNING = "PowerState/running";
  /**
   * The label holding a Uniform scale-set instance's rank, its instance id (a name no Azure tag can have: tag names
   * exclude '/'). A scale set's default order ranks by it, and Flexible members, which have none, by creation time.
   */
  static final String RANK_LABEL = "azure/rank";

  static final CloudApi API = CloudApi.builder(PROVIDER, ArmFailures::read)
      .apiName("Azure Resource Manager")
      .permissions("Microsoft.Compute/virtualMachines/read, Microsoft.Compute/virtualMachineScaleSets/read,"
          + " Microsoft.Compute/virtualMachineScaleSets/virtualMachines/read, Microsoft.Network/networkInterfaces/read,"
          + " Microsoft.Network/publicIPAddresses/read and Microsoft.Compute/skus/read (the Reader role has them all)")
      .credentialsHint("set clusterresolver.azure.access-token, or give the default chain credentials (a managed"
          + " identity, with clusterresolver.azure.client-id for a user-assigned one; AZURE_CLIENT_ID/AZURE_TENANT_ID/"
          + "AZURE_CLIENT_SECRET; the Azure CLI login)")
      .retryPolicy(RetryPolicy.builder().maxAttempts(10).maxBackoff(Duration.ofSeconds(8)).build())
      .build();

  private final ArmClients arm;
  private final Scope scope;
  private final TagMatcher tags;
  private final AddressType address;
  private final Duration timeout;
  private final SkuAccelerators skus;
  /** Run as a listing starts: asks this VM's identity meanwhile (a metadata round trip off the critical path). */
  private final Runnable onListing;
  /** The scale set's id and orchestration mode: neither changes while the set exists. */
  private final AtomicReference<ScaleSet> scaleSet = new AtomicReference<>();

  /** Where the VMs are: a subscription, a resource group in it, a scale set in that. */
  record Scope(String armScope, String resourceGroup, String scaleSet) {}

  /** Endpoints (and subscriptions) whose resource-group VM listing refused {@code $expand=instanceView}. */
  private static final Set<String> EXPAND_REFUSED = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private record ScaleSet(String id, boolean uniform) {}

  AzureMemberSource(ArmClients arm, Scope scope, TagMatcher tags, AddressType address, Duration timeout,
      SkuAccelerators skus, Runnable onListing) {
    this.arm = arm;
    this.scope = scope;
    this.tags = tags;
    this.address = address;
    this.timeout = timeout;
    this.skus = skus;
    this.onListing = onListing;
  }

  @Override
  public List<Member> members() {
    CloudApi.Session session = API.session(timeout);
    onListing.run();
    if (scope.scaleSet() == null) {
      return standalone(session, null);
    }
    ScaleSet set = scaleSet(session);
    return set.uniform() ? uniform(session) : standalone(session, set.id());
  }

  /** One VM as listed: what the layout needs, the NIC and size still to be joined. */
  private record Listed(String id, String name, Instant created, Map<String, String> labels, String location,
      String size, String primaryNic, String instanceId) {}

  private List<Member> standalone(CloudApi.Session session, String scaleSetId) {
    String rg = scope.resourceGroup();
    Listings other = new Listings(session, "NetworkInterfaces.List", arm.networkInterfaces(rg),
        arm.publicIpAddresses(rg));
    try {
      List<Listed> listed = new ArrayList<>();
      if (rg != null && !EXPAND_REFUSED.contains(scope.armScope())) {
        try {
          listVms(session, scaleSetId, false, listed, other);
        } catch (ClusterResolverException e) {
          if (!expandRefused(e)) {
            throw e;
          }
          EXPAND_REFUSED.add(scope.armScope());
          LOG.log(Level.INFO, () -> PROVIDER + ": " + scope.armScope() + " refuses $expand=instanceView in a resource"
              + " group's VM listing; listing the subscription's VMs with statusOnly=true instead (for this JVM)");
          listed.clear();
          listVms(session, scaleSetId, true, listed, other);
        }
      } else {
        listVms(session, scaleSetId, rg != null, listed, other);
      }
      return listed.isEmpty() ? List.of() : join(listed, other);
    } finally {
      other.cancel();
    }
  }

  /**
   * The NIC listing (and the public-IP listing for {@code address=public-ipv4}), each fetched on a
   * thread of its own while the caller lists the VMs: they do not depend on it, and two requests in
   * flight instead of one take about the time of the longer listing, not their sum. They start as the
   * first VM page's answer arrives (a 200, before its body is read and its VMs parsed), not with its
   * request: the VM listing's connection is then up, so theirs can resume its TLS session instead of
   * a second full handshake. A listing that turns out to have no VMs cancels them. The Resource SKUs of the first listed VM's location are fetched the same way
   * from that VM on ({@link #listed}): a resolve of VMs in one location then waits for no SKU request
   * after the listings. Each is one listing of the session (every page, its deadline and retries); a
   * failure of any is the resolve's, and the caller cancels what it no longer needs. Used by the
   * caller's thread only.
   */
  private final class Listings {
    private final CloudApi.Session session;
    private final String nicOperation;
    private final ArmClients.Listing<ArmResources.NetworkInterface> nicListing;
    private final ArmClients.Listing<ArmResources.PublicIp> publicIpListing;
    private InBackground<NicIndex> nics;
    private InBackground<Map<String, String>> publicIps;
    /** The Resource SKUs: the first listed VM's location's loaded from that VM on, unless the JVM knew them. */
    private final CatalogCache.Prefetch<Map<String, Integer>> skuCatalog;
    private boolean located;

    Listings(CloudApi.Session session, String nicOperation,
        ArmClients.Listing<ArmResources.NetworkInterface> nicListing,
        ArmClients.Listing<ArmResources.PublicIp> publicIpListing) {
      this.session = session;
      this.nicOperation = nicOperation;
      this.nicListing = nicListing;
      this.publicIpListing = publicIpListing;
      this.skuCatalog = skus.prefetch(session);
    }

    /** Starts the listings unless they have started. */
    void start() {
      if (nics != null) {
        return;
      }
      nics = InBackground.start("cluster-resolver-azure-nics", () -> {
        NicIndex index = new NicIndex();
        Paging.forEach(session, nicOperation, nicListing, index::add);
        return index;
      });
      if (address == AddressType.PUBLIC_IPV4) {
        publicIps = InBackground.start("cluster-resolver-azure-public-ips", () -> publicIps(session, publicIpListing));
      }
    }

    /** A VM was listed (its tags match, it runs): the SKUs of its location will be read. */
    void listed(String location) {
      if (located || location == null) {
        return;
      }
      located = true;
      skuCatalog.start(List.of(SkuAccelerators.key(location)));
    }

    /** GPUs by size of each of {@code locations}: the first location's awaited, the others listed now. */
    Map<String, Map<String, Integer>> skus(Set<String> locations) {
      return skuCatalog.await(locations);
    }

    NicIndex nics() {
      start();
      return nics.join();
    }

    Map<String, String> publicIpAddresses() {
      start();
      return publicIps == null ? Map.of() : publicIps.join();
    }

    void cancel() {
      if (nics != null) {
        nics.cancel();
      }
      if (publicIps != null) {
        publicIps.cancel();
      }
      skuCatalog.cancel();
    }
  }

  /**
   * One VM listing with the power state in it: the resource group's with {@code $expand=instanceView}
   * (and, for a Flexible scale set, {@code $filter} on its id), or the subscription's with
   * {@code statusOnly=true} ({@code wholeSubscription}: kept to the resource group here).
   */
  private void listVms(CloudApi.Session session, String scaleSetId, boolean wholeSubscription, List<Listed> listed,
      Listings other) {
    String rg = scope.resourceGroup();
    String filter = scaleSetId == null ? null : "'virtualMachineScaleSet/id' eq '" + scaleSetId + "'";
    Paging.<ArmResources.Vm>forEach(session, "VirtualMachines.List",
        rg != null && !wholeSubscription ? arm.virtualMachines(rg, filter, true) : arm.virtualMachinesWithStatus(filter),
        other::start,
        vm -> {
          if (rg != null && wholeSubscription && !rg.equalsIgnoreCase(resourceGroupOf(vm.id()))) {
            return;
          }
          if (scaleSetId != null && !scaleSetId.equalsIgnoreCase(vm.scaleSetId())) {
            return;
          }
          if (!tags.matches(vm.tags()) || !running(vm.statuses())) {
            return;
          }
          String primaryNic = null;
          for (ArmResources.NicReference ref : vm.nics()) {
            if (ref.id() != null && (primaryNic == null || Boolean.TRUE.equals(ref.primary()))) {
              primaryNic = lower(ref.id());
            }
          }
          listed.add(new Listed(lower(vm.id()), vm.name(), vm.created(), tags.labels(vm.tags()), vm.location(),
              vm.size(), primaryNic, null));
          other.listed(vm.location());
        });
  }

  /** Whether ARM refused the first page's {@code $expand=instanceView} (400, as the reference says it may without a filter). */
  private static boolean expandRefused(ClusterResolverException e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof ArmAnswerException answered) {
        ApiFailure failure = answered.failure(); // its message is ARM's error.message, else the status and body
        return failure.httpStatus() == 400 && (failure.message() + " " + answered.getMessage()).contains("$expand");
      }
    }
    return false;
  }

  /** For tests: forget which endpoints refused {@code $expand}. */
  static void clearExpandRefused() {
    EXPAND_REFUSED.clear();
  }

  /** The resource group segment of an ARM id, or {@code null}. */
  static String resourceGroupOf(String id) {
    if (id == null) {
      return null;
    }
    String[] parts = id.split("/");
    for (int i = 0; i + 1 < parts.length; i++) {
      if (parts[i].equalsIgnoreCase("resourceGroups")) {
        return parts[i + 1];
      }
    }
    return null;
  }

  private List<Member> uniform(CloudApi.Session session) {
    String rg = scope.resourceGroup();
    String set = scope.scaleSet();
    Listings other = new Listings(session, "NetworkInterfaces.ListVirtualMachineScaleSetNetworkInterfaces",
        arm.scaleSetNetworkInterfaces(rg, set), arm.scaleSetPublicIpAddresses(rg, set));
    try {
      List<Listed> listed = new ArrayList<>();
      Paging.<ArmResources.ScaleSetVm>forEach(session, "VirtualMachineScaleSetVMs.List",
          arm.scaleSetVms(rg, set), other::start,
          vm -> {
            if (!tags.matches(vm.tags()) || !running(vm.statuses())) {
              return;
            }
            listed.add(new Listed(lower(vm.id()), vm.name(), vm.created(), tags.labels(vm.tags()), vm.location(),
                vm.sku(), null, vm.instanceId()));
            other.listed(vm.location());
          });
      return listed.isEmpty() ? List.of() : join(listed, other);
    } finally {
      other.cancel();
    }
  }

  private Map<String, String> publicIps(CloudApi.Session session,
      ArmClients.Listing<ArmResources.PublicIp> listing) {
    Map<String, String> ips = new HashMap<>();
    Paging.forEach(session, "PublicIPAddresses.List", listing, ip -> {
      if (ip.id() != null && ip.ipAddress() != null && !ip.ipAddress().isEmpty()) {
        ips.put(lower(ip.id()), ip.ipAddress());
      }
    });
    return ips;
  }

  private List<Member> join(List<Listed> listed, Listings other) {
    NicIndex nics = other.nics();
    Map<String, String> publicIps = other.publicIpAddresses();
    Set<String> locations = new HashSet<>();
    for (Listed vm : listed) {
      if (vm.location() != null) {
        locations.add(SkuAccelerators.key(vm.location()));
      }
    }
    Map<String, Map<String, Integer>> gpusBySize = other.skus(locations);
    List<Member> members = new ArrayList<>(listed.size());
    MembersLeftOut withoutAddress = MembersLeftOut.of(PROVIDER, "running VM(s)", address,
        "on their primary network interface");
    for (Listed vm : listed) {
      NicIndex.Nic nic = nics.of(vm.id(), vm.primaryNic());
      String chosen = nic == null ? null
          : address == AddressType.PUBLIC_IPV4 ? (nic.publicIpId() == null ? null : publicIps.get(nic.publicIpId()))
          : nic.privateIpv4();
      if (chosen == null || chosen.isEmpty()) {
        withoutAddress.add(vm.name());
        continue;
      }
      Member.Builder m = Member.builder(vm.id(), chosen).creationTime(vm.created()).name(vm.name()).labels(vm.labels());
      if (vm.instanceId() != null) {
        m.label(RANK_LABEL, vm.instanceId());
      }
      int gpus = SkuAccelerators.gpus(gpusBySize, vm.location(), vm.size());
      if (gpus > 0) {
        m.accelerators("GPU", gpus);
      }
      members.add(m.build());
    }
    withoutAddress.log(LOG);
    return members;
  }

  private ScaleSet scaleSet(CloudApi.Session session) {
    ScaleSet known = scaleSet.get();
    if (known != null) {
      return known;
    }
    ArmResources.ScaleSet set = session.call("VirtualMachineScaleSets.Get",
        remaining -> arm.scaleSet(scope.resourceGroup(), scope.scaleSet(), session.deadline()));
    ScaleSet found = new ScaleSet(set.id(), !set.flexible());
    scaleSet.set(found);
    return found;
  }

  /** Whether an instance view's status codes say the VM is running. */
  static boolean running(List<String> statuses) {
    return statuses.contains(RUNNING);
  }

  private static String lower(String id) {
    return id == null ? null : id.toLowerCase(Locale.ROOT);
  }
}
