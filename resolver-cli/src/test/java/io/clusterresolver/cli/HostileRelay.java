package io.clusterresolver.cli;

import com.sun.net.httpserver.HttpServer;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.internal.Listing;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hostile process of {@link RelayHostsIT}, run on a test host with its own JVM. Modes:
 * <ul>
 *   <li>{@code forge HOST PORT}: binds the relay's address first and answers every request with a
 *       listing of {@code 6.6.6.0}-{@code 6.6.6.3} for the query the request names (echoing its
 *       header, as issue 20's attack 2), with a made-up seal; prints each query digest it saw;
 *   <li>{@code stall HOST PORT}: sends headers and part of a body, then nothing (attack 3);
 *   <li>{@code flood HOST PORT DIGEST SECONDS}: asks the relay as fast as it can for that long, without
 *       the secret, with {@code max-age-ms=0} (attack 5's quota burning), and prints the statuses.
 * </ul>
 * The serving modes print {@code ready} and serve until standard input ends.
 */
public final class HostileRelay {

  private static final String CONTENT_TYPE = "application/vnd.cluster-resolver.listing";

  private HostileRelay() {}

  public static void main(String[] args) throws Exception {
    InetSocketAddress address = new InetSocketAddress(args[1], Integer.parseInt(args[2]));
    switch (args[0]) {
      case "forge" -> forge(address);
      case "stall" -> stall(address);
      case "flood" -> flood(address, args[3], Integer.parseInt(args[4]));
      default -> throw new IllegalArgumentException("forge, stall or flood, not " + args[0]);
    }
  }

  private static void untilInputEnds() throws IOException {
    System.out.println("ready");
    System.out.flush();
    while (System.in.read() != -1) {
      // serving
    }
  }

  private static void forge(InetSocketAddress address) throws IOException {
    List<Member> forged = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      forged.add(Member.builder("i-forged" + i, "6.6.6." + i).build());
    }
    Map<String, Boolean> seen = new ConcurrentHashMap<>();
    HttpServer server = HttpServer.create(address, 64);
    server.createContext("/", exchange -> {
      String query = String.valueOf(exchange.getRequestHeaders().getFirst("Cluster-Resolver-Query"));
      if (seen.putIfAbsent(query, true) == null) {
        System.out.println("query " + query);
        System.out.flush();
      }
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        long now = System.currentTimeMillis();
        new Listing(now, now + 1, forged).writeTo(out, query);
      }
      byte[] body = bytes.toByteArray();
      byte[] seal = new byte[32];
      ThreadLocalRandom.current().nextBytes(seal);
      exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
      exchange.getResponseHeaders().set("Cluster-Resolver-Age-Ms", "0");
      exchange.getResponseHeaders().set("Cluster-Resolver-Seal", java.util.HexFormat.of().formatHex(seal));
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    untilInputEnds();
    server.stop(0);
  }

  private static void stall(InetSocketAddress address) throws IOException {
    ServerSocket server = new ServerSocket();
    server.bind(address, 64);
    Thread accept = new Thread(() -> {
      while (true) {
        try {
          Socket s = server.accept();
          Thread t = new Thread(() -> {
            try {
              s.getInputStream().read(new byte[8192]);
              OutputStream out = s.getOutputStream();
              out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + CONTENT_TYPE + "\r\nContent-Length: 100000\r\n\r\n"
                  + "CLR1").getBytes(StandardCharsets.US_ASCII));
              out.flush();
              Thread.sleep(600_000); // and nothing more
            } catch (Exception e) {
              // the host hung up
            }
          });
          t.setDaemon(true);
          t.start();
        } catch (IOException e) {
          return;
        }
      }
    });
    accept.setDaemon(true);
    accept.start();
    untilInputEnds();
    server.close();
  }

  private static void flood(InetSocketAddress address, String digest, int seconds) throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(2)).build();
    URI uri = URI.create("http://" + address.getHostString() + ":" + address.getPort()
        + "/cluster-resolver/v2/members?max-age-ms=0");
    Map<String, AtomicInteger> statuses = new ConcurrentHashMap<>();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Thread thread = new Thread(() -> {
        while (System.nanoTime() < end) {
          byte[] seal = new byte[32];
          ThreadLocalRandom.current().nextBytes(seal);
          HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5))
              .header("Cluster-Resolver-Query", digest)
              .header("Cluster-Resolver-Time", Long.toString(System.currentTimeMillis()))
              .header("Cluster-Resolver-Nonce", Long.toHexString(ThreadLocalRandom.current().nextLong()))
              .header("Cluster-Resolver-Seal", java.util.HexFormat.of().formatHex(seal))
              .build();
          String outcome;
          try {
            outcome = "HTTP " + http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
          } catch (Exception e) {
            outcome = e.getClass().getSimpleName();
          }
          statuses.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
        }
      });
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    System.out.println("flood " + new TreeMap<>(statuses));
  }
}
