package com.example.cluster;

import com.sun.net.httpserver.HttpServer;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.testkit.ProviderContractTest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The provider contract (the TCK from resolver-testkit) against a fake inventory service on
 * loopback that speaks the service's wire format: bearer token, one member per line, newest first.
 */
class InventoryContractTest extends ProviderContractTest {
  private static final String TOKEN = "inv-7f3c9a1e-secret";
  private static HttpServer server;
  private static volatile int members;
  private static volatile boolean failing;

  private final Map<String, String> environment = new HashMap<>();

  @BeforeAll
  static void startInventory() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/pools/training/members", exchange -> {
      int status;
      StringBuilder body = new StringBuilder();
      if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        status = 401;
      } else if (failing) {
        status = 503;
      } else {
        status = 200;
        for (int i = members - 1; i >= 0; i--) {         // newest first: order is the client's job
          body.append("m").append(i).append(" 10.0.0.").append(i + 1).append(' ')
              .append(1_700_000_000_000L + i * 1000L).append('\n');
        }
      }
      byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    });
    server.start();
  }

  @AfterAll
  static void stopInventory() {
    server.stop(0);
  }

  @Override
  protected ClusterResolverProvider provider() {
    return new InventoryProvider();
  }

  @Override
  protected void setMembers(int n) {
    members = n;
  }

  @Override
  protected Map<String, String> properties(Map<String, String> extra) {
    String prefix = "clusterresolver." + provider().name() + ".";
    Map<String, String> properties = new HashMap<>();
    properties.put(prefix + "url", "http://127.0.0.1:" + server.getAddress().getPort());
    properties.put(prefix + "token", TOKEN);
    properties.put(prefix + "timeout", "2s");
    properties.putAll(extra);
    return properties;
  }

  @Override
  protected Map<String, String> environment() {
    return environment;
  }

  /** Member i is at 10.0.0.(i+1), as the inventory above lists it, at the provider's default port. */
  @Override
  protected java.util.List<String> expectedAddresses(int n) {
    return java.util.stream.IntStream.range(0, n).mapToObj(i -> "10.0.0." + (i + 1) + ":" + defaultPort()).toList();
  }

  /** The default port: 2222 is this provider's own; the kit's is 8888. */
  protected int defaultPort() {
    return 2222;
  }

  @Override
  protected void identifyAs(int index) {
    if (index < 0) {
      environment.remove(InventoryProvider.MEMBER_VARIABLE);
    } else {
      environment.put(InventoryProvider.MEMBER_VARIABLE, "m" + index);
    }
  }

  @Override
  protected void failPersistently() {
    failing = true;
  }

  @Override
  protected void heal() {
    failing = false;
  }
}
