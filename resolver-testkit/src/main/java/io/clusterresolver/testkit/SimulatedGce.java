package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.http.HttpHeader;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
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
 *       ({@link GceFault}) by operation, page and count.
 * </ul>
 *
 * <p>The server listens on 127.0.0.1 only. Thread-safe; close it when done.
 */
public final class SimulatedGce implements AutoCloseable {

  /** Compute Engine's largest page. */
  public static final int MAX_RESULTS = 500;

  private static final String TRANSFORMER = "simulated-gce";
  private static final Pattern PROJECT_PATH = Pattern.compile("/compute/v1/projects/([^/]+)/(.*)");
  private static final Pattern AGGREGATED = Pattern.compile("aggregated/instances");
  private static final Pattern ZONAL = Pattern.compile(
      "zones/([^/]+)/(instances|instances/([^/]+)|instanceGroups/([^/]+)/listInstances|machineTypes/([^/]+))");

  private final WireMockServer server;
  private final String project;
  private final Map<String, SimulatedGceInstance> fleet = new LinkedHashMap<>();
  private final Map<String, List<String>> groups = new ConcurrentHashMap<>();
  private final Map<String, int[]> machineTypes = new ConcurrentHashMap<>();
  private final Map<String, String> machineTypeGpuNames = new ConcurrentHashMap<>();
  private final Set<String> zones = ConcurrentHashMap.newKeySet();
  private final Set<String> unreachable = ConcurrentHashMap.newKeySet();
  private final Set<String> tokens = ConcurrentHashMap.newKeySet();
  private volatile TokenBucket rateLimit;
  private final CallLog<RecordedRequest> calls = new CallLog<>();
  private final FaultRules<GceFault> faults = new FaultRules<>();
  private final SimulatedGceMetadata metadata;
  private volatile Duration latency = Duration.ZERO;
  private volatile int pageCap = MAX_RESULTS;
  private volatile boolean requireAuthorization;
  private volatile String self;

  private SimulatedGce(String project) {
    this.project = project;
    this.metadata = new SimulatedGceMetadata(this::selfInstance, project, 123456789012L);
    defineDefaultMachineTypes();
    server = SimulationServer.startAnsweringAll(SimulationServer.loopback(new Transformer(), 16), TRANSFORMER);
  }

  /** Starts a simulation of project {@code sim-project} on a free loopback port. */
  public static SimulatedGce start() {
    return start("sim-project");
  }

  /** Starts a simulation of a project on a free loopback port. */
  public static SimulatedGce start(String project) {
    return new SimulatedGce(project);
  }

  /** The API endpoint, e.g. {@code http://127.0.0.1:41234} (the client adds {@code /compute/v1/}). */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  /** The metadata server (the same server; its paths start with {@code /computeMetadata/v1/}). */
  public URI metadataEndpoint() {
    return endpoint();
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
    p.put("clusterresolver.gce.endpoint", endpoint().toString());
    p.put("clusterresolver.gce.metadata-endpoint", metadataEndpoint().toString());
    p.put("clusterresolver.gce.credentials", "none");
    return p;
  }

  // ---- the project ----

  /** Adds instances (replacing any with the same name). */
  public SimulatedGce add(SimulatedGceInstance... instances) {
    synchronized (fleet) {
      for (SimulatedGceInstance i : instances) {
        fleet.put(i.name(), i);
        zones.add(i.zone());
      }
    }
    return this;
  }

  /** Adds {@code n} {@linkplain SimulatedGceInstance#typical(int) typical} instances numbered from {@code from}. */
  public SimulatedGce addTypical(int from, int n, UnaryOperator<SimulatedGceInstance.Builder> customize) {
    for (int i = from; i < from + n; i++) {
      add(customize.apply(SimulatedGceInstance.typical(i)).build());
    }
    return this;
  }

  /** Changes an instance in place. */
  public SimulatedGce update(String name, UnaryOperator<SimulatedGceInstance.Builder> change) {
    synchronized (fleet) {
      SimulatedGceInstance current = fleet.get(name);
      if (current == null) {
        throw new IllegalArgumentException("No instance " + name + " in the simulated project");
      }
      SimulatedGceInstance changed = change.apply(current.toBuilder()).build();
      fleet.put(name, changed);
      zones.add(changed.zone());
    }
    return this;
  }

