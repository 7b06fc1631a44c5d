package io.clusterresolver.testkit;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Google's OAuth2 token endpoint as a service-account key's {@code token_uri} sees it: {@code POST
 * /token} with the JWT-bearer grant gets an access token; anything else is 400 {@code invalid_grant}.
 * It remembers what it issued, so the API can tell its tokens from others and a test can look for
 * them in every output.
 */
final class GoogleTokenEndpoint {

  static final String PATH = "/token";
  private static final String BEARER = "Bearer ";

  private final Set<String> issued = ConcurrentHashMap.newKeySet();

  ResponseDefinition answer(SimulatedApi.Call call) {
    Map<String, String> form = SimulatedApi.decodeForm(call.body());
    String assertion = form.getOrDefault("assertion", "");
    if (!"POST".equals(call.method()) || !"urn:ietf:params:oauth:grant-type:jwt-bearer".equals(form.get("grant_type"))
        || assertion.split("\\.").length != 3) {
      return GceJson.json(400, "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}", 0);
    }
    String token = "ya29.simulated-" + UUID.randomUUID().toString().replace("-", "");
    issued.add(token);
    return GceJson.json(200, "{\"access_token\":\"" + token + "\",\"expires_in\":3599,\"token_type\":\"Bearer\"}", 0);
  }

  /** Whether an {@code Authorization} header carries a token issued here. */
  boolean accepts(String authorization) {
    return authorization.startsWith(BEARER) && issued.contains(authorization.substring(BEARER.length()));
  }

  Set<String> issued() {
    return Set.copyOf(issued);
  }
}
