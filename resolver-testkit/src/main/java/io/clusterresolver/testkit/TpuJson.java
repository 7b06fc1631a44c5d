package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.time.format.DateTimeFormatter;
import java.time.ZoneOffset;

/**
 * The Cloud TPU API v2's JSON wire format, written by hand so the simulation depends on no JSON
 * library: a {@code Node} as {@code nodes.get} returns it (fields in lowerCamelCase, int64 as a
 * string, enums as names or, when the client asks for {@code enum-encoding=int}, as numbers), and
 * Google's JSON error shape {@code {"error": {"code", "message", "status", "details"}}}.
 */
final class TpuJson {

  private static final DateTimeFormatter RFC3339 =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private TpuJson() {}

  /** A node's JSON; {@code intEnums}: enums as numbers ({@code $alt=json;enum-encoding=int}). */
  static String node(String project, String zone, SimulatedTpuNode n, boolean intEnums) {
    StringBuilder j = new StringBuilder(512 + 160 * n.endpoints().size());
    j.append("{\n  \"name\": \"").append(esc("projects/" + project + "/locations/" + zone + "/nodes/" + n.name()))
        .append('"');
    if (n.acceleratorType() != null) {
      j.append(",\n  \"acceleratorType\": \"").append(esc(n.acceleratorType())).append('"');
    }
    if (n.state() != SimulatedTpuNode.State.STATE_UNSPECIFIED) {
      j.append(",\n  \"state\": ").append(intEnums ? String.valueOf(n.state().number()) : "\"" + n.state().name() + "\"");
    }
    if (n.healthDescription() != null) {
      j.append(",\n  \"healthDescription\": \"").append(esc(n.healthDescription())).append('"');
    }
    j.append(",\n  \"runtimeVersion\": \"").append(esc(n.runtimeVersion())).append('"')
        .append(",\n  \"networkConfig\": {\n    \"network\": \"projects/").append(esc(project))
        .append("/global/networks/default\",\n    \"subnetwork\": \"projects/").append(esc(project)).append("/regions/")
        .append(esc(region(zone))).append("/subnetworks/default\",\n    \"enableExternalIps\": true\n  }")
        .append(",\n  \"serviceAccount\": {\n    \"email\": \"123456789012-compute@developer.gserviceaccount.com\",\n")
        .append("    \"scope\": [\n      \"https://www.googleapis.com/auth/cloud-platform\"\n    ]\n  }")
        .append(",\n  \"createTime\": \"").append(RFC3339.format(n.createTime())).append('"')
        .append(",\n  \"schedulingConfig\": {").append(n.preemptible() ? "\n    \"preemptible\": true\n  }" : "}");
    if (!n.endpoints().isEmpty()) {
      j.append(",\n  \"networkEndpoints\": [");
      String sep = "\n";
      for (SimulatedTpuNode.Endpoint e : n.endpoints()) {
        j.append(sep).append("    {\n      \"ipAddress\": \"").append(esc(e.ipAddress())).append('"');
        if (e.port() != 0) {
          j.append(",\n      \"port\": ").append(e.port());
        }
        j.append(",\n      \"accessConfig\": {");
        if (e.externalIp() != null) {
          j.append("\n        \"externalIp\": \"").append(esc(e.externalIp())).append("\"\n      ");
        }
        j.append("}\n    }");
        sep = ",\n";
      }
      j.append("\n  ]");
    }
    if (n.health() != null && n.health() != SimulatedTpuNode.Health.HEALTH_UNSPECIFIED) {
      j.append(",\n  \"health\": ").append(intEnums ? String.valueOf(n.health().number()) : "\"" + n.health().name() + "\"");
    }
    j.append(",\n  \"id\": \"").append(n.id()).append('"')
        .append(",\n  \"apiVersion\": ").append(intEnums ? "4" : "\"V2\"")
        .append(",\n  \"shieldedInstanceConfig\": {}")
        .append("\n}");
    return j.toString();
  }

  /** Google's JSON error, with a {@code RequestInfo} detail carrying the request id. */
  static ResponseDefinition error(int httpStatus, String status, String message, String requestId, long delayMs) {
    String body = "{\n  \"error\": {\n    \"code\": " + httpStatus + ",\n    \"message\": \"" + esc(message)
        + "\",\n    \"status\": \"" + status + "\",\n    \"details\": [\n      {\n"
        + "        \"@type\": \"type.googleapis.com/google.rpc.RequestInfo\",\n        \"requestId\": \"" + requestId
        + "\"\n      }\n    ]\n  }\n}\n";
    return json(httpStatus, body, delayMs);
  }

  static ResponseDefinition json(int httpStatus, String body, long delayMs) {
    var b = aResponse().withStatus(httpStatus).withHeader("Content-Type", "application/json; charset=UTF-8")
        .withHeader("Vary", "Origin, X-Origin, Referer").withBody(body);
    return SimulatedApi.build(b, delayMs);
  }

  /** The region of a zone ({@code us-central2-b} -> {@code us-central2}). */
  static String region(String zone) {
    int dash = zone.lastIndexOf('-');
    return dash > 0 ? zone.substring(0, dash) : zone;
  }

  static String esc(String s) {
    return Json.escape(s);
  }
}
