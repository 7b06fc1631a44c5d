package io.clusterresolver.cloud.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The serving half of {@link ListingRelay}: an HTTP server on the relay's address that answers
 * {@code GET /cluster-resolver/v2/members?max-age-ms=N} for the queries this JVM lists, one listing
 * at a time per query (a single-flight: requests that arrive while a listing is in progress wait for
 * it and all get it). One per address and JVM; its threads are daemons, so it lives as long as the
 * process that serves and never keeps it alive.
 *
 * <p>Trust: with a secret, a request must carry its time, a nonce and their seal
 * ({@link ListingSeal}); one that does not prove the secret, is more than {@link #REPLAY_WINDOW_MS}
 * from the relay's clock or repeats a nonce gets 401 before anything is listed. Every answer is
 * encrypted with AES-256-GCM under a key derived from the secret, a fresh nonce each, with the
 * request's seal and the answer's age as additional data: only holders of the secret read it, and a
 * host takes only an answer to its own request from one of them. With {@code relay-insecure=true} the
 * answer is plain, with a checksum over it and the request's seal.
 *
 * <p>The protocol's version is in the path: a host of the previous version (v1: signed, not
 * encrypted) asking this relay gets 410 saying so, and lists the cloud itself.
 */
final class RelayServer {

  private static final System.Logger LOG = System.getLogger(RelayServer.class.getName());

  static final String PATH = "/cluster-resolver/v2/members";
  /** The previous protocol's path: answered 410, naming the versions. */
  private static final String V1_PATH = "/cluster-resolver/v1/members";
  /** The context of an answer's encryption (keyed) or checksum (insecure). */
  private static final String ANSWER_CONTEXT = "relay answer v2";
  static final String QUERY_HEADER = "Cluster-Resolver-Query";
  static final String AGE_HEADER = "Cluster-Resolver-Age-Ms";
  static final String CONTENT_TYPE = "application/vnd.cluster-resolver.listing";
  /** When the request was made (epoch milliseconds, the asking host's clock). */
  static final String TIME_HEADER = "Cluster-Resolver-Time";
  /** A random text, used once: a request seen before is refused. */
  static final String NONCE_HEADER = "Cluster-Resolver-Nonce";
  /** The seal (hex) of a request, or of an answer to it. */
  static final String SEAL_HEADER = "Cluster-Resolver-Seal";

  /** How far a request's time may be from the relay's clock (hosts' clocks agree within this much). */
  static final long REPLAY_WINDOW_MS = TimeUnit.MINUTES.toMillis(5);

  /** Nonces remembered at most: more requests in one window are refused (the hosts list the cloud). */
  private static final int MAX_NONCES = 200_000;

  /** Requests answered at once; more are refused (the hosts list the cloud themselves). */
  private static final int MAX_REQUESTS_IN_FLIGHT = 4096;

  /** Whether an address is one of this host's, looked up once (it is asked on every resolve). */
  private static final Map<InetAddress, Boolean> LOCAL = new ConcurrentHashMap<>();

  /** Addresses whose unverifiable holder was warned about (once per JVM). */
  private static final Set<InetSocketAddress> WARNED_UNVERIFIED = ConcurrentHashMap.newKeySet();

  /** The relays this JVM serves, by address. */
  private static final Map<InetSocketAddress, RelayServer> SERVING = new ConcurrentHashMap<>();

  private final InetSocketAddress address;
  private final HttpServer http;
  private final LongSupplier clock;
  private final Map<String, Flight> flights = new ConcurrentHashMap<>();
  /** Nonces of the requests accepted within the replay window, with their times. */
  private final Map<String, Long> nonces = new ConcurrentHashMap<>();
  /** When a refused request was last logged (epoch ms): a flood logs one line a minute, not one a request. */
  private final java.util.concurrent.atomic.AtomicLong lastRefusalLogged = new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong refused = new java.util.concurrent.atomic.AtomicLong();

  private RelayServer(InetSocketAddress address, HttpServer http, LongSupplier clock) {
    this.address = address;
    this.http = http;
    this.clock = clock;
  }

