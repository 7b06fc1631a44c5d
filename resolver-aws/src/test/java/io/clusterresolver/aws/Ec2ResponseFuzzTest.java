package io.clusterresolver.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.sun.net.httpserver.HttpServer;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.Resolution;
import io.clusterresolver.TaskAddress;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedInstance;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;

/**
 * Fuzz tests (Jazzer) of EC2 response parsing, through the real SDK into the provider: a fleet of
 * instances with fuzzed fields served as the simulation's own XML, and any body with any status
 * from a raw loopback server. Documented failures only ({@code ClusterResolverException},
 * {@code IllegalArgumentException}); what resolves holds only valid host:port addresses. One
 * resolver serves every input (bounded: timeout 5s, one attempt). Seeds in
 * {@code src/test/resources/io/clusterresolver/aws/Ec2ResponseFuzzTestInputs/}; docs/reliability.md.
 */
class Ec2ResponseFuzzTest {

  private static SimulatedEc2 ec2;
  private static final Map<String, ClusterResolver> SIMULATED = new HashMap<>();
  private static HttpServer raw;
  private static ClusterResolver rawResolver;
  private static final AtomicReference<byte[]> BODY = new AtomicReference<>(new byte[0]);
  private static final AtomicInteger STATUS = new AtomicInteger(200);

  /** One resolver per address type, created once: every input re-lists the same simulation. */
  private static synchronized ClusterResolver simulated(String address) {
    if (ec2 == null) {
      ec2 = SimulatedEc2.start();
    }
    return SIMULATED.computeIfAbsent(address, a -> ClusterResolvers.create("aws", withAddress(a), Map.of()));
  }

  private static synchronized ClusterResolver raw() throws IOException {
    if (rawResolver == null) {
      raw = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      raw.createContext("/", exchange -> {
        exchange.getRequestBody().readAllBytes();
        byte[] body = BODY.get();
        exchange.getResponseHeaders().add("Content-Type", "text/xml;charset=UTF-8");
        exchange.sendResponseHeaders(STATUS.get(), body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      });
      raw.start();
      Map<String, String> properties = new HashMap<>();
      properties.put("clusterresolver.aws.region", "us-east-1");
      properties.put("clusterresolver.aws.endpoint", "http://127.0.0.1:" + raw.getAddress().getPort());
      properties.put("clusterresolver.aws.access-key-id", AwsTestSupport.ACCESS_KEY);
      properties.put("clusterresolver.aws.secret-access-key", AwsTestSupport.SECRET_KEY);
      properties.put("clusterresolver.aws.timeout", "5s");
      properties.put("clusterresolver.aws.max-attempts", "1");
      properties.put("clusterresolver.aws.accelerators", "false");
      rawResolver = ClusterResolvers.create("aws", properties, Map.of("AWS_EC2_METADATA_DISABLED", "true"));
    }
    return rawResolver;
  }

  @AfterAll
  static synchronized void stop() {
    if (ec2 != null) {
      ec2.close();
    }
    if (raw != null) {
      raw.stop(0);
    }
  }

  @FuzzTest(maxDuration = "3m")
  void simulatedFleet(FuzzedDataProvider data) {
    String address = data.pickValue(List.of("private-ipv4", "private-dns", "ipv6", "public-ipv4"));
    ClusterResolver resolver = simulated(address);
    ec2.clear();
    int count = data.consumeInt(0, 4);
    for (int i = 0; i < count; i++) {
      SimulatedInstance.Builder b = SimulatedInstance.builder("i-" + data.consumeString(20))
          .launchTime(Instant.ofEpochSecond(data.consumeLong(-1L << 40, 1L << 40)));
      if (data.consumeBoolean()) {
        b.privateIpv4(data.consumeString(24));
      }
      if (data.consumeBoolean()) {
        b.ipv6(data.consumeString(40));
      }
      if (data.consumeBoolean()) {
        b.privateDns(data.consumeString(30));
      }
      if (data.consumeBoolean()) {
        b.tag(data.consumeString(12), data.consumeString(12));
      }
      b.state(data.pickValue(SimulatedInstance.State.values()));
      try {
        ec2.add(b.build());
      } catch (IllegalArgumentException | IllegalStateException notAnInstance) {
        // the simulation refuses what EC2 could never hold (a repeated id): skip that one
      }
    }
    resolveDocumented(resolver);
  }

  private static Map<String, String> withAddress(String address) {
    Map<String, String> p = AwsTestSupport.properties(ec2);
    p.put("clusterresolver.aws.timeout", "5s");
    p.put("clusterresolver.aws.max-attempts", "1");
    p.put("clusterresolver.aws.accelerators", "false");
    p.put("clusterresolver.aws.address", address);
    return p;
  }

  @FuzzTest(maxDuration = "3m")
  void rawBody(FuzzedDataProvider data) throws IOException {
    ClusterResolver resolver = raw();
    STATUS.set(data.pickValue(List.of(200, 200, 200, 400, 401, 403, 500, 503)));
    BODY.set(data.consumeRemainingAsString().getBytes(StandardCharsets.UTF_8));
    resolveDocumented(resolver);
  }

  /** Jazzer's SSRF detector allows only the loopback servers of this test. */
  private static boolean loopback(String host, Integer port) {
    return host.equals("localhost") || host.equals("127.0.0.1");
  }

  private static void resolveDocumented(ClusterResolver resolver) {
    Resolution resolution;
    try (SilentCloseable loopbackOnly = BugDetectors.allowNetworkConnections(Ec2ResponseFuzzTest::loopback)) {
      resolution = resolver.resolve();
    } catch (ClusterResolverException | IllegalArgumentException documented) {
      assertThat(documented.getMessage()).isNotBlank();
      return;
    }
    for (String job : resolution.clusterSpec().jobs()) {
      for (int index : resolution.clusterSpec().taskIndices(job)) {
        String address = resolution.clusterSpec().taskAddress(job, index);
        assertThat(TaskAddress.parse(address).toString()).as("a valid host:port").isEqualTo(address);
      }
    }
  }
}
