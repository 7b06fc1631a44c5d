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
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The serving half of {@link ListingRelay}: an HTTP server on the relay's address that answers
 * {@code GET /cluster-resolver/v1/members?max-age-ms=N} for the queries this JVM lists, one listing
 * at a time per query (a single-flight: requests that arrive while a listing is in progress wait for
 * it and all get it). One per address and JVM; its threads are daemons, so it lives as long as the
 * process that serves and never keeps it alive.
 */
final class RelayServer {

  private static final System.Logger LOG = System.getLogger(RelayServer.class.getName());

  static final String PATH = "/cluster-resolver/v1/members";
  static final String QUERY_HEADER = "Cluster-Resolver-Query";
  static final String AGE_HEADER = "Cluster-Resolver-Age-Ms";
  static final String CONTENT_TYPE = "application/vnd.cluster-resolver.listing";

  /** Requests answered at once; more are refused (the hosts list the cloud themselves). */
  private static final int MAX_REQUESTS_IN_FLIGHT = 4096;

  /** Whether an address is one of this host's, looked up once (it is asked on every resolve). */
  private static final Map<InetAddress, Boolean> LOCAL = new ConcurrentHashMap<>();

  /** The relays this JVM serves, by address. */
  private static final Map<InetSocketAddress, RelayServer> SERVING = new ConcurrentHashMap<>();

  private final InetSocketAddress address;
  private final HttpServer http;
  private final LongSupplier clock;
  private final Map<String, Flight> flights = new ConcurrentHashMap<>();

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
      String queryDigest, MemberSource cloud) {
    RelayServer running = SERVING.get(address);
    if (running != null) {
      running.register(queryDigest, cloud);
      return running;
    }
    if (!LOCAL.computeIfAbsent(address.getAddress(), RelayServer::isLocal)) {
      return null;
    }
    HttpServer http;
    try {
      http = HttpServer.create(address, 1024);
    } catch (BindException e) {
      return null; // another process of this host serves it
    } catch (IOException e) {
      LOG.log(Level.DEBUG, () -> provider + ": not serving the relay on " + address + " (" + e + ")");
      return null;
    }
    RelayServer server = new RelayServer(address, http, clock);
    server.register(queryDigest, cloud);
    // A thread per request in flight, so a request's time is taken when it arrives: one that arrives while a
    // listing is in progress gets that listing, however many wait with it.
    ExecutorService threads = new ThreadPoolExecutor(0, MAX_REQUESTS_IN_FLIGHT, 30, TimeUnit.SECONDS,
        new SynchronousQueue<>(), r -> {
          Thread t = new Thread(r, "cluster-resolver-relay");
          t.setDaemon(true);
          return t;
        }, new ThreadPoolExecutor.AbortPolicy());
    http.setExecutor(threads);
    http.createContext(PATH, server::handle);
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

  /** Lists the query named {@code queryDigest} with {@code cloud} (the first source registered for a query lists it). */
  private void register(String queryDigest, MemberSource cloud) {
    flights.computeIfAbsent(queryDigest, q -> new Flight(q, cloud));
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
      exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
      exchange.getResponseHeaders().set(AGE_HEADER, Long.toString(clock.getAsLong() - served.listing().listedAt()));
      exchange.sendResponseHeaders(200, served.bytes().length);
      try (OutputStream body = exchange.getResponseBody()) {
        body.write(served.bytes());
      }
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

  /** A listing as served: the listing and its bytes (written once, sent to every host). */
  record Served(Listing listing, byte[] bytes) {}

  /** One query's single-flight. */
  private final class Flight {
    private final String query;
    private final MemberSource cloud;
    private final ReentrantLock lock = new ReentrantLock();
    private Served last;

    Flight(String query, MemberSource cloud) {
      this.query = query;
      this.cloud = cloud;
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
        last = new Served(listing, bytes.toByteArray());
        return last;
      } finally {
        lock.unlock();
      }
    }
  }
}
