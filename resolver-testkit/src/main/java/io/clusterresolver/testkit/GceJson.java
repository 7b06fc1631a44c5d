package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/** Compute Engine's REST JSON: instance resources, Google's error shape, warnings and page tokens. */
final class GceJson {

  static final String API = "https://www.googleapis.com/compute/v1/";
  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSxxx");

  private GceJson() {}

  /** A client mistake or a server failure, in Google's error shape. */
  static final class ApiError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int status;
    final String reason;
    final String statusName;

    ApiError(int status, String reason, String statusName, String message) {
      super(message, null, false, false);
      this.status = status;
      this.reason = reason;
      this.statusName = statusName;
    }

    static ApiError invalid(String message) {
      return new ApiError(400, "invalid", "INVALID_ARGUMENT", message);
    }

    static ApiError notFound(String message) {
      return new ApiError(404, "notFound", "NOT_FOUND", message);
    }
  }

  /** {@code {"error": {"code", "message", "errors": [{"message", "domain", "reason"}], "status"}}}. */
  static ResponseDefinition error(ApiError e, long delayMs) {
    String body = "{\n  \"error\": {\n    \"code\": " + e.status + ",\n    \"message\": " + str(e.getMessage())
        + ",\n    \"errors\": [\n      {\n        \"message\": " + str(e.getMessage())
        + ",\n        \"domain\": \"" + ("rateLimitExceeded".equals(e.reason) ? "usageLimits" : "global")
        + "\",\n        \"reason\": " + str(e.reason) + "\n      }\n    ],\n    \"status\": " + str(e.statusName)
        + "\n  }\n}\n";
    return json(e.status, body, delayMs);
  }

  static ResponseDefinition json(int status, String body, long delayMs) {
    ResponseDefinitionBuilder b = aResponse().withStatus(status).withHeader("Content-Type", "application/json; charset=UTF-8")
        .withBody(body);
    return SimulatedApi.build(b, delayMs);
  }

  /** One instance resource. */
  static void instance(StringBuilder out, String project, SimulatedGceInstance i) {
    String zoneUrl = API + "projects/" + project + "/zones/" + i.zone();
    out.append("{\"kind\":\"compute#instance\",\"id\":\"").append(i.idText())
        .append("\",\"creationTimestamp\":\"").append(TIMESTAMP.format(i.creationTimestamp()))
        .append("\",\"name\":").append(str(i.name()))
        .append(",\"machineType\":\"").append(zoneUrl).append("/machineTypes/").append(i.machineType())
        .append("\",\"status\":\"").append(i.status()).append("\",\"zone\":\"").append(zoneUrl)
        .append("\",\"canIpForward\":false,\"networkInterfaces\":[");
    out.append("{\"kind\":\"compute#networkInterface\",\"network\":\"").append(API).append("projects/").append(project)
        .append("/global/networks/default\",\"name\":\"nic0\"");
    i.networkIp().ifPresent(ip -> out.append(",\"networkIP\":\"").append(ip).append('"'));
    out.append(",\"stackType\":\"").append(i.networkIp().isEmpty() ? "IPV6_ONLY" : i.ipv6().isPresent() ? "IPV4_IPV6"
        : "IPV4_ONLY").append('"');
    i.ipv6().ifPresent(ip -> out.append(",\"ipv6Address\":\"").append(ip).append("\",\"internalIpv6PrefixLength\":96"));
    i.natIp().ifPresent(ip -> out.append(",\"accessConfigs\":[{\"kind\":\"compute#accessConfig\",\"type\":\"ONE_TO_ONE_NAT\","
        + "\"name\":\"External NAT\",\"natIP\":\"").append(ip).append("\",\"networkTier\":\"PREMIUM\"}]"));
    out.append(",\"fingerprint\":\"c2ltdWxhdGVk\"}");
    for (int n = 0; n < i.otherNicIps().size(); n++) {
      out.append(",{\"kind\":\"compute#networkInterface\",\"name\":\"nic").append(n + 1).append("\",\"networkIP\":\"")
          .append(i.otherNicIps().get(n)).append("\",\"stackType\":\"IPV4_ONLY\"}");
    }
    out.append(']');
    if (!i.labels().isEmpty()) {
      out.append(",\"labels\":{");
      boolean first = true;
      for (Map.Entry<String, String> l : i.labels().entrySet()) {
        out.append(first ? "" : ",").append(str(l.getKey())).append(':').append(str(l.getValue()));
        first = false;
      }
      out.append("},\"labelFingerprint\":\"c2ltdWxhdGVk\"");
    }
    if (i.acceleratorType() != null) {
      out.append(",\"guestAccelerators\":[{\"acceleratorType\":\"").append(zoneUrl).append("/acceleratorTypes/")
          .append(i.acceleratorType()).append("\",\"acceleratorCount\":").append(i.acceleratorCount()).append("}]");
    }
    out.append(",\"selfLink\":\"").append(zoneUrl).append("/instances/").append(i.name())
        .append("\",\"cpuPlatform\":\"Intel Cascade Lake\",\"deletionProtection\":false}");
  }

  /** A scope's or a list's warning. */
  static String warning(String code, String message, String scope) {
    return "{\"code\":\"" + code + "\",\"message\":" + str(message) + ",\"data\":[{\"key\":\"scope\",\"value\":"
        + str(scope) + "}]}";
  }

  static String str(String s) {
    return Json.quote(s);
  }

  static String encodeToken(int page, int offset) {
    return PageTokens.encode("gce", page, offset);
  }

  /** {page, offset}; a token this server did not write is a 400, as on the real API. */
  static int[] decodeToken(String token) {
    int[] position = PageTokens.decode("gce", token);
    if (position != null) {
      return position;
    }
    throw ApiError.invalid("Invalid value for field 'pageToken': '" + token + "'. Supplied page token is invalid.");
  }
}
