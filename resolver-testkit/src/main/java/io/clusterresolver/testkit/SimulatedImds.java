package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The instance metadata service, IMDSv2: a token from {@code PUT /latest/api/token} (with a TTL
 * header between 1 and 21600 seconds), then that token on every GET; a GET without it is 401.
 */
final class SimulatedImds {

  private final Set<String> tokens = ConcurrentHashMap.newKeySet();
  private final Supplier<SimulatedInstance> self;
  private final String region;

  /**
   * @param self the instance this process runs on, or {@code null} for none (404)
   */
  SimulatedImds(Supplier<SimulatedInstance> self, String region) {
    this.self = self;
    this.region = region;
  }

  ResponseDefinition answer(String method, String path, Map<String, String> headers) {
    if (path.equals("/latest/api/token")) {
      if (!"PUT".equals(method)) {
        return Ec2QueryWire.plain(405, "");
      }
      String ttl = headers.get("x-aws-ec2-metadata-token-ttl-seconds");
      if (ttl == null || !ttl.matches("\\d+") || Integer.parseInt(ttl) < 1 || Integer.parseInt(ttl) > 21600) {
        return Ec2QueryWire.plain(400, "");
      }
      String token = "AQAEA" + UUID.randomUUID().toString().replace("-", "");
      tokens.add(token);
      return aResponse().withStatus(200).withHeader("Content-Type", "text/plain")
          .withHeader("x-aws-ec2-metadata-token-ttl-seconds", ttl).withBody(token).build();
    }
    String token = headers.get("x-aws-ec2-metadata-token");
    if (token == null || !tokens.contains(token)) {
      return Ec2QueryWire.plain(401, "");
    }
    SimulatedInstance me = self.get();
    if (me == null) {
      return Ec2QueryWire.plain(404, "");
    }
    switch (path) {
      case "/latest/meta-data/instance-id":
        return Ec2QueryWire.plain(200, me.instanceId());
      case "/latest/meta-data/local-ipv4":
        return me.privateIpv4().map(ip -> Ec2QueryWire.plain(200, ip)).orElse(Ec2QueryWire.plain(404, ""));
      case "/latest/meta-data/placement/availability-zone":
        return Ec2QueryWire.plain(200, me.availabilityZone());
      case "/latest/meta-data/placement/region":
        return Ec2QueryWire.plain(200, region);
      case "/latest/meta-data/instance-type":
        return Ec2QueryWire.plain(200, me.instanceType());
      case "/latest/dynamic/instance-identity/document":
        String doc = "{\n  \"accountId\" : \"123456789012\",\n  \"architecture\" : \"x86_64\",\n"
            + "  \"availabilityZone\" : \"" + me.availabilityZone() + "\",\n"
            + "  \"imageId\" : \"ami-0abcdef1234567890\",\n"
            + "  \"instanceId\" : \"" + me.instanceId() + "\",\n"
            + "  \"instanceType\" : \"" + me.instanceType() + "\",\n"
            + "  \"pendingTime\" : \"" + me.launchTime().truncatedTo(ChronoUnit.SECONDS) + "\",\n"
            + "  \"privateIp\" : \"" + me.privateIpv4().orElse("") + "\",\n"
            + "  \"region\" : \"" + region + "\",\n  \"version\" : \"2017-09-30\"\n}";
        return aResponse().withStatus(200).withHeader("Content-Type", "application/json").withBody(doc).build();
      default:
        return Ec2QueryWire.plain(404, "");
    }
  }
}
