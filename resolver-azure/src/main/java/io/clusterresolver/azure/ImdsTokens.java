package io.clusterresolver.azure;

import com.fasterxml.jackson.core.JsonParser;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.Deadline;
import io.clusterresolver.cloud.MetadataClient;
import io.clusterresolver.cloud.PlatformProbes;
import io.clusterresolver.cloud.TokenCache;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The managed identity's token straight from the Instance Metadata Service, where azure-identity's default chain
 * would end up asking it ({@link #reachedBy}): {@code GET /metadata/identity/oauth2/token?api-version=2018-02-01
 * &resource=…[&client_id=…]} with {@code Metadata: true}, as msal4j's {@code IMDSManagedIdentitySource} sends it,
 * on the kit's {@link MetadataClient} (plain HTTP, never through a proxy), retried as IMDS's guidance says. The chain
 * itself costs a cold resolve about 1,900 classes (Jackson, Reactor, {@code java.net.http}, azure-core, msal4j) and
 * 240 ms of CPU (docs/benchmarks.md, "azure9"). A token is kept until five minutes before its {@code expires_on}, as
 * {@link BearerTokens#of} keeps the chain's. When IMDS gives no token (no answer, an error after IMDS's retries, an
 * answer without a token), the chain is asked instead, from then on: whatever it does then is what it did before.
 */
final class ImdsTokens implements BearerTokens {

  private static final System.Logger LOG = System.getLogger(ImdsTokens.class.getName());

  /** The API version msal4j's IMDS source pins. */
  static final String API_VERSION = "2018-02-01";
  static final String TOKEN_PATH = "/metadata/identity/oauth2/token";
  /** msal4j's IMDS source's address override (AAD Pod Identity's node agent, a test's simulation). */
  static final String AUTHORITY_HOST_VARIABLE = "AZURE_POD_IDENTITY_AUTHORITY_HOST";
  /** azure-core's {@code AccessTokenCache}'s margin, which the chain's tokens are kept with. */
  private static final Duration MARGIN = Duration.ofMinutes(5);
  /**
   * The statuses IMDS's guidance retries with exponential backoff: not found while the identity is being assigned,
   * gone while IMDS is updated, too many requests, and server errors.
   */
  private static final Set<Integer> RETRIED = Set.of(404, 408, 410, 429);
  private static final int RETRIES = 3;
  private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
  /**
   * The most one request waits: off Azure the link-local address may not answer at all, and the chain, asked then,
   * needs the rest of the resolve's time for its own sources (the Azure CLI, …). For the same reason a request that
   * got no answer is not sent again.
   */
  private static final Duration ATTEMPT = Duration.ofSeconds(2);

  private final MetadataClient imds;
  /** The token's path and query under the IMDS address. */
  private final String request;
  /** The provider's {@code timeout}: the deadline of an ask made outside a resolve. */
  private final Duration timeout;
  private final TokenCache kept = TokenCache.withMargin(MARGIN);
  private final Supplier<BearerTokens> chain;
  /** The chain's tokens, once IMDS gave none. */
  private BearerTokens askingChain;

  private ImdsTokens(URI endpoint, String request, BoundedAnswers bounds, Supplier<BearerTokens> chain) {
    this.imds = Imds.client(endpoint).timeout(ATTEMPT)
        .maxAnswerBytes((int) Math.min(Integer.MAX_VALUE - 8, bounds.limit().maxBytes()))
        .retries(RETRIES).retriedStatuses(status -> RETRIED.contains(status) || status >= 500)
        .retriesLostAnswers(false).backoff(FIRST_BACKOFF).jitter(false).build();
    this.request = request;
    this.timeout = bounds.timeout();
    this.chain = chain;
  }

  /**
   * Whether azure-identity's {@code DefaultAzureCredential} (1.19) would ask IMDS for a managed identity's token: no
   * {@code AZURE_TOKEN_CREDENTIALS} choosing the chain's sources, no {@code EnvironmentCredential} (a client id and
   * tenant with a secret, a certificate, or a user name and password), no workload identity (a federated token file
   * with a tenant and client id), and none of msal4j's other managed identity sources (App Service, Service Fabric,
   * Cloud Shell, Azure Arc, told by their endpoint variables). A variable set but empty counts as set where
   * azure-identity's checks are for {@code null}: the chain is then asked, as before.
   *
   * @param env an identity setting's value ({@link #settings}), or {@code null}
   * @param clientId the {@code client-id} property, or {@code null}
   */
  static boolean reachedBy(UnaryOperator<String> env, String clientId) {
    if (env.apply("AZURE_TOKEN_CREDENTIALS") != null) {
      return false;
    }
    boolean identified = env.apply("AZURE_CLIENT_ID") != null && env.apply("AZURE_TENANT_ID") != null;
    if (identified && (env.apply("AZURE_CLIENT_SECRET") != null || env.apply("AZURE_CLIENT_CERTIFICATE_PATH") != null
        || env.apply("AZURE_USERNAME") != null && env.apply("AZURE_PASSWORD") != null)) {
      return false; // EnvironmentCredential
    }
    if (env.apply("AZURE_FEDERATED_TOKEN_FILE") != null && env.apply("AZURE_TENANT_ID") != null
        && (clientId != null || env.apply("AZURE_CLIENT_ID") != null)) {
      return false; // WorkloadIdentityCredential, and ManagedIdentityCredential's token exchange
    }
    // msal4j's ManagedIdentityClient.getManagedIdentitySource, which reads blank as unset.
    boolean identityEndpoint = !blank(env.apply("IDENTITY_ENDPOINT"));
    return !(identityEndpoint && !blank(env.apply("IDENTITY_HEADER"))) && blank(env.apply("MSI_ENDPOINT"))
        && !(identityEndpoint && !blank(env.apply("IMDS_ENDPOINT")));
  }

  /**
   * The identity settings as azure-identity reads them (azure-core's {@code Configuration}): a system property of the
   * variable's name first, then the environment variable.
   */
  static UnaryOperator<String> settings(UnaryOperator<String> env) {
    return name -> {
      String property = System.getProperty(name);
      return property != null ? property : env.apply(name);
    };
  }

  /**
   * The tokens of the managed identity for {@code scope}, asked of IMDS at {@code endpoint} (its address, without a
   * path).
   *
   * @param clientId the user-assigned identity's client id, or {@code null} for the system-assigned one
   * @param bounds the answer limit, and the time of an ask made outside a resolve
   * @param chain the default chain's tokens, made when IMDS gives none
   */
  static ImdsTokens of(URI endpoint, String clientId, String scope, BoundedAnswers bounds,
      Supplier<BearerTokens> chain) {
    String resource = scope.endsWith("/.default") ? scope.substring(0, scope.length() - "/.default".length()) : scope;
    String query = "api-version=" + API_VERSION + "&resource=" + URLEncoder.encode(resource, StandardCharsets.UTF_8)
        + (clientId == null ? "" : "&client_id=" + URLEncoder.encode(clientId, StandardCharsets.UTF_8));
    return new ImdsTokens(endpoint, TOKEN_PATH + "?" + query, bounds, chain);
  }

  /**
   * IMDS's address: {@code AZURE_POD_IDENTITY_AUTHORITY_HOST} as msal4j reads it, else {@code configured}; empty when
   * that variable is no URI (msal4j's error is the chain's to give).
   */
  static Optional<URI> endpoint(UnaryOperator<String> env, URI configured) {
    String host = env.apply(AUTHORITY_HOST_VARIABLE);
    if (blank(host)) {
      return Optional.of(configured);
    }
    try {
      return Optional.of(new URI(host.trim())).filter(uri -> uri.getScheme() != null && uri.getHost() != null);
    } catch (java.net.URISyntaxException e) {
      return Optional.empty();
    }
  }

  @Override
  public synchronized String token(Deadline deadline) {
    if (askingChain == null) {
      try {
        return kept.get(() -> fromImds(deadline));
      } catch (NoToken e) {
        askingChain = chain.get();
      }
    }
    return askingChain.token(deadline);
  }

  @Override
  public boolean renewable() {
    return true;
  }

  @Override
  public synchronized String renewed(Deadline deadline) {
    if (askingChain == null) {
      try {
        return kept.renew(() -> fromImds(deadline));
      } catch (NoToken e) {
        askingChain = chain.get();
        return askingChain.token(deadline);
      }
    }
    return askingChain.renewed(deadline);
  }

  /** A token as IMDS answered it. */
  record Token(String value, Instant expiresOn) {
    @Override
    public String toString() {
      return "Token[expiresOn=" + expiresOn + "]"; // never the token
    }
  }

  /**
   * IMDS's token, retried as IMDS's guidance says within the time left: of the resolve's deadline, or of the
   * provider's {@code timeout} when asked outside a resolve.
   */
  private TokenCache.Token fromImds(Deadline deadline) throws NoToken {
    PlatformProbes.Response answer = imds.fetch(request, deadline != null ? deadline : Deadline.after(timeout))
        .orElseThrow(() -> noToken("no answer"));
    if (answer.status() != 200) {
      throw noToken("HTTP " + answer.status());
    }
    if (!answer.complete()) {
      throw noToken("an answer over the answer limit");
    }
    Token token = read(answer.body().getBytes(StandardCharsets.UTF_8))
        .orElseThrow(() -> noToken("an answer without access_token and expires_on"));
    return new TokenCache.Token(token.value(), token.expiresOn());
  }

  /** IMDS gave no token: logged, and the chain asked from then on. */
  private static final class NoToken extends Exception {
    private static final long serialVersionUID = 1L;

    NoToken() {
      super(null, null, false, false);
    }
  }

  private NoToken noToken(String why) {
    LOG.log(Level.INFO, () -> "azure: the instance metadata service at " + BoundedAnswers.origin(imds.base())
        + " gave no managed identity token (" + why + "); asking azure-identity's default credential chain");
    return new NoToken();
  }

  /** {@code access_token} and {@code expires_on} (seconds since the epoch, a string or a number), as msal4j reads. */
  static Optional<Token> read(byte[] body) {
    try (JsonParser json = ArmJson.parser(body)) {
      if (!ArmJson.object(json)) {
        return Optional.empty();
      }
      String token = null;
      String expiresOn = null;
      for (String name = ArmJson.field(json); name != null; name = ArmJson.field(json)) {
        if (!json.currentToken().isScalarValue()) {
          json.skipChildren();
        } else if (name.equals("access_token")) {
          token = ArmJson.string(json);
        } else if (name.equals("expires_on")) {
          expiresOn = ArmJson.string(json);
        }
      }
      if (blank(token) || blank(expiresOn)) {
        return Optional.empty();
      }
      return Optional.of(new Token(token, Instant.ofEpochSecond(Long.parseLong(expiresOn.trim()))));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }

  @Override
  public String toString() {
    return "ImdsTokens(" + BoundedAnswers.origin(imds.base()) + ")"; // never the token
  }
}
