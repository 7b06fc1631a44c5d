package io.clusterresolver.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenRequestContext;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.Context;
import com.azure.identity.ManagedIdentityCredential;
import com.azure.identity.ManagedIdentityCredentialBuilder;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.Deadline;
import io.clusterresolver.testkit.RecordingHttpServer;
import io.clusterresolver.testkit.SimulatedAzure;
import io.clusterresolver.testkit.SimulatedEc2.RecordedRequest;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The managed identity's token asked of IMDS without azure-identity ({@link ImdsTokens}): the same request and token
 * as azure-identity's own {@link ManagedIdentityCredential} (the oracle) against the same simulated IMDS, kept and
 * renewed, retried as IMDS's guidance says, and the cases that still go to azure-identity's chain.
 */
class ImdsTokensTest {

  private static final BoundedAnswers BOUNDS = BoundedAnswers.of(AnswerLimit.ofBytes(1 << 20), Duration.ofSeconds(10));
  private static final String CHAIN_TOKEN = "token-of-the-chain";
  private static SimulatedAzure azure;

  @BeforeAll
  static void start() {
    azure = AzureTestSupport.start();
  }

  @AfterAll
  static void stop() {
    azure.close();
  }

  @Test
  void asksWhatAzureIdentitysManagedIdentityCredentialAsksAndReadsTheSameToken() throws Exception {
    for (String clientId : new String[] {null, "0b6f7c1e-1d7a-4c8e-9d2a-3f4e5a6b7c8d"}) {
      azure.resetCounts();
      AzureTestSupport.forgetManagedIdentityTokens(); // else another test's token is azure-identity's answer
      ManagedIdentityCredentialBuilder builder = new ManagedIdentityCredentialBuilder()
          .httpClient(towards(azure.imdsEndpoint()));
      if (clientId != null) {
        builder.clientId(clientId);
      }
      AccessToken expected = builder.build()
          .getTokenSync(new TokenRequestContext().addScopes(ArmClients.SCOPE));
      List<RecordedRequest> theirs = tokenRequests();

      azure.resetCounts();
      ImdsTokens tokens = ImdsTokens.of(azure.imdsEndpoint(), clientId, ArmClients.SCOPE, BOUNDS, this::chain);
      assertThat(tokens.token(null)).isEqualTo(expected.getToken()).isEqualTo(SimulatedAzure.ACCESS_TOKEN);
      List<RecordedRequest> ours = tokenRequests();

      assertThat(ours).hasSize(1);
      assertThat(theirs).hasSize(1);
      assertThat(ours.get(0).method()).isEqualTo(theirs.get(0).method());
      assertThat(ours.get(0).path()).isEqualTo(theirs.get(0).path());
      assertThat(ours.get(0).parameters()).isEqualTo(theirs.get(0).parameters())
          .containsEntry("api-version", "2018-02-01").containsEntry("resource", "https://management.azure.com");
      assertThat(ours.get(0).header("metadata")).isEqualTo(theirs.get(0).header("metadata")).isEqualTo("true");
      assertThat(ours.get(0).parameters().get("client_id")).isEqualTo(clientId);
      // The same expiry as msal4j reads from expires_on (the simulation's is a second apart at most).
      byte[] answer = ("{\"access_token\":\"t\",\"expires_on\":\"" + expected.getExpiresAt().toEpochSecond()
          + "\"}").getBytes(StandardCharsets.UTF_8);
      assertThat(ImdsTokens.read(answer)).get().extracting(ImdsTokens.Token::expiresOn)
          .isEqualTo(expected.getExpiresAt().toInstant());
    }
  }

  @Test
  void aTokenIsKeptUntilFiveMinutesBeforeItExpiresAndAskedAgainAfterA401() throws IOException {
    AtomicInteger lifetime = new AtomicInteger(3600);
    try (RecordingHttpServer imds = imds(n -> 200, lifetime)) {
      ImdsTokens tokens = ImdsTokens.of(imds.uri(), null, ArmClients.SCOPE, BOUNDS, this::chain);
      assertThat(tokens.token(null)).isEqualTo("token-1");
      assertThat(tokens.token(null)).isEqualTo("token-1");
      assertThat(imds.requests()).hasSize(1);
      assertThat(tokens.renewable()).isTrue();
      assertThat(tokens.renewed(null)).isEqualTo("token-2");
      lifetime.set(299); // within the margin: asked every time
      assertThat(tokens.token(null)).isEqualTo("token-2");
      assertThat(tokens.renewed(null)).isEqualTo("token-3");
      assertThat(tokens.token(null)).isEqualTo("token-4");
      assertThat(imds.requests()).hasSize(4);
      assertThat(tokens.toString()).doesNotContain("token-");
    }
  }