  /**
   * The relay this JVM serves on {@code address}, with {@code cloud} listing the query named
   * {@code queryDigest} (registered before the server answers anyone): already serving, or started
   * now if the address is one of this host's and its port is free; {@code null} when another host
   * or another process serves it.
   */
  static synchronized RelayServer serveIfLocal(String provider, InetSocketAddress address, LongSupplier clock,
      String queryDigest, MemberSource cloud, ListingSeal seal) {
    RelayServer running = SERVING.get(address);
    if (running != null) {
      running.register(queryDigest, cloud, seal);
      return running;
    }
    if (!LOCAL.computeIfAbsent(address.getAddress(), RelayServer::isLocal)) {
      return null;
    }
    HttpServer http;
    try {
      http = HttpServer.create(address, 1024);
    } catch (BindException e) {
      // Another process of this host holds the address: it is asked like any relay, and its answers verified.
      if (seal.keyed()) {
        LOG.log(Level.DEBUG, () -> provider + ": another process holds the relay address " + address.getHostString()
            + ":" + address.getPort() + "; asking it like any host (its answers must prove the relay secret)");
      } else if (WARNED_UNVERIFIED.add(address)) {
        LOG.log(Level.WARNING, () -> provider + ": another process holds the relay address " + address.getHostString()
            + ":" + address.getPort() + " and, with relay-insecure=true, its answers cannot be verified: whoever"
            + " holds it chooses this process's cluster; set relay-secret");
      }
      return null;
    } catch (IOException e) {
      LOG.log(Level.DEBUG, () -> provider + ": not serving the relay on " + address + " (" + e + ")");
      return null;
    }
    RelayServer server = new RelayServer(address, http, clock);
    server.register(queryDigest, cloud, seal);
    // A thread per request in flight, so a request's time is taken when it arrives: one that arrives while a
    // listing is in progress gets that listing, however many wait with it.
    ExecutorService threads = new ThreadPoolExecutor(0, MAX_REQUESTS_IN_FLIGHT, 30, TimeUnit.SECONDS,
        new SynchronousQueue<>(), r -> {
          Thread t = new Thread(r, "cluster-resolver-relay");
          t.setDaemon(true);
          return t;
        }, new ThreadPoolExecutor.AbortPolicy());
    http.setExecutor(threads);
    http.createContext("/cluster-resolver/", server::handle); // every version's path: an old one is told why
    // The server's dispatcher thread takes its daemon status from the thread that starts it.
    Thread starter = new Thread(http::start, "cluster-resolver-relay-start");
    starter.setDaemon(true);
    starter.start();
    try {
      starter.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    SERVING.put(address, server);
    LOG.log(Level.INFO, () -> provider + ": serving this process's listings to the other hosts as the relay on "
        + address.getHostString() + ":" + address.getPort());
    return server;
  }

  /** Whether {@code address} is one of this host's own. */
  private static boolean isLocal(InetAddress address) {
    if (address.isAnyLocalAddress() || address.isLoopbackAddress()) {
      return true;
    }
    try {
      return NetworkInterface.getByInetAddress(address) != null;
    } catch (SocketException e) {
      return false;
    }
  }

  /**
   * Lists the query named {@code queryDigest} with {@code cloud}, answering requests that prove
   * {@code seal}'s secret (the first source registered for a query lists it).
   */
  private void register(String queryDigest, MemberSource cloud, ListingSeal seal) {
    flights.computeIfAbsent(queryDigest, q -> new Flight(q, cloud, seal));
  }

  /**
   * A listing of a registered query that answers a request asked at {@code asked} (see
   * {@link Listing#answers}), listed now when there is none.
   */
  Served listing(String queryDigest, long asked, Duration maxAge) {
    return flights.get(queryDigest).get(asked, maxAge);
  }

  /** The addresses this JVM serves. */
  static Set<InetSocketAddress> servedHere() {
    return Set.copyOf(SERVING.keySet());
  }

  /** Stops every relay this JVM serves (tests). */
  static synchronized void stopAll() {
    for (RelayServer server : SERVING.values()) {
      server.http.stop(0);
      ((ExecutorService) server.http.getExecutor()).shutdownNow();
    }
    SERVING.clear();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (exchange.getRequestURI().getPath().equals(V1_PATH)) {
        send(exchange, 410, "this relay speaks the relay protocol v2 (" + PATH + ", encrypted answers), not v1:"
            + " run the same cluster-resolver version on every host of the job");
        return;
      }
      if (!exchange.getRequestMethod().equals("GET") || !exchange.getRequestURI().getPath().equals(PATH)) {
        send(exchange, 404, "no such resource: GET " + PATH + " is the only one");
        return;
      }
      String query = exchange.getRequestHeaders().getFirst(QUERY_HEADER);
      Flight flight = query == null ? null : flights.get(query);
      if (flight == null) {
        send(exchange, 404, "this relay lists no query " + query + " (it lists other filters, address type or"
            + " credentials)");
        return;
      }
      // Proven before anything is listed: a request without the secret costs an HMAC, never a cloud listing.
      String refusal = refusal(exchange, flight);
      if (refusal != null) {
        logRefusal(exchange, refusal);
        send(exchange, 401, refusal);
        return;
      }
      Duration maxAge;
      try {
        maxAge = Duration.ofMillis(maxAgeMillis(exchange.getRequestURI().getRawQuery()));
      } catch (IllegalArgumentException e) {
        send(exchange, 400, e.getMessage());
        return;
      }
      Served served;
      try {
        served = flight.get(clock.getAsLong(), maxAge);
      } catch (RuntimeException e) {
        send(exchange, 502, "the relay's own listing failed: " + e.getMessage());
        return;
      }
      String age = Long.toString(clock.getAsLong() - served.listing().listedAt());
      String requestSeal = Objects.requireNonNullElse(exchange.getRequestHeaders().getFirst(SEAL_HEADER), "");
      exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
      exchange.getResponseHeaders().set(AGE_HEADER, age);
      byte[] answer = answerBody(flight.seal, requestSeal, age, served.bytes());
      if (!flight.seal.keyed()) {
        exchange.getResponseHeaders().set(SEAL_HEADER, HexFormat.of().formatHex(answerSeal(flight.seal, requestSeal,
            age, served.bodySeal())));
      }
      exchange.sendResponseHeaders(200, answer.length);
      try (OutputStream body = exchange.getResponseBody()) {
        body.write(answer);
      }
    }
  }

