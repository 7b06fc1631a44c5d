package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Compute Engine metadata server as a TPU VM sees it ({@code /computeMetadata/v1/...}): a
 * request without {@code Metadata-Flavor: Google} is refused with 403, as the real server does;
 * answers carry {@code Metadata-Flavor: Google}. Values: project, zone, internal IP, and the TPU
 * attributes {@code worker-network-endpoints}, {@code agent-worker-number}, {@code accelerator-type}.
 */
final class TpuVmMetadata {

  static final String PREFIX = "/computeMetadata/v1/";

  /** Values by path (after {@code /computeMetadata/v1/}); explicit ones override the derived ones. */
  private final Map<String, String> overrides = new ConcurrentHashMap<>();
  private volatile Map<String, String> derived = Map.of();
  private volatile boolean down;

  /** The values of a VM that is worker {@code worker} of {@code node} ({@code worker} -1: a VM on no node). */
  void describe(String project, long projectNumber, String zone, SimulatedTpuNode node, int worker, String outsiderIp) {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("project/project-id", project);
    v.put("project/numeric-project-id", Long.toString(projectNumber));
    v.put("instance/zone", "projects/" + projectNumber + "/zones/" + zone);
    if (node != null && worker >= 0) {
      v.put("instance/network-interfaces/0/ip", node.endpoints().get(worker).ipAddress());
      v.put("instance/hostname", "t1v-n-" + Long.toHexString(node.id()).substring(0, 8) + "-w-" + worker
          + "." + zone + ".c." + project + ".internal");
      StringBuilder endpoints = new StringBuilder();
      for (SimulatedTpuNode.Endpoint e : node.endpoints()) {
        endpoints.append(endpoints.length() == 0 ? "" : ",").append("unknown:unknown:").append(e.ipAddress());
      }
      v.put("instance/attributes/worker-network-endpoints", endpoints.toString());
      v.put("instance/attributes/agent-worker-number", Integer.toString(worker));
      v.put("instance/attributes/accelerator-type", node.acceleratorType());
    } else if (outsiderIp != null) {
      v.put("instance/network-interfaces/0/ip", outsiderIp);
    }
    derived = Map.copyOf(v);
  }

  /** Sets ({@code value} non-null) or removes one value. */
  void set(String path, String value) {
    if (value == null) {
      overrides.put(path, "\u0000");
    } else {
      overrides.put(path, value);
    }
  }

  void clearOverrides() {
    overrides.clear();
  }

  /** Whether the server answers at all (off: every request is refused with a reset connection). */
  void down(boolean down) {
    this.down = down;
  }

  boolean isDown() {
    return down;
  }

  ResponseDefinition answer(String method, String path, String flavor) {
    if (!"Google".equals(flavor)) {
      return aResponse().withStatus(403).withHeader("Content-Type", "text/html; charset=UTF-8")
          .withBody("Missing Metadata-Flavor:Google header.").build();
    }
    if (!"GET".equals(method)) {
      return plain(405, "");
    }
    String key = path.substring(PREFIX.length());
    String value = overrides.containsKey(key) ? overrides.get(key) : derived.get(key);
    if (value == null || value.equals("\u0000")) {
      return aResponse().withStatus(404).withHeader("Metadata-Flavor", "Google")
          .withHeader("Content-Type", "text/html; charset=UTF-8").withBody("Not Found").build();
    }
    return plain(200, value);
  }

  private static ResponseDefinition plain(int status, String body) {
    return aResponse().withStatus(status).withHeader("Metadata-Flavor", "Google")
        .withHeader("Content-Type", "application/text").withHeader("Server", "Metadata Server for VM")
        .withBody(body).build();
  }
}
