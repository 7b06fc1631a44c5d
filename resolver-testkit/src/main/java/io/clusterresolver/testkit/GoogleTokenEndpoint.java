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
  private static final String OAUTH = "OAuth ";

  private final Set<String> issued = ConcurrentHashMap.newKeySet();

  ResponseDefinition answer(SimulatedApi.Call call) {
    Map<String, String> form = SimulatedApi.decodeForm(call.body());
    String assertion = form.getOrDefault("assertion", "");
    if (!"POST".equals(call.method()) || !"urn:ietf:params:oauth:grant-type:jwt-bearer".equals(form.get("grant_type"))
        || assertion.split("\\.").length != 3) {
      return GceJson.json(400, "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}", 0);
    }
    return GceJson.json(200, issue(), 0);
  }

  /**
   * Whether an {@code Authorization} header carries a token issued here, as {@code Bearer} or as Google's
   * older {@code OAuth} scheme (which Hazelcast's GCP discovery sends).
   */
  boolean accepts(String authorization) {
    String scheme = authorization.startsWith(BEARER) ? BEARER : authorization.startsWith(OAUTH) ? OAUTH : null;
    return scheme != null && issued.contains(authorization.substring(scheme.length()));
  }

  /**
   * The metadata server's {@code instance/service-accounts/default/token}: a token of the VM's service
   * account, issued here like the exchange's.
   */
  ResponseDefinition serviceAccountToken() {
    return com.github.tomakehurst.wiremock.client.WireMock.aResponse().withStatus(200)
        .withHeader("Metadata-Flavor", "Google").withHeader("Content-Type", "application/json").withBody(issue()).build();
  }

  /** A new access token, remembered, in the token answer's JSON. */
  private String issue() {
    String token = "ya29.simulated-" + UUID.randomUUID().toString().replace("-", "");
    issued.add(token);
    return "{\"access_token\":\"" + token + "\",\"expires_in\":3599,\"token_type\":\"Bearer\"}";
  }

  Set<String> issued() {
    return Set.copyOf(issued);
  }
}
