package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Small pieces of the simulated Azure's HTTP: query strings, plain JSON answers, the 401 challenge. */
final class ArmWire {

  private ArmWire() {}

  static ResponseDefinition plainJson(int status, String body) {
    return aResponse().withStatus(status).withHeader("Content-Type", "application/json; charset=utf-8").withBody(body).build();
  }

  static ResponseDefinition unauthorized(String requestId) {
    return aResponse().withStatus(401).withHeader("Content-Type", "application/json; charset=utf-8")
        .withHeader("x-ms-request-id", requestId)
        .withHeader("WWW-Authenticate", "Bearer authorization_uri=\"https://login.microsoftonline.com/common\", error=\"invalid_token\", "
            + "error_description=\"The authentication failed because of missing 'Authorization' header.\"")
        .withBody(ArmJson.error("AuthenticationFailed", "Authentication failed. The 'Authorization' header is missing."))
        .build();
  }

  static Map<String, String> query(String raw) {
    Map<String, String> params = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return params;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      params.put(k, v);
    }
    return params;
  }
}
