package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.HttpHeader;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * What every simulated cloud API shares: a loopback WireMock server, the call log, the
 * {@link Fault} rules, a request rate limit ({@link TokenBucket}), a latency, and one request
 * pipeline: record the call, answer the metadata server (with its faults), refuse what the API
 * refuses before metering (credentials, versions), meter, then let the cloud answer (taking its
 * faults where its pages are known). A cloud supplies its routes, its refusals, its answers, its
 * metadata server and one mapping from a fault to its error body; the simulations of this package
 * are the only subclasses. Thread-safe; close it when done.
 *
 * @param <S> the simulation, which the shared setters return
 * @param <R> the request type the simulation records
 */
public abstract class SimulatedApi<S extends SimulatedApi<S, R>, R> implements AutoCloseable {

  private final String metadataOperation;
  private final String listingOperation;
  private final CallLog<R> calls = new CallLog<>();
  private final FaultRules<Fault> faults = new FaultRules<>();
  private final Map<String, AtomicInteger> throttled = new ConcurrentHashMap<>();
  private volatile Duration latency = Duration.ZERO;
  private volatile TokenBucket rateLimit;
  final WireMockServer server;

  /**
   * Starts the server on a free loopback port.
   *
   * @param name the transformer's name
   * @param metadataOperation the operation name of metadata-server calls, or {@code null} for none
   * @param listingOperation the member listing a {@linkplain Fault#onPage paged} fault without an
   *     operation hits, or {@code null} when the members come in one call (then such a fault hits any)
   * @param containerThreads the server's threads
   * @param options more server options (HTTPS)
   */
  SimulatedApi(String name, String metadataOperation, String listingOperation, int containerThreads,
      UnaryOperator<WireMockConfiguration> options) {
    this.metadataOperation = metadataOperation;
    this.listingOperation = listingOperation;
    server = SimulationServer.startAnsweringAll(
        options.apply(SimulationServer.loopback(new Pipeline(name), containerThreads)), name);
  }

  @SuppressWarnings("unchecked")
  final S self() {
    return (S) this;
  }

  /** The API endpoint on plain HTTP, e.g. {@code http://127.0.0.1:41234}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  /** The port the (plain HTTP) server listens on. */
  public int port() {
    return server.port();
  }

  // ---- behaviour ----

  /** A delay added to every API call (not to the metadata server or a token endpoint). */
  public S latency(Duration latency) {
    this.latency = latency == null ? Duration.ZERO : latency;
    return self();
  }

  /**
   * Meters every API call with a token bucket, as the cloud meters an account's requests: a call that
   * finds no token gets the cloud's {@link Fault.Kind#THROTTLED} answer (after the latency) and is
   * counted as {@linkplain #throttledCount() throttled}. {@code null} (the default) meters nothing.
   * Metadata-server and token-endpoint calls, and calls refused before (such as a 401), take no token.
   */
  public S rateLimit(TokenBucket bucket) {
    this.rateLimit = bucket;
    return self();
  }

  /**
   * Adds a fault for the calls it {@linkplain Fault hits}; faults are checked in the order added.
   * Returns {@code false} (and adds nothing) for a metadata fault when the simulation has no
   * metadata server.
   */
  public boolean inject(Fault fault) {
    if (fault.kind().metadata() && metadataOperation == null) {
      return false;
    }
    faults.add(fault, fault.times());
    return true;
  }

  /** Removes all faults. */
  public S clearFaults() {
    faults.clear();
    return self();
  }

  // ---- observation ----

  /** How many calls of an operation arrived, faulted and throttled ones included. */
  public int callCount(String operation) {
    return calls.count(operation);
  }

  /** Call counts by operation. */
  public Map<String, Integer> callCounts() {
    return calls.counts();
  }

  /** The requests seen (the last 10 000), oldest first. */
  public List<R> requests() {
    return calls.requests();
  }

