package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A simulated Azure Resource Manager (Compute and Network) and Instance Metadata Service on a
 * local WireMock server: an in-memory set of VMs, scale sets and VM sizes that may change between
 * calls, answered in ARM's own JSON. Resource Manager speaks HTTPS only ({@link #endpoint()}, with
 * the checked-in test certificate for {@code localhost}/{@code 127.0.0.1}: trust it with
 * {@link #sslContext()} or {@link #trustStoreProperties()}); IMDS plain HTTP ({@link #imdsEndpoint()}).
 *
 * <ul>
 *   <li>Virtual machines: list by resource group or subscription ({@code $expand=instanceView},
 *       {@code statusOnly=true}, {@code $filter='virtualMachineScaleSet/id' eq '…'};
 *       {@link #expandNeedsFilter}), get, get the instance view;
 *   <li>network interfaces and public IPs: list by resource group or subscription, get; the Uniform
 *       scale set listings ({@code …/microsoft.Compute/virtualMachineScaleSets/{name}/networkInterfaces}
 *       and {@code …/publicipaddresses}; paths are matched ignoring case, as ARM does). A NIC's
 *       {@code virtualMachine.id} spells the resource group in upper case, as ARM often does;
 *   <li>scale sets: get ({@code orchestrationMode} Uniform or Flexible), the Uniform instance listing
 *       ({@code $expand=instanceView}); Flexible members are ordinary VMs with {@code virtualMachineScaleSet.id};
 *       the Flexible set's NIC listing returns nothing, as on Azure;
 *   <li>Resource SKUs ({@code $filter=location eq '…'}, capability {@code GPUs});
 *   <li>every listing in pages of {@link #pageSize(int)} (100) with an absolute {@code nextLink}
 *       ({@code $skiptoken});
 *   <li>401 {@code AuthenticationFailed} without a bearer {@code Authorization}; 400
 *       {@code MissingApiVersionParameter} without {@code api-version}; 404 for unknown resources and
 *       resource groups; every answer with {@code x-ms-request-id} and
 *       {@code x-ms-ratelimit-remaining-subscription-reads}; faults ({@link Fault}: 429 with
 *       {@code Retry-After}, 500, reset, truncated or malformed JSON, slow) by operation, page and count;
 *   <li>a rate limit ({@link #rateLimit(TokenBucket)}, off by default): a token bucket meters the Resource
 *       Manager calls as ARM meters a subscription's reads, and a call that finds no token is answered 429
 *       {@code TooManyRequests} with {@code Retry-After: 1}; IMDS calls are not metered;
 *   <li>IMDS: {@code GET /metadata/instance/compute} and {@code /metadata/instance} with
 *       {@code Metadata: true} and an {@code api-version} (else 400), for the VM set by {@link #identifyAs};
 *       {@code GET /metadata/identity/oauth2/token} (with {@code Metadata: true}) gives the managed
 *       identity's token, {@link #ACCESS_TOKEN}.
 * </ul>
 *
 * <p>Operations are counted by name: {@code ListVirtualMachines}, {@code GetVirtualMachine},
 * {@code GetVirtualMachineInstanceView}, {@code ListNetworkInterfaces}, {@code GetNetworkInterface},
 * {@code ListPublicIPAddresses}, {@code GetPublicIPAddress}, {@code GetVirtualMachineScaleSet},
 * {@code ListVirtualMachineScaleSetVMs}, {@code ListVirtualMachineScaleSetNetworkInterfaces},
 * {@code ListVirtualMachineScaleSetPublicIPAddresses}, {@code ListResourceSkus}, {@code IMDS}.
 * Listens on 127.0.0.1 only. Thread-safe; close it when done.
 */
public final class SimulatedAzure extends SimulatedApi<SimulatedAzure, SimulatedEc2.RecordedRequest> {

  /** The default subscription id. */
  public static final String SUBSCRIPTION = "a1b2c3d4-0000-4000-8000-00000000a2e0";
  /** The password of the test key store (the trust store has none: any password reads it, as none does). */
  public static final String STORE_PASSWORD = "simulated";
  /** The bearer token {@link #providerProperties(String)} gives the provider (any bearer token is accepted). */
  public static final String ACCESS_TOKEN = "simulated-azure-access-token";
  /** IMDS's token of the VM's managed identity. */
  private static final String MANAGED_IDENTITY_TOKEN = "/metadata/identity/oauth2/token";

  /** The operation name of every Instance Metadata Service request (a fault {@linkplain Fault#onOperation on} it hits IMDS). */
  public static final String IMDS = "IMDS";
  private static final String PLAIN_HTTP = "(plain http)";

  /** A scale set: Uniform (its own instances) or Flexible (ordinary VMs pointing at it). */
  public record ScaleSet(String name, String resourceGroup, boolean uniform, String location, String size) {}

  private final String subscription;
  private final Path keyStore;
  private final Path trustStore;
  private final Fleet<SimulatedVm> fleet = Fleet.inOrderAdded("VM");
  /** Guarded by {@code fleet}'s lock. */
  private final Map<String, ScaleSet> scaleSets = new LinkedHashMap<>();
  private final Map<String, Integer> skuGpus = new ConcurrentHashMap<>();
  private final AtomicInteger remainingReads = new AtomicInteger(11999);
  private volatile int pageSize = 100;
  private volatile String self;
  private volatile boolean expandNeedsFilter;
  private final AzureImds imds;

  private SimulatedAzure(String subscription, Path[] stores) {
    super("simulated-azure", IMDS, "ListVirtualMachines", 24, o -> o.dynamicHttpsPort()
        .keystorePath(stores[0].toString())
        .keystoreType("PKCS12")
        .keystorePassword(STORE_PASSWORD)
        .keyManagerPassword(STORE_PASSWORD));
    this.subscription = subscription;
    keyStore = stores[0];
    trustStore = stores[1];
    for (String[] sku : new String[][] {{"Standard_D4s_v3", "0"}, {"Standard_D8s_v5", "0"}, {"Standard_F16s_v2", "0"},
        {"Standard_NC4as_T4_v3", "1"}, {"Standard_NC64as_T4_v3", "4"}, {"Standard_NC24ads_A100_v4", "1"},
        {"Standard_ND96asr_v4", "8"}, {"Standard_ND96isr_H100_v5", "8"}}) {
      skuGpus.put(sku[0], Integer.parseInt(sku[1]));
    }
    imds = new AzureImds(this::vms, () -> self, this::resourceId, subscription);
  }

  /** The key store and trust store, copied to files WireMock and clients can read. */
  private static Path[] stores() {
    try {
      Path dir = Files.createTempDirectory("simulated-azure");
      dir.toFile().deleteOnExit();
      return new Path[] {copy("simulated-azure-keystore.p12", dir), copy("simulated-azure-truststore.p12", dir)};
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the test key store", e);
    }
  }

  private static Path copy(String resource, Path dir) throws IOException {
    Path file = dir.resolve(resource);
    try (InputStream in = SimulatedAzure.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("missing resource " + resource);
      }
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
    }
    file.toFile().deleteOnExit();
    return file;
  }

  /** Starts a simulation of subscription {@link #SUBSCRIPTION} on free loopback ports. */
  public static SimulatedAzure start() {
    return new SimulatedAzure(SUBSCRIPTION, stores());
  }

  /** The Resource Manager endpoint, e.g. {@code https://127.0.0.1:41234}. */
  @Override
  public URI endpoint() {
    return URI.create("https://127.0.0.1:" + server.httpsPort());
  }

  /** The IMDS endpoint (plain HTTP, as on Azure), e.g. {@code http://127.0.0.1:41233}. */
  public URI imdsEndpoint() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  public String subscription() {
    return subscription;
  }

  /**
   * The trust store holding the endpoint's certificate: a PKCS12 file without a MAC or encryption, as the JDK's
   * {@code cacerts} is, read without a password (or with any) and without password hashing.
   */
  public Path trustStore() {
    return trustStore;
  }

  /** A TLS context that trusts the endpoint's test certificate, for clients built in code. */
  public SSLContext sslContext() {
    try {
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(KeyStore.getInstance(trustStore.toFile(), STORE_PASSWORD.toCharArray()));
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("Cannot load the simulated Azure trust store", e);
    }
  }

  /** The {@code javax.net.ssl.trustStore*} system properties that make a JVM (or the azure provider) trust the endpoint. */
  public Map<String, String> trustStoreProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("javax.net.ssl.trustStore", trustStore.toString());
    p.put("javax.net.ssl.trustStoreType", "PKCS12");
    return p;
  }

  /**
   * The properties that point the {@code azure} provider at this simulation: subscription, resource
   * group (when not {@code null}), both endpoints and a fixed access token.
   */
  public Map<String, String> providerProperties(String resourceGroup) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("clusterresolver.azure.subscription", subscription);
    if (resourceGroup != null) {
      p.put("clusterresolver.azure.resource-group", resourceGroup);
    }
    p.put("clusterresolver.azure.endpoint", endpoint().toString());
    p.put("clusterresolver.azure.imds-endpoint", imdsEndpoint().toString());
    p.put("clusterresolver.azure.access-token", ACCESS_TOKEN);
    return p;
  }

  // ---- the world ----

  private static String key(String resourceGroup, String name) {
    return (resourceGroup + "/" + name).toLowerCase(Locale.ROOT);
  }

  private static String key(SimulatedVm vm) {
    return vm.instanceId() != null ? key(vm.resourceGroup(), vm.scaleSet() + "/" + vm.instanceId())
        : key(vm.resourceGroup(), vm.name());
  }

  /** Adds VMs (replacing any with the same resource group and name, or scale set and instance id). */
  public SimulatedAzure add(SimulatedVm... add) {
    fleet.putAll(List.of(add), SimulatedAzure::key);
    return this;
  }

  /** Adds {@code n} {@linkplain SimulatedVm#typical(int) typical} VMs numbered from {@code from}, changed by {@code customize}. */
  public SimulatedAzure addTypical(int from, int n, UnaryOperator<SimulatedVm.Builder> customize) {
    fleet.putAll(Fleet.numbered(from, n, i -> customize.apply(SimulatedVm.typical(i)).build()), SimulatedAzure::key);
    return this;
  }

  /** Defines a scale set (its Uniform instances or Flexible members are added as VMs with {@code scaleSet(name)}). */
  public SimulatedAzure scaleSet(ScaleSet set) {
    return fleet.locked(() -> {
      scaleSets.put(key(set.resourceGroup(), set.name()), set);
      return this;
    });
  }

  /** Removes the VMs a predicate selects; how many were removed. */
  public int remove(Predicate<SimulatedVm> which) {
    return fleet.removeIf(which);
  }

  /** Changes the VMs a predicate selects, in place. */
  public SimulatedAzure update(Predicate<SimulatedVm> which, UnaryOperator<SimulatedVm.Builder> change) {
    fleet.updateIf(which, vm -> {
      SimulatedVm changed = change.apply(vm.toBuilder()).build();
      if (!key(changed).equals(key(vm))) {
        throw new IllegalArgumentException("An update cannot rename " + vm);
      }
      return changed;
    });
    return this;
  }

  /** Removes every VM and scale set. */
  public SimulatedAzure clear() {
    return fleet.locked(() -> {
      fleet.clear();
      scaleSets.clear();
      return this;
    });
  }

  /** A snapshot of the VMs (standalone, Flexible members and Uniform instances) in insertion order. */
  public List<SimulatedVm> vms() {
    return fleet.list();
  }

  /** Defines (or redefines) a VM size's GPUs in the Resource SKU catalog. */
  public SimulatedAzure defineSku(String size, int gpus) {
    skuGpus.put(size, gpus);
    return this;
  }

  /** The ARM resource id of a VM, as its listing spells it. */
  public String resourceId(SimulatedVm vm) {
    return ArmJson.vmId(subscription, vm, vm.resourceGroup());
  }

  /** Which VM the metadata service describes, by its resource id (any case); {@code null}: none (404). */
  public SimulatedAzure identifyAs(String resourceId) {
    this.self = resourceId;
    return this;
  }

  // ---- behaviour ----

  /** Items per page of every listing (100 by default, as ARM's VM listing). */
  public SimulatedAzure pageSize(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("page size must be positive");
    }
    this.pageSize = size;
    return this;
  }

  /**
   * Whether a VM listing refuses {@code $expand=instanceView} without a {@code $filter} (400
   * {@code InvalidParameter}), as the API reference says it may; off by default.
   */
  public SimulatedAzure expandNeedsFilter(boolean strict) {
    this.expandNeedsFilter = strict;
    return this;
  }

  /** Resource Manager requests (IMDS excluded), faulted ones included. */
  public int armCalls() {
    int n = 0;
    for (Map.Entry<String, Integer> e : callCounts().entrySet()) {
      if (!e.getKey().equals(IMDS)) {
        n += e.getValue();
      }
    }
    return n;
  }

  @Override
  public String toString() {
    return "SimulatedAzure{" + endpoint() + ", " + vms().size() + " VMs}";
  }

  // ---- internals ----

  @Override
  String operation(Call call) {
    String path = call.url().getRawPath();
    if (path.startsWith("/metadata/")) {
      return IMDS;
    }
    if (!"https".equals(call.scheme())) {
      return PLAIN_HTTP;
    }
    ArmRoute route = ArmRoute.parse(call.method(), path);
    return route == null ? "(unknown)" : route.operation();
  }

  @Override
  SimulatedEc2.RecordedRequest recorded(Call call, String operation) {
    return new SimulatedEc2.RecordedRequest(call.method(), call.url().getRawPath(), operation, call.headers(),
        call.query());
  }

  @Override
  ResponseDefinition metadataAnswer(Call call) {
    if (call.url().getRawPath().equals(MANAGED_IDENTITY_TOKEN) && "true".equalsIgnoreCase(call.header("metadata"))
        && call.query().get("api-version") != null) {
      // the VM's managed identity, as IMDS gives it to a client without a key (Hazelcast's Azure discovery)
      // expires_on: seconds since the epoch, as a string, as IMDS sends it (msal4j refuses an answer without it)
      return ArmWire.plainJson(200, "{\"access_token\":" + ArmJson.q(ACCESS_TOKEN) + ",\"expires_in\":\"3599\""
          + ",\"expires_on\":\"" + (java.time.Instant.now().getEpochSecond() + 3599) + "\""
          + ",\"resource\":\"https://management.azure.com\",\"token_type\":\"Bearer\"}");
    }
    return imds.answer(call.url().getRawPath(), call.headers(), call.query());
  }

  @Override
  ResponseDefinition metadataGarbage(Fault fault) {
    return ArmWire.plainJson(200, "<html><body>captive portal: sign in to continue</body></html>");
  }

  /** The page and offset a {@code $skiptoken} names ({1, 0} without one), or {@code null} when it is not valid. */
  private static int[] position(Call call) {
    String token = call.query().get("$skiptoken");
    if (token == null) {
      return new int[] {1, 0};
    }
    return PageTokens.decode("arm", token);
  }

  @Override
  ResponseDefinition refuse(Call call, String operation) {
    String requestId = call.id();
    Map<String, String> params = call.query();
    if (operation.equals(PLAIN_HTTP)) {
      return json(400, ArmJson.error("HttpsRequired", "Resource Manager accepts HTTPS only."), requestId, 0);
    }
    String authorization = call.header("authorization");
    if (authorization == null || !authorization.startsWith("Bearer ") || authorization.length() <= 7) {
      return ArmWire.unauthorized(requestId);
    }
    if (params.get("api-version") == null) {
      return json(400, ArmJson.error("MissingApiVersionParameter",
          "The api-version query parameter (?api-version=) is required for all requests."), requestId, 0);
    }
    String[] segments = call.url().getRawPath().split("/");
    if (!segments[2].equalsIgnoreCase(subscription)) {
      return json(404, ArmJson.error("SubscriptionNotFound", "The subscription '" + segments[2] + "' could not be found."),
          requestId, 0);
    }
    if (operation.equals("(unknown)")) {
      return json(404, ArmJson.error("InvalidResourceType", "The resource type could not be found in the namespace for api version "
          + params.get("api-version") + "."), requestId, 0);
    }
    if (position(call) == null) {
      return json(400, ArmJson.error("InvalidSkipToken", "The skip token is not valid."), requestId, 0);
    }
    return null;
  }

  @Override
  ResponseDefinition answer(Call call, String operation) {
    int[] position = position(call);
    Fault fault = fault(operation, position[0]);
    if (fails(fault)) {
      return faulted(fault, call);
    }
    long delay = delay(fault);
    ArmRoute route = ArmRoute.parse(call.method(), call.url().getRawPath());
    if (route.resourceGroup() != null && !resourceGroupExists(route.resourceGroup())) {
      return json(404, ArmJson.error("ResourceGroupNotFound", "Resource group '" + route.resourceGroup()
          + "' could not be found."), call.id(), delay);
    }
    return answer(route, call.url(), call.query(), position[0], position[1], call.id(), delay);
  }

  private boolean resourceGroupExists(String rg) {
    return fleet.locked(() -> fleet.list().stream().anyMatch(vm -> vm.resourceGroup().equalsIgnoreCase(rg))
        || scaleSets.values().stream().anyMatch(set -> set.resourceGroup().equalsIgnoreCase(rg)));
  }

  private ScaleSet findScaleSet(String rg, String name) {
    return fleet.locked(() -> scaleSets.get(key(rg, name)));
  }

  private boolean inScope(SimulatedVm vm, String rg) {
    return rg == null || vm.resourceGroup().equalsIgnoreCase(rg);
  }

  private String scaleSetIdOf(SimulatedVm vm) {
    if (vm.scaleSet() == null || vm.instanceId() != null) {
      return null;
    }
    ScaleSet set = findScaleSet(vm.resourceGroup(), vm.scaleSet());
    return ArmJson.scaleSetId(subscription, set != null ? set.resourceGroup() : vm.resourceGroup(), vm.scaleSet());
  }

  /** The VM id as a NIC's {@code virtualMachine.id} spells it: the resource group in upper case. */
  private String vmIdFromNic(SimulatedVm vm) {
    return ArmJson.vmId(subscription, vm.toBuilder().resourceGroup(vm.resourceGroup().toUpperCase(Locale.ROOT)).build(),
        vm.resourceGroup().toUpperCase(Locale.ROOT));
  }

  private ResponseDefinition answer(ArmRoute route, URI url, Map<String, String> params, int page, int offset,
      String requestId, long delay) {
    String rg = route.resourceGroup();
    // Rendered lazily: only the page's own items are written.
    List<java.util.function.Supplier<String>> items = new ArrayList<>();
    List<SimulatedVm> all = vms();
    switch (route.operation()) {
      case "ListVirtualMachines": {
        String filter = params.get("$filter");
        String scaleSetFilter = null;
        if (filter != null) {
          java.util.regex.Matcher m = java.util.regex.Pattern
              .compile("'?virtualMachineScaleSet/id'?\\s+eq\\s+'([^']+)'", java.util.regex.Pattern.CASE_INSENSITIVE).matcher(filter);
          if (!m.matches()) {
            return json(400, ArmJson.error("InvalidParameter", "The value of parameter $filter is invalid: only"
                + " 'virtualMachineScaleSet/id' eq '<scale set id>' is supported."), requestId, delay);
          }
          scaleSetFilter = m.group(1);
        }
        boolean expand = "instanceView".equalsIgnoreCase(params.get("$expand"));
        if (expand && filter == null && expandNeedsFilter) {
          return json(400, ArmJson.error("InvalidParameter", "The value 'instanceView' of parameter $expand can only be"
              + " specified together with a valid $filter."), requestId, delay);
        }
        boolean view = expand || "true".equalsIgnoreCase(params.get("statusOnly"));
        for (SimulatedVm vm : all) {
          String setId = scaleSetIdOf(vm);
          if (vm.instanceId() == null && inScope(vm, rg) && (scaleSetFilter == null || scaleSetFilter.equalsIgnoreCase(setId))) {
            items.add(() -> ArmJson.vm(subscription, vm, setId, view));
          }
        }
        return page(items, url, page, offset, requestId, delay);
      }
      case "GetVirtualMachine":
      case "GetVirtualMachineInstanceView": {
        for (SimulatedVm vm : all) {
          if (vm.instanceId() == null && inScope(vm, rg) && vm.name().equalsIgnoreCase(route.name())) {
            boolean view = "instanceView".equalsIgnoreCase(params.get("$expand"));
            return json(200, route.operation().equals("GetVirtualMachine")
                ? ArmJson.vm(subscription, vm, scaleSetIdOf(vm), view) : ArmJson.instanceView(vm), requestId, delay);
          }
        }
        return notFound("Microsoft.Compute/virtualMachines/" + route.name(), rg, requestId, delay);
      }
      case "GetVirtualMachineScaleSet": {
        ScaleSet set = findScaleSet(rg, route.scaleSet());
        if (set == null) {
          return notFound("Microsoft.Compute/virtualMachineScaleSets/" + route.scaleSet(), rg, requestId, delay);
        }
        int capacity = (int) all.stream().filter(vm -> set.name().equalsIgnoreCase(vm.scaleSet())
            && vm.resourceGroup().equalsIgnoreCase(set.resourceGroup())).count();
        return json(200, ArmJson.scaleSet(subscription, set, capacity), requestId, delay);
      }
      case "ListVirtualMachineScaleSetVMs":
      case "ListVirtualMachineScaleSetNetworkInterfaces":
      case "ListVirtualMachineScaleSetPublicIPAddresses": {
        ScaleSet set = findScaleSet(rg, route.scaleSet());
        if (set == null) {
          return notFound("Microsoft.Compute/virtualMachineScaleSets/" + route.scaleSet(), rg, requestId, delay);
        }
        if (set.uniform()) {
          boolean view = "instanceView".equalsIgnoreCase(params.get("$expand"));
          for (SimulatedVm vm : all) {
            if (vm.instanceId() != null && set.name().equalsIgnoreCase(vm.scaleSet()) && inScope(vm, rg)) {
              if (route.operation().endsWith("VMs")) {
                items.add(() -> ArmJson.scaleSetVm(subscription, vm, view));
              } else {
                for (SimulatedVm.Nic nic : vm.nics()) {
                  if (route.operation().endsWith("NetworkInterfaces")) {
                    items.add(() -> ArmJson.nic(subscription, vm, nic, vmIdFromNic(vm)));
                  } else if (nic.publicIp() != null) {
                    items.add(() -> ArmJson.publicIp(subscription, vm, nic));
                  }
                }
              }
            }
          }
        }
        return page(items, url, page, offset, requestId, delay);
      }
      case "ListNetworkInterfaces":
      case "ListPublicIPAddresses":
      case "GetNetworkInterface":
      case "GetPublicIPAddress": {
        boolean nics = route.operation().endsWith("NetworkInterfaces") || route.operation().endsWith("NetworkInterface");
        for (SimulatedVm vm : all) {
          if (vm.instanceId() != null || !inScope(vm, rg)) {
            continue;
          }
          for (SimulatedVm.Nic nic : vm.nics()) {
            String name = nics ? nic.name() : nic.name() + "-pip";
            if (route.name() != null && !name.equalsIgnoreCase(route.name())) {
              continue;
            }
            if (nics) {
              items.add(() -> ArmJson.nic(subscription, vm, nic, vmIdFromNic(vm)));
            } else if (nic.publicIp() != null) {
              items.add(() -> ArmJson.publicIp(subscription, vm, nic));
            }
          }
        }
        if (route.name() != null) {
          return items.isEmpty() ? notFound((nics ? "Microsoft.Network/networkInterfaces/" : "Microsoft.Network/publicIPAddresses/")
              + route.name(), rg, requestId, delay) : json(200, items.get(0).get(), requestId, delay);
        }
        return page(items, url, page, offset, requestId, delay);
      }
      case "ListResourceSkus": {
        String filter = params.get("$filter");
        String location = null;
        if (filter != null) {
          java.util.regex.Matcher m = java.util.regex.Pattern.compile("location\\s+eq\\s+'([^']*)'").matcher(filter);
          if (!m.find()) {
            return json(400, ArmJson.error("InvalidFilter", "The filter '" + filter + "' is not supported: use location eq 'LOCATION'."),
                requestId, delay);
          }
          location = m.group(1);
        }
        List<String> locations = new ArrayList<>();
        if (location != null) {
          locations.add(location);
        } else {
          all.stream().map(SimulatedVm::location).distinct().forEach(locations::add);
        }
        for (String loc : locations) {
          new TreeMap<>(skuGpus).forEach((size, gpus) -> items.add(() -> ArmJson.sku(size, loc, gpus)));
        }
        return page(items, url, page, offset, requestId, delay);
      }
      default:
        return notFound(route.operation(), rg, requestId, delay);
    }
  }

  private ResponseDefinition notFound(String resource, String rg, String requestId, long delay) {
    return json(404, ArmJson.error("ResourceNotFound", "The Resource '" + resource + "' under resource group '" + rg
        + "' was not found. For more details please go to https://aka.ms/ARMResourceNotFoundFix"), requestId, delay);
  }

  /** One page of a listing, with an absolute {@code nextLink} when more follow. */
  private ResponseDefinition page(List<java.util.function.Supplier<String>> items, URI url, int page, int offset,
      String requestId, long delay) {
    int end = Math.min(items.size(), offset + pageSize);
    StringBuilder body = new StringBuilder(64 + (end - offset) * 1500).append("{\"value\":[");
    for (int i = offset; i < end; i++) {
      body.append(i > offset ? "," : "").append(items.get(i).get());
    }
    body.append(']');
    if (end < items.size()) {
      String query = url.getRawQuery() == null ? "" : url.getRawQuery().replaceAll("(^|&)\\$skiptoken=[^&]*", "");
      String token = PageTokens.encode("arm", page + 1, end);
      body.append(",\"nextLink\":").append(ArmJson.q(endpoint() + url.getRawPath() + "?" + query
          + (query.isEmpty() ? "" : "&") + "$skiptoken=" + token));
    }
    return json(200, body.append('}').toString(), requestId, delay);
  }

  private ResponseDefinition json(int status, String body, String requestId, long delay) {
    ResponseDefinitionBuilder b = aResponse().withStatus(status)
        .withHeader("Content-Type", "application/json; charset=utf-8")
        .withHeader("x-ms-request-id", requestId)
        .withHeader("x-ms-correlation-request-id", requestId)
        .withHeader("x-ms-ratelimit-remaining-subscription-reads",
            Integer.toString(Math.max(0, remainingReads.getAndDecrement())))
        .withBody(body);
    return SimulatedApi.build(b, delay);
  }

  /** Resource Manager's answer to a fault: throttling as 429 with {@code Retry-After}, rejected credentials as 403. */
  @Override
  ResponseDefinition error(Fault fault, Call call, long delay) {
    String requestId = call.id();
    switch (fault.kind()) {
      case THROTTLED: {
        ResponseDefinitionBuilder b = aResponse().withStatus(429)
            .withHeader("Content-Type", "application/json; charset=utf-8")
            .withHeader("x-ms-request-id", requestId)
            .withHeader("Retry-After", Long.toString(fault.retryAfter().toSeconds()))
            .withHeader("x-ms-ratelimit-remaining-subscription-reads", "0")
            .withBody(ArmJson.error("TooManyRequests", "The request is being throttled as the limit has been reached for"
                + " operation type - Read_30Min. For more information, see - https://aka.ms/srpthrottlinglimits"));
        return SimulatedApi.build(b, delay);
      }
      case CREDENTIALS_REJECTED:
        return json(403, ArmJson.error("AuthorizationFailed", "The client 'f1e2d3c4-0000-4000-8000-000000000001' with object"
            + " id 'f1e2d3c4-0000-4000-8000-000000000001' does not have authorization to perform action"
            + " 'Microsoft.Compute/virtualMachines/read' over scope '/subscriptions/" + subscription + "' or the scope is invalid."),
            requestId, delay);
      case SERVER_ERROR:
        return json(500, ArmJson.error("InternalServerError", "The server encountered an internal error. Please retry the request."),
            requestId, delay);
      case TRUNCATED_BODY:
        return json(200, "{\"value\":[{\"name\":\"vm-0000\",\"id\":\"/subscriptions/" + subscription + "/resourceGroups/rg/pro",
            requestId, delay);
      default:
        return json(200, "<html><body>this is not JSON & never was</body></html>", requestId, delay);
    }
  }
}
