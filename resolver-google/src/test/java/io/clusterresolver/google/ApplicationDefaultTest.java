package io.clusterresolver.google;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.auth.http.HttpTransportFactory;
import com.google.auth.oauth2.ComputeEngineCredentials;
import com.google.auth.oauth2.GoogleCredentials;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.testkit.GceScenarios;
import io.clusterresolver.testkit.RecordingHttpServer;
import io.clusterresolver.testkit.SimulatedGce;
import io.clusterresolver.testkit.SimulatedGceInstance;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Application Default Credentials on a VM: the metadata server's token asked for as google-auth-library's {@code
 * ComputeEngineCredentials} asks it (the oracle, against the same simulated metadata server), kept and renewed, and
 * used by a call; and every case where the library's ADC would not end at the metadata server left to the library.
 */
class ApplicationDefaultTest {

  private static final List<String> SCOPES = List.of("https://www.googleapis.com/auth/compute.readonly");
  private static final String TOKEN_PATH = "/computeMetadata/v1/" + MetadataServerToken.PATH;

  @TempDir
  Path home;
  private SimulatedGce gce;
  private final Map<String, String> env = new HashMap<>();
  private final Map<String, String> properties = new HashMap<>();
  private Path productName;

  @BeforeEach
  void vm() {
    gce = GceScenarios.largeProject(SimulatedGce.start("adc-project"), 4);
    // A VM with nothing configured: no key file, no gcloud credentials (an empty gcloud directory), Linux.
    env.put("GCE_METADATA_HOST", hostPort(gce.metadataEndpoint()));
    env.put("CLOUDSDK_CONFIG", home.resolve("gcloud").toString());
    properties.put("os.name", "Linux");
    properties.put("user.home", home.toString());
    productName = home.resolve("product_name");
  }

  @AfterEach
  void stop() {
    gce.close();
  }

  private static String hostPort(URI uri) {
    return uri.getHost() + ":" + uri.getPort();
  }

  private ApplicationDefault adc() {
    return new ApplicationDefault("gce", env::get, properties::get, productName, SCOPES);
  }

  private List<SimulatedGce.RecordedRequest> tokenRequests() {
    return gce.requests().stream().filter(r -> r.path().equals(TOKEN_PATH)).toList();
  }

  /** google-http-client's transport, its connections sent to the simulation whatever host the library names. */
  private HttpTransportFactory toSimulation() {
    URI at = gce.metadataEndpoint();
    return () -> new NetHttpTransport.Builder().setConnectionFactory(url -> (HttpURLConnection)
        new URL("http", at.getHost(), at.getPort(), url.getFile()).openConnection()).build();
  }

  @Test
  void theTokenIsAskedForAsTheLibraryAsksItAndExpiresWhenItsDoes() throws IOException {
    // The oracle: the library's credentials as gax's GoogleCredentialsProvider makes them of ADC's result.
    GoogleCredentials library = ComputeEngineCredentials.newBuilder().setHttpTransportFactory(toSimulation()).build();
    if (library.createScopedRequired()) {
      library = library.createScoped(SCOPES);
    }
    Map<String, List<String>> libraryHeaders = library.getRequestMetadata(URI.create("https://compute.googleapis.com/"));
    Instant libraryExpires = library.getAccessToken().getExpirationTime().toInstant();
    SimulatedGce.RecordedRequest asked = tokenRequests().get(0);

    MetadataServerToken ours = new MetadataServerToken("gce", gce.metadataEndpoint(), Clock.systemUTC());
    String token = ours.current();
    assertThat(tokenRequests()).hasSize(2);
    SimulatedGce.RecordedRequest ourAsk = tokenRequests().get(1);

    assertThat(ourAsk.method()).isEqualTo(asked.method()).isEqualTo("GET");
    assertThat(ourAsk.parameters()).isEqualTo(asked.parameters()); // the same scopes asked (gax asks none here)
    assertThat(ourAsk.header("Metadata-Flavor")).isEqualTo(asked.header("Metadata-Flavor")).isEqualTo("Google");
    // Each is a token the metadata server issued, sent as the library sends its own.
    assertThat(gce.issuedTokens()).contains(token);
    assertThat(libraryHeaders.get("Authorization")).singleElement()
        .satisfies(h -> assertThat(h).startsWith("Bearer ").isNotEqualTo("Bearer " + token))
        .satisfies(h -> assertThat(gce.issuedTokens()).contains(h.substring("Bearer ".length())));
    assertThat(Duration.between(libraryExpires, ours.expires()).abs()).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void theTokenIsKeptUntilTheLibrarysRefreshMarginAndRenewedOnDemand() throws IOException {
    MutableClock clock = new MutableClock(Instant.parse("2026-11-27T00:00:00Z"));
    MetadataServerToken token = new MetadataServerToken("gce", gce.metadataEndpoint(), clock);
    String first = token.current();
    // expires_in 3599 s, as the simulation (and the real server) says: kept until 3 min 45 s are left.
    clock.now = clock.now.plusSeconds(3599).minus(MetadataServerToken.REFRESH_MARGIN).minusSeconds(1);
    assertThat(token.current()).isEqualTo(first);
    assertThat(tokenRequests()).hasSize(1);
    clock.now = clock.now.plusSeconds(1);
    String second = token.current();
    assertThat(second).isNotEqualTo(first);
    assertThat(tokenRequests()).hasSize(2);
    assertThat(token.renew()).isTrue();
    assertThat(token.current()).isNotEqualTo(second).isIn(gce.issuedTokens());
    assertThat(tokenRequests()).hasSize(3);
  }

  @Test
  void aCallSendsTheMetadataServersTokenToAnApiThatRequiresOne() throws IOException {
    gce.requireAuthorization(true);
    SimulatedGceInstance instance = gce.instances().get(0);
    GoogleCalls calls = new GoogleCalls(new GoogleRest(gce.endpoint(), adc(), AnswerLimit.ofBytes(1 << 20)),
        "compute.googleapis.com:443");
    GoogleCalls.Method<String> get = GoogleCalls.get("google.cloud.compute.v1.Instances/Get",
        "/compute/v1/projects/{project}/zones/{zone}/instances/{instance}",
        in -> GoogleJson.member(in, "name", GoogleJson::string, ""));
    GoogleCalls.Get request = new GoogleCalls.Get(Map.of("project", "adc-project", "zone", instance.zone(),
        "instance", instance.name()), Map.of(), Map.of());
    assertThat(calls.call(get, request, Duration.ofSeconds(20))).isEqualTo(instance.name());
    assertThat(calls.call(get, request, Duration.ofSeconds(20))).isEqualTo(instance.name());

    // One ping of the server's root and one token, ours: the library's request would say which library asks.
    assertThat(gce.requests().stream().filter(r -> r.path().equals("/")).count()).isEqualTo(1);
    assertThat(tokenRequests()).singleElement()
        .satisfies(r -> assertThat(r.header("x-goog-api-client")).isNull());
    String token = "Bearer " + gce.issuedTokens().iterator().next();
    assertThat(gce.requests().stream().filter(r -> r.path().contains("/instances/")))
        .hasSize(2).allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo(token));
  }

