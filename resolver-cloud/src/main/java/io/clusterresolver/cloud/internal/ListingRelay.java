package io.clusterresolver.cloud.internal;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.internal.UntrustedText;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
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
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * says why in one WARNING naming the relay.
 *
 * <p>Trust: every request carries its time, a random nonce and their HMAC-SHA256 under a key derived
 * from the job's secret ({@code relay-secret}); every answer is the listing encrypted with
 * AES-256-GCM under another key derived from it (a fresh nonce each, the request's seal and the age
 * as additional data), which the host decrypts, so verifies, before decoding anything. So only
 * holders of the secret read the listing (on the network too) or make the relay list, a recorded
 * request cannot be replayed, and whoever else holds the port (a process that bound it first, a
 * forger, an old answer, a changed bit) is never taken for the relay: the host lists the cloud. With
 * {@code relay-insecure=true} the answer is plain with a checksum: anyone on the path reads it. The
 * whole exchange, body included, ends within {@code wait}, and an answer longer than
 * {@link #MAX_ANSWER_BYTES} is dropped.
 */
public final class ListingRelay {

  private static final System.Logger LOG = System.getLogger(ListingRelay.class.getName());

  /** The largest relay answer read: a listing of 100,000 members with a few labels each fits many times. */
  static final int MAX_ANSWER_BYTES = 64 << 20;

  private static final SecureRandom RANDOM = new SecureRandom();

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
  private final ListingSeal seal;

  /**
   * A relay.
   *
   * @param provider the provider name, for log lines and messages
   * @param address the relay's address
   * @param query everything that decides what a listing returns (sent as its SHA-256 only)
   * @param maxAge the oldest listing (by when it began) a resolve accepts; zero: one that finished after asking
   * @param wait how long to wait for a relay that is not listening yet, and for its answer
   * @param clock epoch milliseconds (the relay's listings are timed by it)
   * @param seal the job's relay secret: requests prove it, answers that do not are not taken
   */
  ListingRelay(String provider, InetSocketAddress address, String query, Duration maxAge, Duration wait,
      LongSupplier clock, ListingSeal seal) {
    this.provider = provider;
    this.address = address;
    this.queryDigest = SharedListing.digest(query);
    this.maxAge = maxAge;
    this.wait = wait;
    this.clock = clock;
    this.seal = seal;
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
      RelayServer server = RelayServer.serveIfLocal(provider, address, clock, queryDigest, cloud, seal);
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
        return fallBack("did not answer within " + wait.toMillis() + " ms");
      }
      String time = Long.toString(clock.getAsLong());
      String nonce = HexFormat.of().formatHex(randomBytes());
      String target = uri.getRawPath() + "?" + uri.getRawQuery();
      String requestSeal = HexFormat.of().formatHex(RelayServer.requestSeal(seal, target, queryDigest, time, nonce));
      HttpRequest request = HttpRequest.newBuilder(uri)
          .header(RelayServer.QUERY_HEADER, queryDigest)
          .header(RelayServer.TIME_HEADER, time)
          .header(RelayServer.NONCE_HEADER, nonce)
          .header(RelayServer.SEAL_HEADER, requestSeal)
          .timeout(Duration.ofNanos(remaining))
          .GET()
          .build();
      // One deadline for headers and body: the request's timeout covers the headers only, so the whole
      // exchange is waited for at most the time left, and a body longer than the limit ends it.
      CompletableFuture<HttpResponse<byte[]>> exchange = HTTP.sendAsync(request, AtMost.handler(MAX_ANSWER_BYTES));
      try {
        HttpResponse<byte[]> response = exchange.get(remaining, TimeUnit.NANOSECONDS);
        return read(response, requestSeal);
      } catch (TimeoutException e) {
        exchange.cancel(true);
        return fallBack("did not answer within " + wait.toMillis() + " ms (headers and body)");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() instanceof CompletionException && e.getCause().getCause() != null
            ? e.getCause().getCause() : e.getCause();
        if (cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException) {
          // Not listening yet (the relay's process may start after this one), or too busy to accept now.
          long sleepMs = Math.min(backoffMs, Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
          sleep(ThreadLocalRandom.current().nextLong(sleepMs / 2, sleepMs + 1));
          backoffMs = Math.min(backoffMs * 2, 1000);
        } else if (cause instanceof HttpTimeoutException) {
          return fallBack("did not answer within " + wait.toMillis() + " ms");
        } else if (cause instanceof AtMost.TooLarge) {
          return fallBack("answered more than " + MAX_ANSWER_BYTES + " bytes, the limit of a relay answer");
        } else {
          return fallBack("failed (" + cause + ")");
        }
      } catch (InterruptedException e) {
        exchange.cancel(true);
        Thread.currentThread().interrupt();
        throw new ClusterResolverException(provider + ": interrupted while asking the relay " + uri.getAuthority(), e);
      }
    }
  }

  /** Logs the one WARNING of a resolve that lists the cloud itself because of the relay; {@code null}. */
  private Listing fallBack(String what) {
    LOG.log(Level.WARNING, () -> provider + ": the relay " + uri.getAuthority() + " " + what + "; listing the cloud");
    return null;
  }

  private Listing read(HttpResponse<byte[]> response, String requestSeal) {
    int status = response.statusCode();
    byte[] body = response.body();
    if (status != 200) {
      String text = new String(body, 0, Math.min(body.length, 2048), StandardCharsets.UTF_8).strip();
      return fallBack("answered HTTP " + status + " (" + UntrustedText.escape(text) + ")"
          + (status == 404 || status == 410 ? "; every host of the job must run the relay's cluster-resolver version"
              + " (this one speaks " + RelayServer.PATH + ")" : ""));
    }
    String type = response.headers().firstValue("Content-Type").orElse("");
    String age = response.headers().firstValue(RelayServer.AGE_HEADER).orElse("");
    // Opened (decrypted, or its checksum checked) before a byte of it is decoded: an answer that does not
    // prove the secret is not read at all.
    byte[] opened = RelayServer.openAnswer(seal, requestSeal, age, body,
        response.headers().firstValue(RelayServer.SEAL_HEADER).orElse(null));
    if (opened == null) {
      return fallBack(seal.keyed()
          ? "answered without proving the relay secret (relay-secret): not a relay of this job, another secret,"
              + " or changed on the way"
          : "answered something damaged or not a relay answer");
    }
    Listing listing = null;
    if (type.equals(RelayServer.CONTENT_TYPE)) {
      try {
        listing = Listing.readFrom(new DataInputStream(new ByteArrayInputStream(opened)), queryDigest);
      } catch (IOException | RuntimeException e) {
        listing = null;
      }
    }
    if (listing == null) {
      return fallBack("answered something that is not a listing of this query (Content-Type '" + UntrustedText.escape(type) + "')");
    }
    Listing answer = listing;
    LOG.log(Level.DEBUG, () -> provider + ": " + answer.members().size() + " member(s) from the relay "
        + uri.getAuthority() + ", " + UntrustedText.escape(age) + " ms old");
    return listing;
  }



  private static byte[] randomBytes() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return bytes;
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
