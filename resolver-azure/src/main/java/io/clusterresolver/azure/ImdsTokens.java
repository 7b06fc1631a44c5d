package io.clusterresolver.azure;

import com.fasterxml.jackson.core.JsonParser;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.CloudHttp;
import io.clusterresolver.cloud.Deadline;
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
 * on the kit's {@link CloudHttp} (plain HTTP, never through a proxy). The chain itself costs a cold resolve about
 * 1,900 classes (Jackson, Reactor, {@code java.net.http}, azure-core, msal4j) and 240 ms of CPU (docs/benchmarks.md,
 * "azure9"). A token is kept until five minutes before its {@code expires_on}, as {@link BearerTokens#of} keeps the
 * chain's. When IMDS gives no token (no answer, an error after IMDS's retries, an answer without a token), the chain
 * is asked instead, from then on: whatever it does then is what it did before.
 */
final class ImdsTokens implements BearerTokens {

  private static final System.Logger LOG = System.getLogger(ImdsTokens.class.getName());

  /** The API version msal4j's IMDS source pins. */
  static final String API_VERSION = "2018-02-01";
  static final String TOKEN_PATH = "/metadata/identity/oauth2/token";
  /** msal4j's IMDS source's address override (AAD Pod Identity's node agent, a test's simulation). */
  static final String AUTHORITY_HOST_VARIABLE = "AZURE_POD_IDENTITY_AUTHORITY_HOST";
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
   * needs the rest of the resolve's time for its own sources (the Azure CLI, …).
   */
  private static final Duration ATTEMPT = Duration.ofSeconds(2);

  private final CloudHttp http;
  private final URI request;
  private final BoundedAnswers bounds;
  private final Supplier<BearerTokens> chain;
  private String kept;
  private Instant keptUntil = Instant.MIN;
  /** The chain's tokens, once IMDS gave none. */
  private BearerTokens askingChain;

  private ImdsTokens(URI request, BoundedAnswers bounds, Supplier<BearerTokens> chain) {
    this.http = new CloudHttp(bounds.limit(), CloudHttp.Redirects.REPORTED, null);
    this.request = request;
    this.bounds = bounds;
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
    return new ImdsTokens(URI.create(endpoint.toString().replaceAll("/+$", "") + TOKEN_PATH + "?" + query), bounds,
        chain);
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
    if (askingChain != null) {
      return askingChain.token(deadline);
    }
    if (kept == null || Instant.now().isAfter(keptUntil.minus(MARGIN))) {
      return asked(deadline);
    }
    return kept;
  }

  @Override
  public boolean renewable() {
    return true;
  }

  @Override
  public synchronized String renewed(Deadline deadline) {
    return askingChain != null ? askingChain.renewed(deadline) : asked(deadline);
  }

  /** A new token from IMDS, or else from the chain (from now on). */
  private String asked(Deadline deadline) {
    Optional<Token> token = fromImds(deadline);
    if (token.isPresent()) {
      kept = token.get().value();
      keptUntil = token.get().expiresOn();
      return kept;
    }
    kept = null;
    askingChain = chain.get();
    return askingChain.token(deadline);
  }

  /** A token as IMDS answered it. */
  record Token(String value, Instant expiresOn) {
    @Override
    public String toString() {
      return "Token[expiresOn=" + expiresOn + "]"; // never the token
    }
  }

  /** IMDS's token, retried as IMDS's guidance says within the time left; empty when there is none. */
  private Optional<Token> fromImds(Deadline deadline) {
    Duration backoff = FIRST_BACKOFF;
    for (int attempt = 0; ; attempt++) {
      Duration left = bounds.within(deadline);
      int status;
      try (CloudHttp.Answer answer = http.send(CloudHttp.Request.get(request).with("Metadata", "true"),
          CloudHttp.Authorization.NONE, left.compareTo(ATTEMPT) < 0 ? left : ATTEMPT)) {
        status = answer.status();
        if (status == 200) {
          byte[] body = answer.body().readAllBytes();
          Optional<Token> token = read(body);
          if (token.isEmpty()) {
            noToken("an answer without access_token and expires_on");
          }
          return token;
        }
      } catch (IOException e) {
        noToken("no answer: " + e.getClass().getSimpleName());
        return Optional.empty();
      }
      boolean retried = RETRIED.contains(status) || status >= 500;
      if (!retried || attempt >= RETRIES || bounds.within(deadline).compareTo(backoff.multipliedBy(2)) < 0) {
        noToken("HTTP " + status);
        return Optional.empty();
      }
      try {
        Thread.sleep(backoff.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Optional.empty();
      }
      backoff = backoff.multipliedBy(2);
    }
  }

  private void noToken(String why) {
    LOG.log(Level.INFO, () -> "azure: the instance metadata service at " + BoundedAnswers.origin(request)
        + " gave no managed identity token (" + why + "); asking azure-identity's default credential chain");
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
    return "ImdsTokens(" + BoundedAnswers.origin(request) + ")"; // never the token
  }
}