  @Test
  void retriesWhatImdsSaysToRetryWithinTheDeadline() throws IOException {
    int[] statuses = {410, 429, 503};
    try (RecordingHttpServer imds = imds(n -> n < statuses.length ? statuses[n] : 200, new AtomicInteger(3600))) {
      ImdsTokens tokens = ImdsTokens.of(imds.uri(), null, ArmClients.SCOPE, BOUNDS, this::chain);
      assertThat(tokens.token(Deadline.after(Duration.ofSeconds(10)))).isEqualTo("token-4");
      assertThat(imds.requests()).hasSize(4);
    }
  }

  @Test
  void anotherErrorOrNoAnswerOrNoExpiryIsLeftToTheChainFromThenOn() throws IOException {
    try (RecordingHttpServer imds = imds(n -> 400, new AtomicInteger(3600))) {
      ImdsTokens tokens = ImdsTokens.of(imds.uri(), null, ArmClients.SCOPE, BOUNDS, this::chain);
      assertThat(tokens.token(null)).isEqualTo(CHAIN_TOKEN);
      assertThat(tokens.token(null)).isEqualTo(CHAIN_TOKEN);
      assertThat(imds.requests()).hasSize(1);
    }
    try (RecordingHttpServer imds = imds(n -> 503, new AtomicInteger(3600))) {
      ImdsTokens tokens = ImdsTokens.of(imds.uri(), null, ArmClients.SCOPE, BOUNDS, this::chain);
      assertThat(tokens.token(Deadline.after(Duration.ofSeconds(10)))).isEqualTo(CHAIN_TOKEN);
      assertThat(imds.requests()).hasSize(4); // the first and three retries
    }
    try (RecordingHttpServer imds = RecordingHttpServer.start((request, exchange) -> RecordingHttpServer.send(
        exchange, 200, Map.of("Content-Type", "application/json"),
        "{\"access_token\":\"t\",\"expires_in\":\"3599\"}".getBytes(StandardCharsets.UTF_8)))) {
      assertThat(ImdsTokens.of(imds.uri(), null, ArmClients.SCOPE, BOUNDS, this::chain).token(null))
          .isEqualTo(CHAIN_TOKEN);
    }
    URI nobody;
    try (ServerSocket free = new ServerSocket(0)) {
      nobody = URI.create("http://127.0.0.1:" + free.getLocalPort());
    }
    assertThat(ImdsTokens.of(nobody, null, ArmClients.SCOPE, BOUNDS, this::chain).token(null)).isEqualTo(CHAIN_TOKEN);
  }