  /** Removes an instance; true when it was there. */
  public boolean remove(String name) {
    synchronized (fleet) {
      return fleet.remove(name) != null;
    }
  }

  /** Removes every instance (not the zones, groups or machine types). */
  public SimulatedGce clear() {
    synchronized (fleet) {
      fleet.clear();
    }
    return this;
  }

  /** A snapshot of the instances in insertion order. */
  public List<SimulatedGceInstance> instances() {
    synchronized (fleet) {
      return List.copyOf(fleet.values());
    }
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
   * Meters every Compute Engine API call with a token bucket, as Google meters a project's read
   * requests: a call that finds no token is answered as Compute Engine documents it, 403 with reason
   * {@code rateLimitExceeded} (domain {@code usageLimits}; cloud.google.com/compute/api-quota). The bucket counts what it served and throttled; {@code null} turns
   * metering off (the default). Metadata-server and token-endpoint calls are not metered.
   */
  public SimulatedGce rateLimit(TokenBucket bucket) {
    this.rateLimit = bucket;
    return this;
  }

  /** A delay added to every API call (not to the metadata server or the token endpoint). */
  public SimulatedGce latency(Duration latency) {
    this.latency = latency == null ? Duration.ZERO : latency;
    return this;
  }

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

  /** Adds a fault; faults are checked in the order added. */
  public SimulatedGce inject(GceFault fault) {
    faults.add(fault, fault.times());
    return this;
  }

  public SimulatedGce clearFaults() {
    faults.clear();
    return this;
  }

  // ---- observation ----

  /**
   * How many requests of an operation arrived, faulted ones included: {@code instances.aggregatedList},
   * {@code instances.list}, {@code instances.get}, {@code instanceGroups.listInstances},
   * {@code machineTypes.get}, {@code metadata}, {@code oauth2.token}.
   */
  public int callCount(String operation) {
    return calls.count(operation);
  }

  /** Request counts by operation. */
  public Map<String, Integer> callCounts() {
    return calls.counts();
  }

  /** The requests seen (the last 10 000), oldest first. */
  public List<RecordedRequest> requests() {
    return calls.requests();
  }

  /** The access tokens {@code POST /token} has issued (to check that none is ever printed or logged). */
  public Set<String> issuedTokens() {
    return Set.copyOf(tokens);
  }

  /** Forgets counts and recorded requests (not the project or faults). */
  public SimulatedGce resetCounts() {
    calls.reset();
    return this;
  }

  @Override
  public void close() {
    server.stop();
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
    String name = self;
    if (name == null) {
      return null;
    }
    synchronized (fleet) {
      return fleet.get(name);
    }
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

  private GceFault takeFault(String operation, int page) {
    return faults.take(f -> f.matches(operation, page));
  }

  private void record(RecordedRequest request) {
    calls.record(request.operation(), request);
  }

  /** Answers every request from the simulation's state. */
  private final class Transformer implements ResponseDefinitionTransformerV2 {
    @Override
    public String getName() {
      return TRANSFORMER;
    }

    @Override
    public boolean applyGlobally() {
      return false;
    }

    @Override
    public ResponseDefinition transform(ServeEvent event) {
      Request request = event.getRequest();
      URI uri = URI.create(request.getUrl());
      String path = uri.getPath();
      String method = request.getMethod().getName();
      Map<String, String> headers = new LinkedHashMap<>();
      for (HttpHeader h : request.getHeaders().all()) {
        headers.put(h.key().toLowerCase(Locale.ROOT), h.firstValue());
      }
      Map<String, String> params = query(uri.getRawQuery());
      String body = request.getBodyAsString();
      if (path.startsWith(SimulatedGceMetadata.PREFIX.substring(0, SimulatedGceMetadata.PREFIX.length() - 1))) {
        record(new RecordedRequest(method, path, GceFault.METADATA, headers, params, body));
        ResponseDefinition answer = metadata.answer(path.endsWith("/v1") ? SimulatedGceMetadata.PREFIX : path, headers);
        GceFault fault = takeFault(GceFault.METADATA, 1);
        if (fault == null) {
          return answer;
        }
        switch (fault.kind()) {
          case SLOW:
            return ResponseDefinitionBuilder.like(answer).withFixedDelay((int) fault.delay().toMillis()).build();
          case CONNECTION_RESET:
            return aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER).build();
          case MALFORMED_JSON:
          case TRUNCATED_JSON:
            return aResponse().withStatus(200).withHeader("Content-Type", "text/html")
                .withBody("<html><body>\u0000 captive portal: sign in \uFFFD</body></html>").build();
          default:
            return aResponse().withStatus(500).withBody("").build();
        }
      }
      if (path.equals("/token")) {
        record(new RecordedRequest(method, path, "oauth2.token", headers, params, body));
        return token(method, body);
      }
      String operation = operation(method, path);
      record(new RecordedRequest(method, path, operation, headers, params, body));
      try {
        authorize(headers.get("authorization"));
        if (TokenBucket.throttles(rateLimit)) {
          return faulted(GceFault.rateQuotaExceeded());
        }
        return GceApi.answer(SimulatedGce.this, operation, path, params, body);
      } catch (GceJson.ApiError e) {
        return GceJson.error(e, latency.toMillis());
      }
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> params = new LinkedHashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        if (!pair.isEmpty()) {
          params.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
              eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return params;
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
    if (!authorization.startsWith("Bearer ") || !tokens.contains(authorization.substring("Bearer ".length()))) {
      throw new GceJson.ApiError(401, "authError", "UNAUTHENTICATED", "Request had invalid authentication credentials."
          + " Expected OAuth 2 access token, login cookie or other valid authentication credential.");
    }
  }

  private ResponseDefinition token(String method, String body) {
    Map<String, String> form = query(body);
    String assertion = form.getOrDefault("assertion", "");
    if (!"POST".equals(method) || !"urn:ietf:params:oauth:grant-type:jwt-bearer".equals(form.get("grant_type"))
        || assertion.split("\\.").length != 3) {
      return GceJson.json(400, "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}", 0);
    }
    String token = "ya29.simulated-" + UUID.randomUUID().toString().replace("-", "");
    tokens.add(token);
    return GceJson.json(200, "{\"access_token\":\"" + token + "\",\"expires_in\":3599,\"token_type\":\"Bearer\"}", 0);
  }

  // ---- what GceApi reads ----

  /** Instances in list order: by zone, then name. */
  List<SimulatedGceInstance> sortedInstances() {
    List<SimulatedGceInstance> all = new ArrayList<>(instances());
    all.sort(Comparator.comparing(SimulatedGceInstance::zone).thenComparing(SimulatedGceInstance::name));
    return all;
  }

  SimulatedGceInstance instance(String name) {
    synchronized (fleet) {
      return fleet.get(name);
    }
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

  long latencyMillis() {
    return latency.toMillis();
  }

  /** A fault for this call, or {@code null}; {@code SLOW} faults are returned too (the answer is delayed). */
  GceFault fault(String operation, int page) {
    return takeFault(operation, page);
  }

  private static final String QUOTA_MESSAGE = "Quota exceeded for quota metric 'Read requests' and limit 'Read"
      + " requests per minute' of service 'compute.googleapis.com' for consumer 'project_number:123456789012'.";

  /** The answer of a faulted call. */
  ResponseDefinition faulted(GceFault fault) {
    long delay = latency.toMillis();
    switch (fault.kind()) {
      case RATE_LIMIT_EXCEEDED:
        return GceJson.error(new GceJson.ApiError(429, "rateLimitExceeded", "RESOURCE_EXHAUSTED", QUOTA_MESSAGE), delay);
      case RATE_QUOTA_EXCEEDED:
        return GceJson.error(new GceJson.ApiError(403, "rateLimitExceeded", "PERMISSION_DENIED", QUOTA_MESSAGE), delay);
      case BACKEND_ERROR:
        return GceJson.error(new GceJson.ApiError(500, "backendError", "INTERNAL", "Internal error. Please try again"
            + " or contact Google Support. (Code: '5F2A1B3C4D5E6')"), delay);
      case CONNECTION_RESET:
        return aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER).build();
      case AUTH_FAILURE:
        return GceJson.error(new GceJson.ApiError(401, "authError", "UNAUTHENTICATED", "Request had invalid"
            + " authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication"
            + " credential."), delay);
      case TRUNCATED_JSON:
        return GceJson.json(200, "{\n  \"kind\": \"compute#instanceAggregatedList\",\n  \"items\": {\n    \"zones/", delay);
      default:
        return GceJson.json(200, "<html><body>this is not JSON & never was</body></html>", delay);
    }
  }

  String projectName() {
    return project;
  }
}
