package io.clusterresolver.testkit;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A simulated Cloud TPU API v2 on a local WireMock server, in the API's REST wire format, plus the
 * Compute Engine metadata server a TPU VM sees and an OAuth token endpoint, all on one port. Point the
 * real {@code google-cloud-tpu} client (HttpJson transport) at {@link #endpoint()}.
 *
 * <ul>
 *   <li>{@code GET /v2/projects/P/locations/ZONE/nodes/NAME} ({@code nodes.get}): the node's JSON
 *       ({@code name}, {@code acceleratorType}, {@code state}, {@code health}, {@code healthDescription},
 *       {@code networkEndpoints[{ipAddress, port, accessConfig}]}, …) in every state; enums as numbers when
 *       the client asks for {@code $alt=json;enum-encoding=int} (as the Java client does), else as names.
 *       An unknown node is 404 {@code NOT_FOUND} in Google's JSON error shape.
 *   <li>{@code GET /v2/projects/P/locations/ZONE/nodes} ({@code nodes.list}): {@code pageSize}
 *       (default 100, at most 1000) and {@code pageToken}, answered with {@code nodes} and
 *       {@code nextPageToken}.
 *   <li>{@code /computeMetadata/v1/...} with {@code Metadata-Flavor: Google}: project, zone, internal IP
 *       and the TPU VM attributes of the worker chosen with {@link #identifyAs(String, int)}.
 *   <li>{@code POST /token}: an OAuth token for a service-account JWT (a key file whose {@code token_uri}
 *       is {@link #tokenUri()}); API calls carrying a bearer token it did not issue are 401
 *       {@code UNAUTHENTICATED}; calls without a token are accepted unless {@link #requireToken(boolean)}.
 *   <li>Call counts per operation, a latency added to every API call, faults ({@link Fault}), and a
 *       request quota ({@link #rateLimit(TokenBucket)}, off by default).
 * </ul>
 *
 * <p>The server listens on 127.0.0.1 only. Thread-safe; close it when done.
 */
public final class SimulatedTpu extends SimulatedGoogleApi<SimulatedTpu, SimulatedApi.Call> {

  /** The operation name of {@code nodes.get}, for counts and faults. */
  public static final String NODES_GET = "nodes.get";
  /** The operation name of {@code nodes.list}. */
  public static final String NODES_LIST = "nodes.list";
  /** Requests to the token endpoint. */
  public static final String TOKEN = "token";

  private static final String UNKNOWN = "(unknown)";
  private static final Pattern NODE = Pattern.compile("/v2/projects/([^/]+)/locations/([^/]+)/nodes/([^/]+)");
  private static final Pattern LIST = Pattern.compile("/v2/projects/([^/]+)/locations/([^/]+)/nodes");

  private final String project;
  private final String zone;
  private final long projectNumber = 123_456_789_012L;
  /** Nodes by full resource name, in insertion order. */
  /** By resource name. */
  private final Fleet<SimulatedTpuNode> nodes = Fleet.inOrderAdded("node");
  private volatile Map<String, String> metadataValues = Map.of();
  private final AtomicInteger withToken = new AtomicInteger();
  private final AtomicInteger withoutToken = new AtomicInteger();
  private volatile boolean requireToken;

  private SimulatedTpu(String project, String zone) {
    super("simulated-tpu", null);
    this.project = project;
    this.zone = zone;
    describe(null, -1);
  }

  /** Starts a simulation of project {@code demo-project}, zone {@code us-central2-b}, on a free loopback port. */
  public static SimulatedTpu start() {
    return start("demo-project", "us-central2-b");
  }

  /** Starts a simulation whose metadata server names this project and zone. */
  public static SimulatedTpu start(String project, String zone) {
    return new SimulatedTpu(project, zone);
  }

  /** The OAuth token endpoint, for a service-account key file's {@code token_uri}. */
  public URI tokenUri() {
    return endpoint().resolve("/token");
  }

  /** The default project (the metadata server's). */
  public String project() {
    return project;
  }

  /** The default zone (the metadata server's). */
  public String zone() {
    return zone;
  }

  /** The full resource name of a node in the default project and zone. */
  public String resourceName(String node) {
    return resourceName(project, zone, node);
  }

  /** The full resource name {@code projects/P/locations/ZONE/nodes/NAME}. */
  public static String resourceName(String project, String zone, String node) {
    return "projects/" + project + "/locations/" + zone + "/nodes/" + node;
  }

  /**
   * The properties that point the {@code tpu} provider at this simulation for one node of the default
   * project and zone: name, project, zone, both endpoints, and {@code credentials=none}.
   */
  public Map<String, String> providerProperties(String node) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("clusterresolver.tpu.name", node);
    p.put("clusterresolver.tpu.project", project);
    p.put("clusterresolver.tpu.zone", zone);
    p.putAll(endpointProperties("tpu"));
    return p;
  }

  // ---- nodes ----

  /** Adds (or replaces) nodes in the default project and zone. */
  public SimulatedTpu add(SimulatedTpuNode... added) {
    for (SimulatedTpuNode n : added) {
      put(project, zone, n);
    }
    return this;
  }

  /** Adds (or replaces) a node in another project or zone. */
  public SimulatedTpu put(String project, String zone, SimulatedTpuNode node) {
    nodes.put(resourceName(project, zone, node.name()), node);
    return this;
  }

  /** Changes a node of the default project and zone in place (a builder keeps the name). */
  public SimulatedTpu update(String node, UnaryOperator<SimulatedTpuNode.Builder> change) {
    nodes.update(resourceName(node), n -> change.apply(n.toBuilder()).build());
    return this;
  }

  /** Sets a node's state. */
  public SimulatedTpu setState(String node, SimulatedTpuNode.State state) {
    return update(node, b -> b.state(state));
  }

  /** Removes a node of the default project and zone; true when it was there. */
  public boolean remove(String node) {
    return nodes.remove(resourceName(node));
  }

  /** Removes every node. */
  public SimulatedTpu clear() {
    nodes.clear();
    return this;
  }

  /** A node of the default project and zone, or {@code null}. */
  public SimulatedTpuNode node(String node) {
    return nodes.get(resourceName(node));
  }

  // ---- the metadata server ----

  /**
   * Makes the metadata server describe worker {@code worker} of a node of the default project and
   * zone (its internal IP and the TPU VM attributes); {@code -1}: a VM of the project that is no worker.
   */
  public SimulatedTpu identifyAs(String node, int worker) {
    SimulatedTpuNode n = node == null ? null : node(node);
    if (node != null && n == null) {
      throw new IllegalArgumentException("No node " + node + " in the simulation");
    }
    if (n != null && worker >= n.endpoints().size()) {
      throw new IllegalArgumentException("Node " + node + " has " + n.endpoints().size() + " workers, not " + (worker + 1));
    }
    describe(n, worker);
    return this;
  }

  /** Whether the metadata server answers at all (down: every request is met with a reset connection). */
  public SimulatedTpu metadataDown(boolean down) {
    metadata.down(down);
    return this;
  }

  @Override
  Map<String, String> metadataValues() {
    return metadataValues;
  }

  /** The metadata values of a VM that is worker {@code worker} of {@code node} ({@code worker} -1: a VM on no node). */
  private void describe(SimulatedTpuNode node, int worker) {
    Map<String, String> v = GoogleMetadataServer.projectValues(project, projectNumber, zone);
    if (node != null && worker >= 0) {
      v.put("instance/network-interfaces/0/ip", node.endpoints().get(worker).ipAddress());
      v.put("instance/hostname", "t1v-n-" + Long.toHexString(node.id()).substring(0, 8) + "-w-" + worker
          + "." + zone + ".c." + project + ".internal");
      StringBuilder endpoints = new StringBuilder();
      for (SimulatedTpuNode.Endpoint e : node.endpoints()) {
        endpoints.append(endpoints.length() == 0 ? "" : ",").append("unknown:unknown:").append(e.ipAddress());
      }
      v.put("instance/attributes/worker-network-endpoints", endpoints.toString());
      v.put("instance/attributes/agent-worker-number", Integer.toString(worker));
      v.put("instance/attributes/accelerator-type", node.acceleratorType());
    } else {
      v.put("instance/network-interfaces/0/ip", "10.128.0.99");
    }
    metadataValues = Map.copyOf(v);
  }

  // ---- behaviour ----

  /**
   * Meters every Cloud TPU API call ({@code nodes.get}, {@code nodes.list}) with a token bucket, as Google
   * meters a project's requests per minute: a call that finds no token is answered 429
   * {@code RESOURCE_EXHAUSTED} in Google's JSON error shape (the same answer as
   * a {@link Fault.Kind#THROTTLED} fault), and is counted in {@link #callCount}. The bucket counts what it
   * served and throttled; {@code null} turns metering off (the default). Metadata-server and token-endpoint
   * calls are not metered.
   *
   * @param bucket for instance {@link TokenBucket#googlePerMinute(double)} with the project's quota
   */
  @Override
  public SimulatedTpu rateLimit(TokenBucket bucket) {
    return super.rateLimit(bucket);
  }

  /** Whether API calls without a bearer token are refused (401), as the real API does. Off by default. */
  public SimulatedTpu requireToken(boolean require) {
    this.requireToken = require;
    return this;
  }

  /** How many API calls carried a bearer token this simulation issued. */
  public int callsWithToken() {
    return withToken.get();
  }

  /** How many API calls carried no {@code Authorization} header at all. */
  public int callsWithoutToken() {
    return withoutToken.get();
  }

  /** Forgets counts (not nodes, metadata or faults). */
  @Override
  public SimulatedTpu resetCounts() {
    withToken.set(0);
    withoutToken.set(0);
    return super.resetCounts();
  }

  @Override
  public String toString() {
    return "SimulatedTpu{" + endpoint() + ", " + nodes.list().size() + " nodes}";
  }

  // ---- internals ----

  @Override
  String operation(Call call) {
    String path = call.path();
    boolean get = "GET".equals(call.method());
    if (GoogleMetadataServer.serves(path)) {
      return METADATA;
    }
    if (path.equals(GoogleTokenEndpoint.PATH)) {
      return "POST".equals(call.method()) ? TOKEN : UNKNOWN;
    }
    return get && NODE.matcher(path).matches() ? NODES_GET : get && LIST.matcher(path).matches() ? NODES_LIST : UNKNOWN;
  }

  @Override
  Call recorded(Call call, String operation) {
    return call;
  }

  private static String requestId(Call call) {
    return call.id().replace("-", "").substring(0, 16);
  }

  @Override
  ResponseDefinition refuse(Call call, String operation) {
    if (operation.equals(UNKNOWN)) {
      // The API's own 404 for an unknown method or path.
      return TpuJson.json(404, "{\n  \"error\": {\n    \"code\": 404,\n    \"message\": \"The requested URL was not"
          + " found on this server.\",\n    \"status\": \"NOT_FOUND\"\n  }\n}\n", 0);
    }
    if (operation.equals(TOKEN)) {
      return tokens.answer(call);
    }
    String authorization = call.header("Authorization");
    if (authorization == null) {
      withoutToken.incrementAndGet();
      if (requireToken) {
        return TpuJson.error(401, "UNAUTHENTICATED", "Request is missing required authentication credential."
            + " Expected OAuth 2 access token, login cookie or other valid authentication credential.", requestId(call), 0);
      }
    } else if (!tokens.accepts(authorization)) {
      return TpuJson.error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected"
          + " OAuth 2 access token, login cookie or other valid authentication credential.", requestId(call), 0);
    } else {
      withToken.incrementAndGet();
    }
    return null;
  }

  @Override
  ResponseDefinition answer(Call call, String operation) {
    boolean intEnums = call.query().getOrDefault("$alt", "").contains("enum-encoding=int");
    Matcher get = NODE.matcher(call.path());
    if (get.matches()) {
      return nodesGet(get.group(1), get.group(2), get.group(3), intEnums, call);
    }
    Matcher list = LIST.matcher(call.path());
    list.matches();
    return nodesList(list.group(1), list.group(2), call, intEnums);
  }

  private ResponseDefinition nodesGet(String project, String zone, String name, boolean intEnums, Call call) {
    Fault fault = fault(NODES_GET, 1);
    if (fails(fault)) {
      return faulted(fault, call);
    }
    String full = resourceName(project, zone, name);
    SimulatedTpuNode node = nodes.get(full);
    long delay = delay(fault);
    if (node == null) {
      return TpuJson.error(404, "NOT_FOUND", "Resource " + full + " was not found", requestId(call), delay);
    }
    return TpuJson.json(200, TpuJson.node(project, zone, node, intEnums), delay);
  }

  private ResponseDefinition nodesList(String project, String zone, Call call, boolean intEnums) {
    String requestId = requestId(call);
    int pageSize = 100;
    String size = call.query().getOrDefault("pageSize", "");
    if (!size.isEmpty()) {
      try {
        pageSize = Integer.parseInt(size);
      } catch (NumberFormatException e) {
        return TpuJson.error(400, "INVALID_ARGUMENT", "Invalid value at 'page_size' (TYPE_INT32), \"" + size + "\"",
            requestId, 0);
      }
      pageSize = pageSize <= 0 ? 100 : Math.min(pageSize, 1000);
    }
    int offset = 0;
    int page = 1;
    String token = call.query().getOrDefault("pageToken", "");
    if (!token.isEmpty()) {
      String[] parts = token.split("-");
      try {
        page = Integer.parseInt(parts[0]);
        offset = Integer.parseInt(parts[1]);
      } catch (RuntimeException e) {
        return TpuJson.error(400, "INVALID_ARGUMENT", "Invalid page token: " + token, requestId, 0);
      }
    }
    Fault fault = fault(NODES_LIST, page);
    if (fails(fault)) {
      return faulted(fault, call);
    }
    String prefix = "projects/" + project + "/locations/" + zone + "/nodes/";
    List<SimulatedTpuNode> inZone = new ArrayList<>();
    nodes.forEach((full, node) -> {
      if (full.startsWith(prefix) || ("-".equals(zone) && full.startsWith("projects/" + project + "/"))) {
        inZone.add(node);
      }
    });
    int end = Math.min(inZone.size(), offset + pageSize);
    StringBuilder j = new StringBuilder("{\n  \"nodes\": [");
    for (int i = offset; i < end; i++) {
      j.append(i == offset ? "\n" : ",\n").append(TpuJson.node(project, zone, inZone.get(i), intEnums));
    }
    j.append("\n  ]");
    if (end < inZone.size()) {
      j.append(",\n  \"nextPageToken\": \"").append(page + 1).append('-').append(end).append('"');
    }
    j.append("\n}\n");
    return TpuJson.json(200, j.toString(), delay(fault));
  }

  /** The Cloud TPU API's answer to a fault, in Google's JSON error shape; a server error is 503 {@code UNAVAILABLE} when asked. */
  @Override
  ResponseDefinition error(Fault fault, Call call, long delay) {
    String requestId = requestId(call);
    switch (fault.kind()) {
      case THROTTLED:
        return TpuJson.error(429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Read requests' and limit"
            + " 'Read requests per minute' of service 'tpu.googleapis.com'", requestId, delay);
      case SERVER_ERROR:
        return fault.status() == 503
            ? TpuJson.error(503, "UNAVAILABLE", "The service is currently unavailable.", requestId, delay)
            : TpuJson.error(500, "INTERNAL", "Internal error encountered.", requestId, delay);
      case CREDENTIALS_REJECTED:
        return TpuJson.error(403, "PERMISSION_DENIED", "Permission 'tpu.nodes.get' denied on resource '//tpu.googleapis.com/"
            + "projects/" + project + "/locations/" + zone + "/nodes' (or it may not exist).", requestId, delay);
      case TRUNCATED_BODY:
        return TpuJson.json(200, "{\n  \"name\": \"projects/" + project + "/locations/" + zone
            + "/nodes/x\",\n  \"acceleratorType\": \"v4-", delay);
      default:
        return TpuJson.json(200, "<html><body>this is not JSON & never was</body></html>", delay);
    }
  }
}