  /** The environments where azure-identity 1.19's DefaultAzureCredential reaches IMDS, and those where it does not. */
  @Test
  void imdsIsAskedOnlyWhereTheDefaultChainWouldAskIt() {
    assertThat(reached(Map.of(), null)).isTrue();
    // A user-assigned identity's client id, and variables that alone choose no other source.
    assertThat(reached(Map.of("AZURE_CLIENT_ID", "id"), null)).isTrue();
    assertThat(reached(Map.of("AZURE_CLIENT_ID", "id", "AZURE_TENANT_ID", "t"), null)).isTrue();
    assertThat(reached(Map.of("AZURE_CLIENT_SECRET", "s", "AZURE_TENANT_ID", "t"), null)).isTrue();
    assertThat(reached(Map.of("AZURE_USERNAME", "u", "AZURE_CLIENT_ID", "id", "AZURE_TENANT_ID", "t"), null))
        .isTrue();
    assertThat(reached(Map.of("AZURE_FEDERATED_TOKEN_FILE", "/f", "AZURE_TENANT_ID", "t"), null)).isTrue();
    assertThat(reached(Map.of("IDENTITY_ENDPOINT", "http://e"), null)).isTrue();
    assertThat(reached(Map.of("IDENTITY_ENDPOINT", "http://e", "IDENTITY_HEADER", " "), null)).isTrue();
    assertThat(reached(Map.of("MSI_ENDPOINT", ""), null)).isTrue();
    assertThat(reached(Map.of("AZURE_POD_IDENTITY_AUTHORITY_HOST", "http://127.0.0.1:1"), null)).isTrue();
    // EnvironmentCredential: a client id and tenant with a secret, a certificate, or a user and password.
    assertThat(reached(Map.of("AZURE_CLIENT_ID", "id", "AZURE_TENANT_ID", "t", "AZURE_CLIENT_SECRET", "s"), null))
        .isFalse();
    assertThat(reached(Map.of("AZURE_CLIENT_ID", "id", "AZURE_TENANT_ID", "t", "AZURE_CLIENT_CERTIFICATE_PATH",
        "/c.pem"), null)).isFalse();
    assertThat(reached(Map.of("AZURE_CLIENT_ID", "id", "AZURE_TENANT_ID", "t", "AZURE_USERNAME", "u",
        "AZURE_PASSWORD", "p"), null)).isFalse();
    // Workload identity: the token file, a tenant and a client id (the property's or AZURE_CLIENT_ID).
    assertThat(reached(Map.of("AZURE_FEDERATED_TOKEN_FILE", "/f", "AZURE_TENANT_ID", "t", "AZURE_CLIENT_ID", "id"),
        null)).isFalse();
    assertThat(reached(Map.of("AZURE_FEDERATED_TOKEN_FILE", "/f", "AZURE_TENANT_ID", "t"), "id")).isFalse();
    // msal4j's other managed identity sources: App Service, Service Fabric, Cloud Shell, Azure Arc.
    assertThat(reached(Map.of("IDENTITY_ENDPOINT", "http://e", "IDENTITY_HEADER", "h"), null)).isFalse();
    assertThat(reached(Map.of("IDENTITY_ENDPOINT", "http://e", "IDENTITY_HEADER", "h",
        "IDENTITY_SERVER_THUMBPRINT", "x"), null)).isFalse();
    assertThat(reached(Map.of("MSI_ENDPOINT", "http://e"), null)).isFalse();
    assertThat(reached(Map.of("IDENTITY_ENDPOINT", "http://e", "IMDS_ENDPOINT", "http://i"), null)).isFalse();
    // The chain's sources chosen by name or kind.
    assertThat(reached(Map.of("AZURE_TOKEN_CREDENTIALS", "prod"), null)).isFalse();
    assertThat(reached(Map.of("AZURE_TOKEN_CREDENTIALS", "ManagedIdentityCredential"), null)).isFalse();
  }

  @Test
  void imdsIsAtAzurePodIdentityAuthorityHostAsMsalReadsItElseAtTheConfiguredAddress() {
    URI configured = URI.create("http://127.0.0.1:1");
    assertThat(ImdsTokens.endpoint(Map.<String, String>of()::get, configured)).contains(configured);
    assertThat(ImdsTokens.endpoint(Map.of("AZURE_POD_IDENTITY_AUTHORITY_HOST", " ")::get, configured))
        .contains(configured);
    assertThat(ImdsTokens.endpoint(Map.of("AZURE_POD_IDENTITY_AUTHORITY_HOST", "http://10.0.0.1:2579")::get,
        configured)).contains(URI.create("http://10.0.0.1:2579"));
    assertThat(ImdsTokens.endpoint(Map.of("AZURE_POD_IDENTITY_AUTHORITY_HOST", "not a uri")::get, configured))
        .isEmpty();
  }

  /** azure-core's Configuration, which azure-identity reads them from: a system property first, then the variable. */
  @Test
  void theSettingsAreSystemPropertiesFirstThenEnvironmentVariables() {
    Map<String, String> env = Map.of("AZURE_CLIENT_ID", "from-env", "AZURE_TENANT_ID", "t");
    assertThat(ImdsTokens.reachedBy(ImdsTokens.settings(env::get), null)).isTrue();
    System.setProperty("AZURE_CLIENT_SECRET", "s");
    System.setProperty("AZURE_CLIENT_ID", "from-property");
    try {
      assertThat(ImdsTokens.settings(env::get).apply("AZURE_CLIENT_ID")).isEqualTo("from-property");
      assertThat(ImdsTokens.settings(env::get).apply("AZURE_TENANT_ID")).isEqualTo("t");
      assertThat(ImdsTokens.reachedBy(ImdsTokens.settings(env::get), null)).isFalse();
    } finally {
      System.clearProperty("AZURE_CLIENT_SECRET");
      System.clearProperty("AZURE_CLIENT_ID");
    }
  }

