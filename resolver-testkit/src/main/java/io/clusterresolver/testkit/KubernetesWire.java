package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kubernetes API's wire pieces: JSON strings, {@code Status} error bodies as the API server
 * writes them, and {@code continue} tokens (base64 of {@code {"v":"meta.k8s.io/v1","rv":N,"start":KEY}},
 * the API server's own format: the resource version of the list and the key to continue after).
 */
final class KubernetesWire {

  private static final Pattern TOKEN = Pattern.compile("\\{\"v\":\"meta\\.k8s\\.io/v1\",\"rv\":(\\d+),\"start\":\"(.*)\"}");

  private KubernetesWire() {}

  /** A JSON string literal. */
  static String quote(String s) {
    return Json.quote(s);
  }

  /** A JSON object of strings. */
  static String object(Map<String, String> map) {
    StringBuilder b = new StringBuilder("{");
    map.forEach((k, v) -> b.append(b.length() == 1 ? "" : ",").append(quote(k)).append(':').append(quote(v)));
    return b.append('}').toString();
  }

  /** A stable uid for a name, shaped like the API server's. */
  static String uid(String name) {
    return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
  }

  /** A {@code continue} token: list resource version {@code rv}, continue after {@code key}. */
  static String continueToken(long rv, String key) {
    String json = "{\"v\":\"meta.k8s.io/v1\",\"rv\":" + rv + ",\"start\":" + quote(key + "\u0000") + "}";
    return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  /** The resource version and start key of a token, or {@code null} when it is not one. */
  static Object[] decodeToken(String token) {
    try {
      String json = new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8);
      Matcher m = TOKEN.matcher(json);
      if (!m.matches()) {
        return null;
      }
      String start = m.group(2).replace("\\u0000", "");
      return new Object[] {Long.parseLong(m.group(1)), start};
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * A {@code Status} failure, the body of every error the API server returns.
   *
   * @param details {@code "details"} JSON or {@code null}
   */
  static String status(int code, String reason, String message, String details) {
    return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
        + quote(message) + ",\"reason\":" + quote(reason) + (details == null ? "" : ",\"details\":" + details)
        + ",\"code\":" + code + "}";
  }

  /** An error response with a {@code Status} body and an {@code Audit-Id}. */
  static ResponseDefinition error(int code, String reason, String message, String details, String auditId, long delayMs) {
    ResponseDefinitionBuilder b = aResponse().withStatus(code)
        .withHeader("Content-Type", "application/json")
        .withHeader("Audit-Id", auditId)
        .withHeader("Cache-Control", "no-cache, private")
        .withBody(status(code, reason, message, details));
    if (code == 429) {
      b.withHeader("Retry-After", "1");
    }
    return SimulatedApi.build(b, delayMs);
  }
}