  /** The seal of a request: its method, target (path and query), query digest, time and nonce. */
  static byte[] requestSeal(ListingSeal seal, String target, String queryDigest, String time, String nonce) {
    return seal.seal("relay request v2", ListingSeal.utf8("GET"), ListingSeal.utf8(target),
        ListingSeal.utf8(queryDigest), ListingSeal.utf8(time), ListingSeal.utf8(nonce));
  }

  /** The seal of a listing's bytes, made once per listing (insecure answers' checksums cover it, not the bytes again). */
  static byte[] bodySeal(ListingSeal seal, byte[] body) {
    return seal.seal("relay listing v2", body);
  }

  /**
   * The checksum of an insecure answer to the request sealed {@code requestSeal} (hex, as sent): binds
   * the listing to it.
   */
  static byte[] answerSeal(ListingSeal seal, String requestSeal, String age, byte[] bodySeal) {
    return seal.seal(ANSWER_CONTEXT, ListingSeal.utf8(requestSeal), ListingSeal.utf8(age), bodySeal);
  }

  /**
   * The body of an answer to the request sealed {@code requestSeal}: the listing's bytes encrypted
   * under the secret, bound to the request and the age (keyed); as they are otherwise (their checksum
   * goes in {@link #SEAL_HEADER}).
   */
  static byte[] answerBody(ListingSeal seal, String requestSeal, String age, byte[] listing) {
    return seal.keyed() ? seal.encrypt(ANSWER_CONTEXT, listing, ListingSeal.utf8(requestSeal), ListingSeal.utf8(age))
        : listing;
  }

  /**
   * The listing's bytes of an answer to the request sealed {@code requestSeal}, or {@code null} when
   * the answer was not made for it by a holder of the secret (keyed), or is damaged (insecure).
   *
   * @param sealHeader the answer's {@link #SEAL_HEADER} (used by insecure answers only)
   */
  static byte[] openAnswer(ListingSeal seal, String requestSeal, String age, byte[] body, String sealHeader) {
    if (seal.keyed()) {
      return seal.decrypt(ANSWER_CONTEXT, body, ListingSeal.utf8(requestSeal), ListingSeal.utf8(age));
    }
    byte[] checksum = hex(sealHeader);
    return checksum != null && MessageDigest.isEqual(checksum, answerSeal(seal, requestSeal, age, bodySeal(seal, body)))
        ? body : null;
  }