  /** How many API calls the {@linkplain #rateLimit(TokenBucket) rate limit} throttled. */
  public int throttledCount() {
    return throttled.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  /** How many calls of an operation the {@linkplain #rateLimit(TokenBucket) rate limit} throttled. */
  public int throttledCount(String operation) {
    AtomicInteger n = throttled.get(operation);
    return n == null ? 0 : n.get();
  }

  /** Forgets counts and recorded requests (not the simulated world or the faults). */
  public S resetCounts() {
    calls.reset();
    throttled.clear();
    return self();
  }

  @Override
  public void close() {
    server.stop();
  }

  // ---- what a cloud supplies ----

  /** The operation a call is, by method and path (the metadata operation for metadata-server calls). */
  abstract String operation(Call call);

  /** What the call log keeps of a call. */
  abstract R recorded(Call call, String operation);

  /**
   * The answer to a call before it is metered (credentials missing or rejected, an API version or
   * scheme the API refuses, a call of the token endpoint), or {@code null} to meter and answer it.
   */
  abstract ResponseDefinition refuse(Call call, String operation);

  /** The answer to a metered call; it takes its fault with {@link #fault} where it knows the page. */
  abstract ResponseDefinition answer(Call call, String operation);

  /**
   * The cloud's answer to a fault other than a reset ({@link Fault.Kind#THROTTLED},
   * {@link Fault.Kind#SERVER_ERROR}, {@link Fault.Kind#CREDENTIALS_REJECTED}, a truncated or malformed
   * body), after {@code delayMillis}.
   */
  abstract ResponseDefinition error(Fault fault, Call call, long delayMillis);

  /** The metadata server's answer to a call (only simulations with one override this). */
  ResponseDefinition metadataAnswer(Call call) {
    throw new IllegalStateException("No metadata server in " + getClass().getSimpleName());
  }

  /**
   * The metadata server's answer under a garbage fault (a truncated or malformed body, or
   * {@link Fault.Kind#METADATA_GARBAGE}): by default a captive portal's 200 page.
   */
  ResponseDefinition metadataGarbage(Fault fault) {
    return aResponse().withStatus(200).withHeader("Content-Type", "text/html")
        .withBody("<html><body>\u0000 captive portal: sign in \uFFFD</body></html>").build();
  }

  // ---- what a cloud uses ----

  /** The latency in milliseconds. */
  final long latencyMillis() {
    return latency.toMillis();
  }

  /**
   * The fault that hits this call, counted against it, or {@code null}. A {@link Fault.Kind#SLOW}
   * fault is returned too: the caller answers rightly, {@link #delay(Fault) later}.
   */
  final Fault fault(String operation, int page) {
    return faults.take(f -> f.hits(operation, page, metadataOperation, listingOperation));
  }

  /** Whether the caller answers {@code fault} with {@link #faulted} rather than rightly (and maybe late). */
  static boolean fails(Fault fault) {
    return fault != null && fault.kind() != Fault.Kind.SLOW;
  }

  /** The delay of a right answer: the latency, and a slow fault's delay. */
  final long delay(Fault slow) {
    return latency.toMillis() + (slow != null ? slow.delay().toMillis() : 0);
  }

  /** The answer to a fault that {@linkplain #fails fails} the call. */
  final ResponseDefinition faulted(Fault fault, Call call) {
    if (fault.kind() == Fault.Kind.CONNECTION_RESET || fault.kind() == Fault.Kind.METADATA_ABSENT) {
      return reset();
    }
    return error(fault, call, latency.toMillis());
  }

  static ResponseDefinition reset() {
    return aResponse().withFault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER).build();
  }

  /** The answer {@code b} builds, {@code delayMillis} late. */
  static ResponseDefinition build(ResponseDefinitionBuilder b, long delayMillis) {
    if (delayMillis > 0) {
      b.withFixedDelay((int) delayMillis);
    }
    return b.build();
  }

  static ResponseDefinition delayed(ResponseDefinition answer, long delayMillis) {
    return delayMillis <= 0 ? answer : ResponseDefinitionBuilder.like(answer).withFixedDelay((int) delayMillis).build();
  }

  /** Decodes a query string or form body ({@code a=1&b=2}); the last of a repeated name wins. */
  static Map<String, String> decodeForm(String raw) {
    Map<String, String> params = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return params;
    }
    for (String pair : raw.split("&")) {
      if (!pair.isEmpty()) {
        int eq = pair.indexOf('=');
        params.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
            eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return params;
  }

  /**
   * One request as the pipeline hands it to the cloud.
   *
   * @param method the HTTP method
   * @param url the request URL (path and query)
   * @param scheme {@code http} or {@code https}
   * @param headers the headers' first values, by lower-case name
   * @param query the decoded query parameters
   * @param body the request body
   * @param id a fresh id for the answer's request-id header
   */
  public record Call(String method, URI url, String scheme, Map<String, String> headers, Map<String, String> query,
      String body, String id) {

    /** The decoded path. */
    public String path() {
      return url.getPath();
    }

    /** A header's value by name (any case), or {@code null}. */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    static Call of(Request request) {
      Map<String, String> headers = new LinkedHashMap<>();
      for (HttpHeader h : request.getHeaders().all()) {
        headers.put(h.key().toLowerCase(Locale.ROOT), h.firstValue());
      }
      URI url = URI.create(request.getUrl());
      return new Call(request.getMethod().getName(), url, request.getScheme(), headers, decodeForm(url.getRawQuery()),
          request.getBodyAsString(), UUID.randomUUID().toString());
    }
  }

  /** The request pipeline, once for every cloud. */
  private final class Pipeline implements ResponseDefinitionTransformerV2 {
    private final String name;

    Pipeline(String name) {
      this.name = name;
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public boolean applyGlobally() {
      return false;
    }

    @Override
    public ResponseDefinition transform(ServeEvent event) {
      Call call = Call.of(event.getRequest());
      String operation = operation(call);
      calls.record(operation, recorded(call, operation));
      if (operation.equals(metadataOperation)) {
        return metadata(call);
      }
      ResponseDefinition refused = refuse(call, operation);
      if (refused != null) {
        return refused;
      }
      TokenBucket bucket = rateLimit;
      if (bucket != null && !bucket.tryTake()) {
        throttled.computeIfAbsent(operation, k -> new AtomicInteger()).incrementAndGet();
        return error(Fault.throttled(), call, latency.toMillis());
      }
      return answer(call, operation);
    }

    private ResponseDefinition metadata(Call call) {
      Fault fault = fault(metadataOperation, 1);
      if (fault == null) {
        return metadataAnswer(call);
      }
      return switch (fault.kind()) {
        case SLOW, METADATA_SLOW -> delayed(metadataAnswer(call), fault.delay().toMillis());
        case CONNECTION_RESET, METADATA_ABSENT -> reset();
        case TRUNCATED_BODY, MALFORMED_BODY, METADATA_GARBAGE -> metadataGarbage(fault);
        default -> aResponse().withStatus(500).withBody("").build();
      };
    }
  }
}