  @Test
  void aResolveWithoutAnAccessTokenSignsInWithTheManagedIdentityFromImds() {
    azure.clear().addTypical(0, 3, b -> b.resourceGroup(AzureTestSupport.RG));
    azure.resetCounts();
    Map<String, String> p = new HashMap<>(AzureTestSupport.properties(azure));
    p.remove("clusterresolver.azure.access-token");
    p.put("clusterresolver.azure.client-id", "0b6f7c1e-1d7a-4c8e-9d2a-3f4e5a6b7c8d");
    ClusterResolver resolver = ClusterResolvers.create("azure", p, Map.of());
    assertThat(resolver.resolve().clusterSpec().numTasks("worker")).isEqualTo(3);
    assertThat(resolver.resolve().clusterSpec().numTasks("worker")).isEqualTo(3);
    assertThat(tokenRequests()).singleElement()
        .satisfies(r -> assertThat(r.parameters()).containsEntry("client_id", "0b6f7c1e-1d7a-4c8e-9d2a-3f4e5a6b7c8d"));
    assertThat(azure.requests()).filteredOn(r -> !r.path().startsWith("/metadata/")).isNotEmpty()
        .allSatisfy(r -> assertThat(r.header("authorization")).isEqualTo("Bearer " + SimulatedAzure.ACCESS_TOKEN));
  }

  private static boolean reached(Map<String, String> env, String clientId) {
    return ImdsTokens.reachedBy(env::get, clientId);
  }

  private BearerTokens chain() {
    return BearerTokens.fixed(CHAIN_TOKEN);
  }

  private static List<RecordedRequest> tokenRequests() {
    return azure.requests().stream().filter(r -> r.path().equals(ImdsTokens.TOKEN_PATH)).toList();
  }

  /**
   * A scripted IMDS: the n-th request (from 0) answered with {@code status.apply(n)}, a 200 with {@code token-<n+1>}
   * expiring {@code lifetime} seconds from now.
   */
  private static RecordingHttpServer imds(java.util.function.IntUnaryOperator status, AtomicInteger lifetime)
      throws IOException {
    AtomicInteger n = new AtomicInteger();
    return RecordingHttpServer.start((request, exchange) -> {
      int i = n.getAndIncrement();
      int answered = status.applyAsInt(i);
      String body = answered != 200 ? "{\"error\":\"e\"}" : "{\"access_token\":\"token-" + (i + 1)
          + "\",\"expires_in\":\"" + lifetime.get() + "\",\"expires_on\":\""
          + (Instant.now().getEpochSecond() + lifetime.get()) + "\",\"token_type\":\"Bearer\"}";
      RecordingHttpServer.send(exchange, answered, Map.of("Content-Type", "application/json"),
          body.getBytes(StandardCharsets.UTF_8));
    });
  }

  /** An HTTP client that sends azure-identity's requests for IMDS's link-local address to {@code imds}. */
  private static HttpClient towards(URI imds) {
    HttpClient jdk = IdentityCredentials.tokenHttp(null, BOUNDS, () -> null);
    return new HttpClient() {
      @Override
      public Mono<HttpResponse> send(HttpRequest request) {
        return send(request, Context.NONE);
      }

      @Override
      public Mono<HttpResponse> send(HttpRequest request, Context context) {
        return jdk.send(redirected(request), context);
      }

      @Override
      public HttpResponse sendSync(HttpRequest request, Context context) {
        return jdk.sendSync(redirected(request), context);
      }

      private HttpRequest redirected(HttpRequest request) {
        URL url = request.getUrl();
        assertThat(url.getHost()).isEqualTo("169.254.169.254");
        return request.copy().setUrl(imds + url.getFile());
      }
    };
  }
}
