package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A simulated Kubernetes API server on a local WireMock server: pods in namespaces that may change
 * between calls, listed in the API's own wire format. Point the fabric8 client (or any Kubernetes
 * client) at {@link #endpoint()} with a bearer token.
 *
 * <ul>
 *   <li>{@code GET /api/v1/namespaces/{ns}/pods} and {@code GET /api/v1/pods}: a {@code PodList}
 *       ({@code apiVersion: v1}, {@code metadata.resourceVersion}, {@code metadata.continue},
 *       {@code metadata.remainingItemCount}, {@code items}) in key order ({@code namespace/name}),
 *       filtered by {@code labelSelector} (equality- and set-based), {@code limit} items at a time
 *       with {@code continue} tokens in the API server's own format. A token older than
 *       {@link #expireContinueTokens()} is answered with 410 Gone, reason {@code Expired}.
 *   <li>Every request needs {@code Authorization: Bearer TOKEN} with a token {@link #acceptTokens
 *       accepted} at that moment, else 401 {@code Unauthorized}; so a client that keeps a rotated-out
 *       token is seen failing. Listing pods in a {@linkplain #forbid forbidden} namespace is 403
 *       {@code Forbidden} with the API server's message naming the user of the token.
 *   <li>Errors are {@code Status} objects; every answer carries an {@code Audit-Id}.
 *   <li>Call counts, the requests seen, a latency added to every list, and {@link Fault}s by page
 *       and count (throttling as 429 {@code TooManyRequests} with {@code Retry-After}, 500
 *       {@code InternalError}, connection resets, truncated and malformed bodies, slow answers, 401);
 *       a rate limit ({@link #rateLimit(TokenBucket)}, off by default) answered the same 429.
 * </ul>
 *
 * <p>Pages after the first are read from the current pods (not a snapshot of the first page's
 * resource version). The server listens on 127.0.0.1 only. Thread-safe; close it when done.
 */
public final class SimulatedKubernetes extends SimulatedApi<SimulatedKubernetes, SimulatedKubernetes.RecordedRequest> {

  /** The operation name of pod lists in {@link #callCount(String)}. */
  public static final String LIST_PODS = "list pods";

  private static final Pattern NAMESPACED_PODS = Pattern.compile("/api/v1/namespaces/([^/]+)/pods");
  private static final String EXPIRED = "The provided continue parameter is too old to display a consistent list"
      + " result. You can start a new list without the continue parameter, or use the continue token in this"
      + " response to retrieve the remainder of the results. Continuing with the provided token results in an"
      + " inconsistent list - objects that were created, modified, or deleted between the time the first chunk"
      + " was returned and now may show up in the list.";

  /** By {@code namespace/name}; the list's {@code resourceVersion} is 1000 plus the fleet's version. */
  private final Fleet<SimulatedPod> pods = Fleet.inKeyOrder("pod");
  private final Map<String, String> tokens = new ConcurrentHashMap<>();
  private final Set<String> forbidden = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> tokenPages = new ConcurrentHashMap<>();
  private volatile long oldestValidVersion;
  private final AtomicInteger expireIssued = new AtomicInteger();

  private SimulatedKubernetes() {
    super("simulated-kubernetes", null, LIST_PODS, 16, o -> o);
  }

  /**
   * Starts an API server on a free loopback port that accepts the bearer token
   * {@code simulated-token} for the service account {@code default/cluster-resolver}.
   */
  public static SimulatedKubernetes start() {
    SimulatedKubernetes k = new SimulatedKubernetes();
    k.acceptTokens(Map.of("simulated-token", "system:serviceaccount:default:cluster-resolver"));
    return k;
  }

  // ---- pods ----

  /** Adds pods (replacing any with the same namespace and name). */
  public SimulatedKubernetes add(SimulatedPod... added) {
    return addAll(List.of(added));
  }

  /** Adds pods (replacing any with the same namespace and name). */
  public SimulatedKubernetes addAll(Collection<SimulatedPod> added) {
    pods.putAll(added, SimulatedPod::key);
    return this;
  }

  /** Removes a pod; true when it was there. */
  public boolean remove(String namespace, String name) {
    return pods.remove(namespace + "/" + name);
  }

  /** Changes a pod in place (its namespace and name stay). */
  public SimulatedKubernetes update(String namespace, String name, UnaryOperator<SimulatedPod.Builder> change) {
    pods.update(namespace + "/" + name, p -> change.apply(p.toBuilder()).build());
    return this;
  }

  /** Removes every pod. */
  public SimulatedKubernetes clear() {
    pods.clear();
    return this;
  }

  /** Every pod, in key order ({@code namespace/name}). */
  public List<SimulatedPod> pods() {
    return pods.list();
  }

  // ---- authentication and authorization ----

  /**
   * The bearer tokens accepted from now on, each with the user it authenticates (like
   * {@code system:serviceaccount:ml:trainer}); every other token gets 401. Replaces the previous set,
   * so a rotation that revokes the old token is {@code acceptTokens(Map.of(newToken, user))}.
   */
  public SimulatedKubernetes acceptTokens(Map<String, String> tokensToUsers) {
    synchronized (tokens) {
      tokens.clear();
      tokens.putAll(tokensToUsers);
    }
    return this;
  }

  /** Listing pods in this namespace is refused with 403 (no RBAC rule allows it). */
  public SimulatedKubernetes forbid(String namespace) {
    forbidden.add(namespace);
    return this;
  }

  /** Allows listing pods in a namespace again. */
  public SimulatedKubernetes allow(String namespace) {
    forbidden.remove(namespace);
    return this;
  }

  // ---- behaviour ----

  /** Every continue token issued so far is answered with 410 Gone (the API server compacted past it). */
  public SimulatedKubernetes expireContinueTokens() {
    return pods.locked(() -> {
      pods.touch();
      oldestValidVersion = resourceVersion(pods.version());
      return this;
    });
  }

  /**
   * The next {@code n} continue tokens are issued already expired, as when the API server compacts
   * between two pages: the page after each is answered with 410 Gone.
   */
  public SimulatedKubernetes expireNextContinueTokens(int n) {
    expireIssued.set(n);
    return this;
  }

  /** Adds a fault for the next {@code times} matching calls (see {@link #inject(Fault)}). */
  public boolean inject(Fault fault, int times) {
    return inject(fault.times(times));
  }

  /** Pod list requests so far. */
  public int listCalls() {
    return callCount(LIST_PODS);
  }

  @Override
  public String toString() {
    return "SimulatedKubernetes{" + endpoint() + ", " + pods().size() + " pods}";
  }

  /**
   * One request: method, path, the decoded query parameters, the bearer token it carried (or
   * {@code null}), the operation and the {@code Audit-Id} it was answered with.
   */
  public record RecordedRequest(String method, String path, Map<String, String> query, String bearerToken,
      String operation, String auditId) {
    @Override
    public String toString() {
      return method + " " + path + " " + query.keySet() + " (" + operation + ")";
    }
  }

  // ---- internals ----

  /** The {@code resourceVersion} of a fleet version. */
  private static long resourceVersion(long fleetVersion) {
    return 1000 + fleetVersion;
  }

  @Override
  String operation(Call call) {
    boolean list = "GET".equals(call.method())
        && (NAMESPACED_PODS.matcher(call.path()).matches() || call.path().equals("/api/v1/pods"));
    return list ? LIST_PODS : "other";
  }

  @Override
  RecordedRequest recorded(Call call, String operation) {
    return new RecordedRequest(call.method(), call.path(), call.query(), bearerToken(call), operation, call.id());
  }

  private static String bearerToken(Call call) {
    String auth = call.header("Authorization");
    return auth != null && auth.startsWith("Bearer ") ? auth.substring(7).trim() : null;
  }

  private String user(Call call) {
    String token = bearerToken(call);
    return token == null ? null : tokens.get(token);
  }

  @Override
  ResponseDefinition refuse(Call call, String operation) {
    return user(call) == null ? KubernetesWire.error(401, "Unauthorized", "Unauthorized", null, call.id(), 0) : null;
  }

  @Override
  ResponseDefinition answer(Call call, String operation) {
    String auditId = call.id();
    if (!operation.equals(LIST_PODS)) {
      return KubernetesWire.error(404, "NotFound", "the server could not find the requested resource", null,
          auditId, 0);
    }
    Matcher namespaced = NAMESPACED_PODS.matcher(call.path());
    String namespace = namespaced.matches() ? namespaced.group(1) : null;
    if (forbidden.contains(namespace == null ? "" : namespace)) {
      return KubernetesWire.error(403, "Forbidden", "pods is forbidden: User \"" + user(call)
          + "\" cannot list resource \"pods\" in API group \"\" in the namespace \"" + namespace + "\"",
          "{\"kind\":\"pods\"}", auditId, 0);
    }
    try {
      return listPods(namespace, call);
    } catch (LabelSelectors.InvalidSelector | BadRequest e) {
      return KubernetesWire.error(400, "BadRequest", e.getMessage(), null, auditId, 0);
    }
  }

  private static final class BadRequest extends IllegalArgumentException {
    BadRequest(String message) {
      super(message);
    }
  }

  private ResponseDefinition listPods(String namespace, Call call) {
    Map<String, String> query = call.query();
    String auditId = call.id();
    Predicate<Map<String, String>> selector = LabelSelectors.parse(query.get("labelSelector"));
    long limit = 0;
    if (query.containsKey("limit")) {
      try {
        limit = Long.parseLong(query.get("limit"));
      } catch (NumberFormatException e) {
        throw new BadRequest("limit: Invalid value: \"" + query.get("limit") + "\": must be an integer");
      }
    }
    String continueToken = query.get("continue");
    String start = null;
    int page = 1;
    if (continueToken != null && !continueToken.isEmpty()) {
      Object[] decoded = KubernetesWire.decodeToken(continueToken);
      if (decoded == null) {
        throw new BadRequest("continue key is not valid: illegal base64 data or not a continue token");
      }
      if ((Long) decoded[0] < oldestValidVersion) {
        return KubernetesWire.error(410, "Expired", EXPIRED, null, auditId, latencyMillis());
      }
      start = (String) decoded[1];
      page = tokenPages.getOrDefault(continueToken, 2);
    }
    Fault fault = fault(LIST_PODS, page);
    if (fails(fault)) {
      return faulted(fault, call);
    }
    List<SimulatedPod> matching = new ArrayList<>();
    Fleet.Snapshot<SimulatedPod> all = pods.snapshot();
    long rv = resourceVersion(all.version());
    for (SimulatedPod p : all.machines()) {
      if ((namespace == null || p.namespace().equals(namespace)) && (start == null || p.key().compareTo(start) > 0)
          && selector.test(p.labels())) {
        matching.add(p);
      }
    }
    int n = limit > 0 ? (int) Math.min(limit, matching.size()) : matching.size();
    StringBuilder json = new StringBuilder(256 + n * 1600);
    json.append("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"").append(rv).append('"');
    if (n < matching.size()) {
      String next = KubernetesWire.continueToken(rv, matching.get(n - 1).key());
      if (tokenPages.size() > 100_000) {
        tokenPages.clear();
      }
      tokenPages.put(next, page + 1);
      if (expireIssued.getAndUpdate(x -> Math.max(0, x - 1)) > 0) {
        expireContinueTokens();
      }
      json.append(",\"continue\":").append(KubernetesWire.quote(next))
          .append(",\"remainingItemCount\":").append(matching.size() - n);
    }
    json.append("},\"items\":[");
    for (int i = 0; i < n; i++) {
      json.append(i == 0 ? "" : ",").append(matching.get(i).json());
    }
    json.append("]}");
    return ok(json.toString(), auditId, delay(fault));
  }

  private static ResponseDefinition ok(String body, String auditId, long delayMs) {
    ResponseDefinitionBuilder b = aResponse().withStatus(200)
        .withHeader("Content-Type", "application/json")
        .withHeader("Audit-Id", auditId)
        .withHeader("Cache-Control", "no-cache, private")
        .withBody(body);
    return SimulatedApi.build(b, delayMs);
  }

  @Override
  ResponseDefinition error(Fault fault, Call call, long delay) {
    String auditId = call.id();
    return switch (fault.kind()) {
      case THROTTLED -> KubernetesWire.error(429, "TooManyRequests", "Too many requests, please try again later.",
          "{\"retryAfterSeconds\":1}", auditId, delay);
      case SERVER_ERROR -> KubernetesWire.error(500, "InternalError",
          "Internal error occurred: etcdserver: request timed out",
          "{\"causes\":[{\"message\":\"etcdserver: request timed out\"}]}", auditId, delay);
      case CREDENTIALS_REJECTED -> KubernetesWire.error(401, "Unauthorized", "Unauthorized", null, auditId, delay);
      case TRUNCATED_BODY -> ok("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"1\"},"
          + "\"items\":[{\"metadata\":{\"name\":\"trun", auditId, delay);
      default -> aResponse().withStatus(200).withHeader("Content-Type", "text/html")
          .withBody("<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>")
          .build();
    };
  }
}
