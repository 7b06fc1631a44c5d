package io.clusterresolver.cloud.internal;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Hosts share one listing through a relay: a resolve asks the relay at {@code HOST:PORT} for its
 * listing instead of asking the cloud, so a job of thousands of hosts costs the cloud's API one
 * listing, not one per host. The relay is simply the process that can bind {@code HOST:PORT} (the
 * chief's host, say): it lists the cloud for everyone, one listing at a time, and its own resolves
 * take the listing in-process.
 *
 * <p>Freshness: a resolve sends its {@code maxAge}; the relay answers with a listing that was in
 * progress when the request arrived or began at most {@code maxAge} before, on the relay's own clock
 * (so hosts' clocks never need to agree), and says its age. With a zero {@code maxAge} every answer is
 * a listing that finished after the question.
 *
 * <p>Faults: a relay not listening yet (the chief starts later) is asked again, with backoff, for at
 * most {@code wait}; then, and at once for anything else (another query, a failed listing on the
 * relay, a damaged answer, a reset), the resolve lists the cloud itself through {@code fallback} and
 * says why in one log line. The relay trusts its network: whoever can reach it can read the listing
 * (the members' ids, addresses and tags, never credentials), and a host trusts what it answers.
 */
public final class ListingRelay {

  private static final System.Logger LOG = System.getLogger(ListingRelay.class.getName());

  /** One client per JVM: its connections are shared by every resolve. */
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2))
      .build();

  private final String provider;
  private final InetSocketAddress address;
  private final String queryDigest;
  private final Duration maxAge;
  private final Duration wait;
  private final LongSupplier clock;
  private final URI uri;

  /**
   * A relay.
   *
   * @param provider the provider name, for log lines and messages
   * @param address the relay's address
   * @param query everything that decides what a listing returns (sent as its SHA-256 only)
   * @param maxAge the oldest listing (by when it began) a resolve accepts; zero: one that finished after asking
   * @param wait how long to wait for a relay that is not listening yet, and for its answer
   * @param clock epoch milliseconds (the relay's listings are timed by it)
   */
  public ListingRelay(String provider, InetSocketAddress address, String query, Duration maxAge, Duration wait,
      LongSupplier clock) {
    this.provider = provider;
    this.address = address;
    this.queryDigest = SharedListing.digest(query);
    this.maxAge = maxAge;
    this.wait = wait;
    this.clock = clock;
    String host = address.getHostString();
    this.uri = URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort()
        + RelayServer.PATH + "?max-age-ms=" + maxAge.toMillis());
  }

  /**
   * Serves the relay when this process can bind its address (then every resolve of this process
   * takes the relay's listing in-process, listed by {@code cloud}); otherwise lists with
   * {@code otherwise}. The bind is tried on every resolve, before anything else, so that a process of
   * the relay's host waiting for its host's listing never keeps the relay from starting.
   */
  public MemberSource serving(MemberSource cloud, MemberSource otherwise) {
    return () -> {
      RelayServer server = RelayServer.serveIfLocal(provider, address, clock, queryDigest, cloud);
      return server != null ? server.listing(queryDigest, clock.getAsLong(), maxAge).listing().members()
          : otherwise.members();
    };
  }

  /** Asks the relay; lists with {@code fallback} when it cannot answer (see the class comment). */
  public MemberSource asking(MemberSource fallback) {
    return () -> {
      Listing listing = ask();
      return listing != null ? listing.members() : fallback.members();
    };
  }

  /** The addresses this JVM serves a relay on (for a command that must say whether it serves). */
  public static Set<InetSocketAddress> servedHere() {
    return RelayServer.servedHere();
  }

  /** The relay's listing, or {@code null} (logged) when the resolve should list for itself. */
  private Listing ask() {
    long deadline = System.nanoTime() + wait.toNanos();
    long backoffMs = 50;
    while (true) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        LOG.log(Level.WARNING, () -> provider + ": the relay " + uri.getAuthority() + " did not answer within "
            + wait.toMillis() + " ms; listing the cloud");
        return null;
      }
      HttpRequest request = HttpRequest.newBuilder(uri)
          .header(RelayServer.QUERY_HEADER, queryDigest)
          .timeout(Duration.ofNanos(remaining))
          .GET()
          .build();
      try {
        HttpResponse<InputStream> response = HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
          return read(response, body);
        }
      } catch (ConnectException | HttpConnectTimeoutException e) {
        // Not listening yet (the relay's process may start after this one), or too busy to accept now.
        long sleepMs = Math.min(backoffMs, Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        sleep(ThreadLocalRandom.current().nextLong(sleepMs / 2, sleepMs + 1));
        backoffMs = Math.min(backoffMs * 2, 1000);
      } catch (HttpTimeoutException e) {
        LOG.log(Level.WARNING, () -> provider + ": the relay " + uri.getAuthority() + " did not answer within "
            + wait.toMillis() + " ms; listing the cloud");
        return null;
      } catch (IOException e) {
        LOG.log(Level.WARNING, () -> provider + ": the relay " + uri.getAuthority() + " failed (" + e
            + "); listing the cloud");
        return null;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ClusterResolverException(provider + ": interrupted while asking the relay " + uri.getAuthority(), e);
      }
    }
  }

  private Listing read(HttpResponse<InputStream> response, InputStream body) throws IOException {
    int status = response.statusCode();
    if (status != 200) {
      String text = new String(body.readNBytes(2048), StandardCharsets.UTF_8).strip();
      LOG.log(Level.WARNING, () -> provider + ": the relay " + uri.getAuthority() + " answered HTTP " + status
          + " (" + text + "); listing the cloud");
      return null;
    }
    String type = response.headers().firstValue("Content-Type").orElse("");
    Listing listing = null;
    if (type.equals(RelayServer.CONTENT_TYPE)) {
      DataInputStream in = new DataInputStream(new BufferedInputStream(body, 65536));
      try {
        listing = Listing.readFrom(in, queryDigest);
      } catch (IOException | RuntimeException e) {
        listing = null;
      }
    }
    if (listing == null) {
      LOG.log(Level.WARNING, () -> provider + ": the relay " + uri.getAuthority() + " answered something that is"
          + " not a listing of this query (Content-Type '" + type + "'); listing the cloud");
      return null;
    }
    Listing answer = listing;
    LOG.log(Level.DEBUG, () -> provider + ": " + answer.members().size() + " member(s) from the relay "
        + uri.getAuthority() + ", " + response.headers().firstValue(RelayServer.AGE_HEADER).orElse("?") + " ms old");
    return listing;
  }

  private void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClusterResolverException(provider + ": interrupted while waiting for the relay " + uri.getAuthority(), e);
    }
  }

  @Override
  public String toString() {
    return "ListingRelay{" + uri.getAuthority() + ", max age " + maxAge + ", wait " + wait + "}";
  }
}