  @Test
  void aVmWithNothingConfiguredEndsAtTheMetadataServerGceMetadataHostNames() {
    assertThat(adc().metadataServer()).contains(URI.create("http://" + hostPort(gce.metadataEndpoint())));
    env.put("GOOGLE_APPLICATION_CREDENTIALS", ""); // empty: not a key file, for the library either
    env.put("GOOGLE_CLOUD_QUOTA_PROJECT", " ");
    env.put("NO_GCE_CHECK", "false");
    assertThat(adc().metadataServer()).isPresent();
  }

  @Test
  void everyCaseBeforeTheMetadataServerIsLeftToTheLibrary() throws IOException {
    assertLeftToTheLibraryWith(() -> env.put("GOOGLE_APPLICATION_CREDENTIALS", "/etc/key.json"));
    assertLeftToTheLibraryWith(() -> env.put("DEVSHELL_CLIENT_PORT", "43117"));
    assertLeftToTheLibraryWith(() -> env.put("GOOGLE_CLOUD_QUOTA_PROJECT", "billing-project"));
    assertLeftToTheLibraryWith(() -> env.put("NO_GCE_CHECK", "true"));
    assertLeftToTheLibraryWith(() -> properties.put("com.google.appengine.runtime.version", "1.9.0"));
    assertLeftToTheLibraryWith(() -> env.put("GCE_METADATA_HOST", "metadata host:80")); // no address: its error
    // gcloud auth application-default login's file, in CLOUDSDK_CONFIG or else under the home directory.
    Path gcloud = Files.createDirectories(home.resolve("gcloud"));
    Path wellKnown = Files.writeString(gcloud.resolve("application_default_credentials.json"), "{}");
    assertThat(adc().metadataServer()).isEmpty();
    Files.delete(wellKnown);
    env.remove("CLOUDSDK_CONFIG");
    assertThat(adc().metadataServer()).isPresent();
    Path underHome = Files.createDirectories(home.resolve(".config").resolve("gcloud"));
    Files.writeString(underHome.resolve("application_default_credentials.json"), "{}");
    assertThat(adc().metadataServer()).isEmpty();
  }

  private void assertLeftToTheLibraryWith(Runnable setting) {
    Map<String, String> env = new HashMap<>(this.env);
    Map<String, String> properties = new HashMap<>(this.properties);
    setting.run();
    assertThat(adc().metadataServer()).isEmpty();
    this.env.clear();
    this.env.putAll(env);
    this.properties.clear();
    this.properties.putAll(properties);
  }

  @Test
  void aServerThatIsNotTheMetadataServerIsNoVmUnlessTheProductNameSaysGoogleOnLinux() throws IOException {
    try (RecordingHttpServer portal = RecordingHttpServer.start((request, exchange) -> {
      exchange.sendResponseHeaders(200, 2);
      exchange.getResponseBody().write("ok".getBytes());
    })) {
      env.put("GCE_METADATA_HOST", hostPort(portal.uri()));
      assertThat(adc().metadataServer()).isEmpty();
      Files.writeString(productName, "Google Compute Engine\n");
      assertThat(adc().metadataServer()).contains(URI.create("http://" + hostPort(portal.uri())));
      properties.put("os.name", "Mac OS X");
      assertThat(adc().metadataServer()).isEmpty();
    }
  }

  /** A clock a test moves. */
  private static final class MutableClock extends Clock {
    Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
