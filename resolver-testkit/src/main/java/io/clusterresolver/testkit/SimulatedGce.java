package io.clusterresolver.testkit;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A simulated Compute Engine project on a local WireMock server, answered in the Compute Engine
 * REST API's own JSON, plus the metadata server and an OAuth2 token endpoint on the same port. Point
 * the real {@code google-cloud-compute} client (or any Compute Engine client) at {@link #endpoint()}.
 *
 * <ul>
 *   <li>{@code instances.aggregatedList} ({@code GET /compute/v1/projects/P/aggregated/instances}):
 *       {@code items} keyed by {@code zones/ZONE} (a zone without instances on the page gets a
 *       {@code NO_RESULTS_ON_PAGE} warning), {@code filter}, {@code maxResults} (at most 500, more is
 *       400 {@code invalid} as on the real API), {@code pageToken}/{@code nextPageToken}, and
 *       {@link #unreachable(String) unreachable zones}: with {@code returnPartialSuccess=true} listed in
 *       {@code unreachables} with an {@code UNREACHABLE} scope warning, without it a 503.
 *   <li>{@code instances.list} and {@code instances.get} per zone; {@code instanceGroups.listInstances}
 *       ({@code POST}, body {@code {"instanceState": "ALL"|"RUNNING"}}), which returns instance URLs only;
 *       {@code machineTypes.get} with {@code accelerators} (a2, a3, g2… bundle their GPUs).
 *   <li>Errors in Google's shape {@code {"error": {"code", "message", "errors": [{"reason"}], "status"}}};
 *       unknown projects, zones, instances, groups and types are 404 {@code notFound}.
 *   <li>The metadata server ({@code /computeMetadata/v1/}, needs {@code Metadata-Flavor: Google}) and
 *       {@code POST /token} (the OAuth2 JWT-bearer exchange of a service-account key whose
 *       {@code token_uri} points here). A request with a bearer token this server did not issue is 401;
 *       with {@link #requireAuthorization(boolean)}, so is a request without one.
 *   <li>Per-operation call counts, the requests seen, a latency added to every API call, faults
 *       ({@link Fault}) by operation, page and count,
 *       and a rate limit ({@link #rateLimit(TokenBucket)}, off by default): a token bucket meters the
 *       API calls as Google meters a project's reads, and a call that finds no token is answered as
 *       Compute Engine documents it, 403 {@code rateLimitExceeded} (domain {@code usageLimits};
 *       cloud.google.com/compute/api-quota); metadata-server and token-endpoint calls are not metered.
 * </ul>
 *
 * <p>The server listens on 127.0.0.1 only. Thread-safe; close it when done.
 */
public final class SimulatedGce extends SimulatedGoogleApi<SimulatedGce, SimulatedGce.RecordedRequest> {

  /** Compute Engine's largest page. */
  public static final int MAX_RESULTS = 500;

  private static final long PROJECT_NUMBER = 123456789012L;
  private static final Pattern PROJECT_PATH = Pattern.compile("/compute/v1/projects/([^/]+)/(.*)");
  private static final Pattern AGGREGATED = Pattern.compile("aggregated/instances");
  private static final Pattern ZONAL = Pattern.compile(
      "zones/([^/]+)/(instances|instances/([^/]+)|instanceGroups/([^/]+)/listInstances|machineTypes/([^/]+))");

  private final String project;
  private final Fleet<SimulatedGceInstance> fleet = Fleet.inOrderAdded("instance");
  private final Map<String, List<String>> groups = new ConcurrentHashMap<>();
  private final Map<String, int[]> machineTypes = new ConcurrentHashMap<>();
  private final Map<String, String> machineTypeGpuNames = new ConcurrentHashMap<>();
  private final Set<String> zones = ConcurrentHashMap.newKeySet();
  private final Set<String> unreachable = ConcurrentHashMap.newKeySet();
  private volatile int pageCap = MAX_RESULTS;
  private volatile boolean requireAuthorization;
  private volatile String self;

  private SimulatedGce(String project) {
    super("simulated-gce", "instances.aggregatedList");
    this.project = project;
    defineDefaultMachineTypes();
  }

  /** Starts a simulation of project {@code sim-project} on a free loopback port. */
  public static SimulatedGce start() {
    return start("sim-project");
  }

  /** Starts a simulation of a project on a free loopback port. */
  public static SimulatedGce start(String project) {
    return new SimulatedGce(project);
  }

  /** The OAuth2 token endpoint, for a service-account key's {@code token_uri}. */
  public URI tokenEndpoint() {
    return endpoint().resolve("/token");
  }

  public String project() {
    return project;
  }

  /**
   * The properties that point the {@code gce} provider at this simulation: project, both endpoints,
   * and {@code credentials=none} (no token is sent).
   */
  public Map<String, String> providerProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("clusterresolver.gce.project", project);
    p.putAll(endpointProperties("gce"));
    return p;
  }

  // ---- the project ----

  /** Adds instances (replacing any with the same name). */
  public SimulatedGce add(SimulatedGceInstance... instances) {
    for (SimulatedGceInstance i : instances) {
      zones.add(i.zone());
    }
    fleet.putAll(List.of(instances), SimulatedGceInstance::name);
    return this;
  }

  /** Adds {@code n} {@linkplain SimulatedGceInstance#typical(int) typical} instances numbered from {@code from}. */
  public SimulatedGce addTypical(int from, int n, UnaryOperator<SimulatedGceInstance.Builder> customize) {
    return add(Fleet.numbered(from, n, i -> customize.apply(SimulatedGceInstance.typical(i)).build())
        .toArray(SimulatedGceInstance[]::new));
  }

  /** Changes an instance in place. */
  public SimulatedGce update(String name, UnaryOperator<SimulatedGceInstance.Builder> change) {
    fleet.update(name, i -> {
      SimulatedGceInstance changed = change.apply(i.toBuilder()).build();
      zones.add(changed.zone());
      return changed;
    });
    return this;
  }

  /** Removes an instance; true when it was there. */
  public boolean remove(String name) {
    return fleet.remove(name);
  }

  /** Removes every instance (not the zones, groups or machine types). */
  public SimulatedGce clear() {
    fleet.clear();
    return this;
  }

  /** A snapshot of the instances in insertion order. */
  public List<SimulatedGceInstance> instances() {
    return fleet.list();
  }

  /** Declares a zone that exists even without instances. */
  public SimulatedGce zone(String zone) {
    zones.add(zone);
    return this;
  }

  /** Makes a zone unreachable (a partial answer of {@code aggregatedList}); {@link #reachable} undoes it. */
  public SimulatedGce unreachable(String zone) {
    zones.add(zone);
    unreachable.add(zone);
    return this;
  }

  public SimulatedGce reachable(String zone) {
    unreachable.remove(zone);
    return this;
  }

  /**
   * Defines (or replaces) a zonal instance group with its members by instance name, in the order
   * {@code listInstances} returns them. A name without an instance is listed as a member that is gone
   * (the group's view lags behind).
   */
  public SimulatedGce defineInstanceGroup(String zone, String name, List<String> memberNames) {
    zones.add(zone);
    groups.put(zone + "/" + name, List.copyOf(memberNames));
    return this;
  }

  /** Adds or replaces a machine type; {@code gpus} of {@code gpuType} are bundled with it (0 for none). */
  public SimulatedGce defineMachineType(String name, int gpus, String gpuType) {
    machineTypes.put(name, new int[] {gpus});
    if (gpuType != null) {
      machineTypeGpuNames.put(name, gpuType);
    }
    return this;
  }

  /** Which instance the metadata server describes, by name; {@code null}: none (404). */
  public SimulatedGce identifyAs(String name) {
    this.self = name;
    return this;
  }

  // ---- behaviour ----

  /**
   * The most items one page holds whatever {@code maxResults} asks (500 by default, as the API; lower
   * it to make small listings span pages: the API may always return fewer than asked).
   */
  public SimulatedGce pageCap(int cap) {
    if (cap < 1 || cap > MAX_RESULTS) {
      throw new IllegalArgumentException("A page holds 1 to 500 items, not " + cap);
    }
    this.pageCap = cap;
    return this;
  }

  /** Whether a request without a bearer token is refused (401), as the real API does; off by default (an emulator). */
  public SimulatedGce requireAuthorization(boolean required) {
    this.requireAuthorization = required;
    return this;
  }

  @Override
  public String toString() {
    return "SimulatedGce{" + endpoint() + ", project " + project + ", " + instances().size() + " instances}";
  }

  /**
   * One request the simulation received.
   *
   * @param method the HTTP method
   * @param path the URL path
   * @param operation the API operation ({@code instances.aggregatedList}, …), {@code metadata} or {@code oauth2.token}
   * @param headers the headers, by lower-case name
   * @param parameters the query parameters
   * @param body the request body
   */
  public record RecordedRequest(String method, String path, String operation, Map<String, String> headers,
      Map<String, String> parameters, String body) {

    /** A header's value by name (any case), or {@code null}. */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public String toString() {
      return method + " " + path + " (" + operation + ")";
    }
  }

  // ---- internals ----

  private SimulatedGceInstance selfInstance() {
    return fleet.get(self);
  }

  private void defineDefaultMachineTypes() {
    for (String plain : List.of("e2-medium", "e2-standard-4", "n1-standard-8", "n2-standard-4", "n2-standard-8",
        "c3-standard-8")) {
      defineMachineType(plain, 0, null);
    }
    defineMachineType("a2-highgpu-1g", 1, "nvidia-tesla-a100");
    defineMachineType("a2-highgpu-2g", 2, "nvidia-tesla-a100");
    defineMachineType("a2-highgpu-4g", 4, "nvidia-tesla-a100");
    defineMachineType("a2-highgpu-8g", 8, "nvidia-tesla-a100");
    defineMachineType("a2-megagpu-16g", 16, "nvidia-tesla-a100");
    defineMachineType("a2-ultragpu-8g", 8, "nvidia-a100-80gb");
    defineMachineType("a3-highgpu-8g", 8, "nvidia-h100-80gb");
    defineMachineType("g2-standard-4", 1, "nvidia-l4");
    defineMachineType("g2-standard-24", 2, "nvidia-l4");
    defineMachineType("g2-standard-48", 4, "nvidia-l4");
    defineMachineType("g2-standard-96", 8, "nvidia-l4");
  }

  @Override
  Map<String, String> metadataValues() {
    Map<String, String> v = GoogleMetadataServer.projectValues(project, PROJECT_NUMBER, null);
    SimulatedGceInstance me = selfInstance();
    if (me != null) {
      v.put("instance/id", me.idText());
      v.put("instance/name", me.name());
      v.put("instance/hostname", me.name() + "." + me.zone() + ".c." + project + ".internal");
      v.put("instance/zone", "projects/" + PROJECT_NUMBER + "/zones/" + me.zone());
      v.put("instance/machine-type", "projects/" + PROJECT_NUMBER + "/machineTypes/" + me.machineType());
      me.networkIp().ifPresent(ip -> v.put("instance/network-interfaces/0/ip", ip));
    }
    return v;
  }

  @Override
  String operation(Call call) {
    String path = call.path();
    if (GoogleMetadataServer.serves(path)) {
      return METADATA;
    }
    return path.equals(GoogleTokenEndpoint.PATH) ? "oauth2.token" : operation(call.method(), path);
  }

  @Override
  RecordedRequest recorded(Call call, String operation) {
    return new RecordedRequest(call.method(), call.path(), operation, call.headers(), call.query(), call.body());
  }

  @Override
  ResponseDefinition refuse(Call call, String operation) {
    if (operation.equals("oauth2.token")) {
      return tokens.answer(call);
    }
    try {
      authorize(call.header("authorization"));
      return null;
    } catch (GceJson.ApiError e) {
      return GceJson.error(e, latencyMillis());
    }
  }

  @Override
  ResponseDefinition answer(Call call, String operation) {
    try {
      return GceApi.answer(this, operation, call);
    } catch (GceJson.ApiError e) {
      return GceJson.error(e, latencyMillis());
    }
  }

  /** The API operation a request is, by method and path. */
  static String operation(String method, String path) {
    Matcher p = PROJECT_PATH.matcher(path);
    if (p.matches()) {
      if (AGGREGATED.matcher(p.group(2)).matches() && "GET".equals(method)) {
        return "instances.aggregatedList";
      }
      Matcher z = ZONAL.matcher(p.group(2));
      if (z.matches()) {
        if (z.group(4) != null) {
          return "POST".equals(method) ? "instanceGroups.listInstances" : "(unknown)";
        }
        if (!"GET".equals(method)) {
          return "(unknown)";
        }
        return z.group(5) != null ? "machineTypes.get" : z.group(3) != null ? "instances.get" : "instances.list";
      }
    }
    return "(unknown)";
  }

  private void authorize(String authorization) {
    if (authorization == null) {
      if (requireAuthorization) {
        throw new GceJson.ApiError(401, "required", "UNAUTHENTICATED",
            "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or"
                + " other valid authentication credential.");
      }
      return;
    }
    if (!tokens.accepts(authorization)) {
      throw new GceJson.ApiError(401, "authError", "UNAUTHENTICATED", "Request had invalid authentication credentials."
          + " Expected OAuth 2 access token, login cookie or other valid authentication credential.");
    }
  }

  // ---- what GceApi reads ----

  /** Instances in list order: by zone, then name. */
  List<SimulatedGceInstance> sortedInstances() {
    List<SimulatedGceInstance> all = new ArrayList<>(instances());
    all.sort(Comparator.comparing(SimulatedGceInstance::zone).thenComparing(SimulatedGceInstance::name));
    return all;
  }

  SimulatedGceInstance instance(String name) {
    return fleet.get(name);
  }

  Set<String> zones() {
    return new TreeSet<>(zones);
  }

  boolean isUnreachable(String zone) {
    return unreachable.contains(zone);
  }

  List<String> group(String zone, String name) {
    return groups.get(zone + "/" + name);
  }

  int[] machineType(String name) {
    return machineTypes.get(name);
  }

  String machineTypeGpu(String name) {
    return machineTypeGpuNames.get(name);
  }

  int pageCapValue() {
    return pageCap;
  }

  private static final String QUOTA_MESSAGE = "Quota exceeded for quota metric 'Read requests' and limit 'Read"
      + " requests per minute' of service 'compute.googleapis.com' for consumer 'project_number:123456789012'.";

  /** Compute Engine's answer to a fault: throttling as 403 {@code rateLimitExceeded} (or 429, when asked). */
  @Override
  ResponseDefinition error(Fault fault, Call call, long delay) {
    switch (fault.kind()) {
      case THROTTLED:
        return GceJson.error(fault.status() == 429
            ? new GceJson.ApiError(429, "rateLimitExceeded", "RESOURCE_EXHAUSTED", QUOTA_MESSAGE)
            : new GceJson.ApiError(403, "rateLimitExceeded", "PERMISSION_DENIED", QUOTA_MESSAGE), delay);
      case SERVER_ERROR:
        return GceJson.error(new GceJson.ApiError(500, "backendError", "INTERNAL", "Internal error. Please try again"
            + " or contact Google Support. (Code: '5F2A1B3C4D5E6')"), delay);
      case CREDENTIALS_REJECTED:
        return GceJson.error(new GceJson.ApiError(401, "authError", "UNAUTHENTICATED", "Request had invalid"
            + " authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication"
            + " credential."), delay);
      case TRUNCATED_BODY:
        return GceJson.json(200, "{\n  \"kind\": \"compute#instanceAggregatedList\",\n  \"items\": {\n    \"zones/", delay);
      default:
        return GceJson.json(200, "<html><body>this is not JSON & never was</body></html>", delay);
    }
  }

  String projectName() {
    return project;
  }
}