  /** Why the request is refused, or {@code null} when it proves the flight's secret and is new. */
  private String refusal(HttpExchange exchange, Flight flight) {
    if (!flight.seal.keyed()) {
      return null; // relay-insecure=true: the user chose a relay that answers anyone
    }
    String time = exchange.getRequestHeaders().getFirst(TIME_HEADER);
    String nonce = exchange.getRequestHeaders().getFirst(NONCE_HEADER);
    byte[] proof = hex(exchange.getRequestHeaders().getFirst(SEAL_HEADER));
    if (time == null || nonce == null || proof == null || nonce.length() > 64) {
      return "the request does not prove the relay secret: give this host the job's relay-secret";
    }
    String target = exchange.getRequestURI().getRawPath()
        + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
    byte[] expected = requestSeal(flight.seal, target, flight.query, time, nonce);
    if (!MessageDigest.isEqual(proof, expected)) {
      return "the request does not prove the relay secret: give this host the same relay-secret as the relay";
    }
    long sent;
    try {
      sent = Long.parseLong(time);
    } catch (NumberFormatException e) {
      return "the request's time is not a number";
    }
    long now = clock.getAsLong();
    if (Math.abs(now - sent) > REPLAY_WINDOW_MS) {
      return "the request's time is " + (now - sent) + " ms from the relay's clock (at most " + REPLAY_WINDOW_MS
          + " ms): synchronise the hosts' clocks (NTP)";
    }
    if (nonces.size() >= MAX_NONCES) {
      nonces.values().removeIf(t -> Math.abs(now - t) > REPLAY_WINDOW_MS);
      if (nonces.size() >= MAX_NONCES) {
        return "the relay has answered " + MAX_NONCES + " requests in " + REPLAY_WINDOW_MS + " ms; list the cloud";
      }
    }
    if (nonces.putIfAbsent(nonce, sent) != null) {
      return "the request was seen before (a replay)";
    }
    return null;
  }

  private void logRefusal(HttpExchange exchange, String refusal) {
    long count = refused.incrementAndGet();
    long now = System.currentTimeMillis();
    long last = lastRefusalLogged.get();
    if (now - last >= 60_000 && lastRefusalLogged.compareAndSet(last, now)) {
      LOG.log(Level.WARNING, () -> "the relay on " + address.getHostString() + ":" + address.getPort() + " refused a"
          + " request from " + exchange.getRemoteAddress().getAddress().getHostAddress() + " (" + refusal + "); "
          + count + " refused so far");
    }
  }

  /** The bytes of a hex text, {@code null} when it is none. */
  static byte[] hex(String text) {
    if (text == null || text.length() != 2 * ListingSeal.LENGTH) {
      return null;
    }
    try {
      return HexFormat.of().parseHex(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static long maxAgeMillis(String rawQuery) {
    if (rawQuery == null) {
      return 0;
    }
    for (String parameter : rawQuery.split("&")) {
      if (parameter.startsWith("max-age-ms=")) {
        try {
          long ms = Long.parseLong(parameter.substring("max-age-ms=".length()));
          if (ms >= 0) {
            return ms;
          }
        } catch (NumberFormatException e) {
          // reported below
        }
        throw new IllegalArgumentException("max-age-ms must be a whole number of milliseconds, not '"
            + parameter.substring("max-age-ms=".length()) + "'");
      }
    }
    return 0;
  }

  private static void send(HttpExchange exchange, int status, String message) throws IOException {
    byte[] text = (message + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, text.length);
    try (OutputStream body = exchange.getResponseBody()) {
      body.write(text);
    }
  }

  /** A listing as served: the listing, its bytes and their seal (made once, sent to every host). */
  record Served(Listing listing, byte[] bytes, byte[] bodySeal) {}

  /** One query's single-flight. */
  private final class Flight {
    private final String query;
    private final MemberSource cloud;
    private final ListingSeal seal;
    private final ReentrantLock lock = new ReentrantLock();
    private Served last;

    Flight(String query, MemberSource cloud, ListingSeal seal) {
      this.query = query;
      this.cloud = cloud;
      this.seal = seal;
    }

    Served get(long asked, Duration maxAge) {
      lock.lock();
      try {
        if (last != null && last.listing().answers(asked, maxAge)) {
          return last;
        }
        long begun = clock.getAsLong();
        List<Member> members = cloud.members();
        Listing listing = new Listing(begun, clock.getAsLong(), members);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
          listing.writeTo(out, query);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        byte[] body = bytes.toByteArray();
        last = new Served(listing, body, bodySeal(seal, body));
        return last;
      } finally {
        lock.unlock();
      }
    }
  }
}
