package io.clusterresolver.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * An HTTP endpoint on loopback that answers every request as an attacker or a broken proxy would:
 * a body trickled one byte at a time, a body that does not end, a redirect elsewhere, or any status
 * and body. Records each request's headers and counts the body bytes it sent, so a test can show a
 * client stopped reading (or never sent its credentials). Every behaviour is bounded (a byte count
 * or a cap), so a client that does not stop still ends. Thread-safe; close it after the test.
 *
 * <p>It answers the same way over HTTPS ({@link #httpsUri()}), with the certificate that
 * {@link SimulatedAzure#trustStoreProperties()} trusts, for clients that send credentials only over
 * https (azure-core's bearer token policy).
 */
public final class HostileEndpoint implements AutoCloseable {

  /** What the endpoint does with one exchange. */
  @FunctionalInterface
  private interface Behaviour {
    void answer(HttpExchange exchange, AtomicLong sent) throws IOException, InterruptedException;
  }

  private final HttpServer server;
  private final HttpsServer https;
  private final ExecutorService threads;
  private final AtomicLong sent = new AtomicLong();
  private final List<Map<String, List<String>>> requests = new CopyOnWriteArrayList<>();

  private HostileEndpoint(Behaviour behaviour) {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    threads = Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "hostile-endpoint");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(threads);
    HttpHandler handler = exchange -> {
      requests.add(Map.copyOf(exchange.getRequestHeaders()));
      try (exchange) {
        exchange.getRequestBody().readAllBytes();
        behaviour.answer(exchange, sent);
      } catch (IOException e) {
        // the client hung up: what the test wants from a client that stops reading
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    server.createContext("/", handler);
    server.start();
    try {
      https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
      https.setHttpsConfigurator(new HttpsConfigurator(simulatedAzureCertificate()));
    } catch (IOException e) {
      server.stop(0);
      throw new UncheckedIOException(e);
    }
    https.setExecutor(threads);
    https.createContext("/", handler);
    https.start();
  }

  /** The server side of the certificate SimulatedAzure's trust store trusts (for 127.0.0.1). */
  private static SSLContext simulatedAzureCertificate() throws IOException {
    try (InputStream in = SimulatedAzure.class.getResourceAsStream("simulated-azure-keystore.p12")) {
      if (in == null) {
        throw new IOException("missing resource simulated-azure-keystore.p12");
      }
      char[] password = SimulatedAzure.STORE_PASSWORD.toCharArray();
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(in, password);
      KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      managers.init(keys, password);
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(managers.getKeyManagers(), null, null);
      return tls;
    } catch (GeneralSecurityException e) {
      throw new IOException("Cannot load the test key store", e);
    }
  }

  /**
   * A 200 whose {@code body} (JSON) is sent one byte every {@code every}: each read of the client
   * returns quickly, so only a deadline over the whole body stops it.
   */
  public static HostileEndpoint trickle(String body, Duration every) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return new HostileEndpoint((exchange, sent) -> {
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, bytes.length);
      OutputStream out = exchange.getResponseBody();
      for (byte b : bytes) {
        out.write(b);
        out.flush();
        sent.incrementAndGet();
        Thread.sleep(every.toMillis());
      }
    });
  }

  /**
   * A 200 (chunked, no length) that sends {@code prefix}, then {@code repeated} again and again until
   * the client stops reading or {@code capBytes} were sent: a body that, for the client, never ends.
   */
  public static HostileEndpoint endless(String prefix, String repeated, long capBytes) {
    byte[] head = prefix.getBytes(StandardCharsets.UTF_8);
    byte[] chunk = repeated.repeat(Math.max(1, 16384 / Math.max(1, repeated.length()))).getBytes(StandardCharsets.UTF_8);
    return new HostileEndpoint((exchange, sent) -> {
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      out.write(head);
      sent.addAndGet(head.length);
      while (sent.get() < capBytes) {
        out.write(chunk);
        sent.addAndGet(chunk.length);
      }
    });
  }

  /** Every request answered with {@code status}, these headers and this body. */
  public static HostileEndpoint answer(int status, Map<String, String> headers, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    return new HostileEndpoint((exchange, sent) -> {
      headers.forEach(exchange.getResponseHeaders()::set);
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        exchange.getResponseBody().write(bytes);
        sent.addAndGet(bytes.length);
      }
    });
  }

  /** Every request redirected ({@code 302}) to the same path and query on {@code target}. */
  public static HostileEndpoint redirectTo(URI target) {
    return new HostileEndpoint((exchange, sent) -> {
      URI asked = exchange.getRequestURI();
      exchange.getResponseHeaders().set("Location", target.resolve(asked.getRawPath()
          + (asked.getRawQuery() == null ? "" : "?" + asked.getRawQuery())).toString());
      exchange.sendResponseHeaders(302, -1);
    });
  }

  /** {@code http://127.0.0.1:PORT} (no trailing slash: Google's clients take it as an endpoint). */
  public URI uri() {
    InetSocketAddress a = server.getAddress();
    return URI.create("http://" + a.getAddress().getHostAddress() + ":" + a.getPort());
  }

  /** {@code https://127.0.0.1:PORT}: the same answers over TLS, trusted as {@link SimulatedAzure}'s endpoint is. */
  public URI httpsUri() {
    InetSocketAddress a = https.getAddress();
    return URI.create("https://" + a.getAddress().getHostAddress() + ":" + a.getPort());
  }

  /** The headers of every request received, in order (names as the JDK server spells them: {@code Authorization}). */
  public List<Map<String, List<String>>> requests() {
    return List.copyOf(requests);
  }

  /** How many requests carried an {@code Authorization} header. */
  public long requestsWithCredentials() {
    return requests.stream().filter(h -> h.keySet().stream().anyMatch("Authorization"::equalsIgnoreCase)).count();
  }

  /** Body bytes sent so far, over every request. */
  public long bytesSent() {
    return sent.get();
  }

  @Override
  public void close() {
    server.stop(0);
    https.stop(0);
    threads.shutdownNow();
  }
}
