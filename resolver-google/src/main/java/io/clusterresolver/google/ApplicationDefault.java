package io.clusterresolver.google;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.GoogleCredentialsProvider;
import com.google.auth.Credentials;
import io.clusterresolver.cloud.CloudHttp;
import io.clusterresolver.cloud.MetadataClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Application Default Credentials (a Google provider's {@code credentials} unset): google-auth-library's, found
 * through gax's {@link GoogleCredentialsProvider} as before, except where they would end at the metadata server (a
 * Compute Engine VM or TPU VM, nothing else configured). There the token is asked of the metadata server on the JDK's
 * {@code HttpURLConnection} ({@link MetadataServerToken}): the library's way costs a cold resolve some 350 classes
 * (google-http-client's request with its reflective headers and OpenCensus tracing, the library's refresh futures) for
 * one {@code GET}. Whether they end there is decided by the library's own checks, in its order ({@code
 * DefaultCredentialsProvider}); any other case is left to the library, whatever it would do (a key file, gcloud's
 * credentials, App Engine, Cloud Shell, a quota project, or no credentials and its error).
 */
final class ApplicationDefault implements CredentialsProvider {

  /** The metadata server's address when {@code GCE_METADATA_HOST} names none (the library's). */
  static final String DEFAULT_HOST = "metadata.google.internal";
  /** The library's ping: each try waits this long to connect, three tries (its workaround for slow DNS off GCE). */
  private static final Duration PING_CONNECT = Duration.ofMillis(500);
  private static final int PING_TRIES = 3;
  private static final Duration PING_READ = Duration.ofSeconds(20);

  private final String provider;
  private final UnaryOperator<String> env;
  private final UnaryOperator<String> systemProperties;
  private final Path productName;
  private final List<String> scopes;

  /**
   * @param provider the provider's name (in the metadata client's messages)
   * @param env the environment the library reads: the process's own ({@link System#getenv}, not the resolver's
   *     configured one, which the library never sees), another in tests
   * @param systemProperties the system properties it reads
   * @param productName the DMI product name file it reads when the metadata server does not answer
   * @param scopes the scopes gax asks for (of credentials that take scopes: never the metadata server's)
   */
  ApplicationDefault(String provider, UnaryOperator<String> env, UnaryOperator<String> systemProperties,
      Path productName, List<String> scopes) {
    this.provider = provider;
    this.env = env;
    this.systemProperties = systemProperties;
    this.productName = productName;
    this.scopes = List.copyOf(scopes);
  }

  /** The scopes gax asks for. */
  List<String> scopes() {
    return scopes;
  }

  /**
   * The library's credentials, as gax finds them (for a gax client, and for {@link GoogleCalls} where the library's
   * ADC do not end at the metadata server); gax's provider is built only then, not on a VM.
   */
  @Override
  public Credentials getCredentials() throws IOException {
    return GoogleCredentialsProvider.newBuilder().setScopesToApply(scopes).setUseJwtAccessWithScope(true).build()
        .getCredentials();
  }

  /**
   * The credentials of {@link GoogleCalls}: the metadata server's token when the library would end there, else the
   * library's credentials.
   *
   * @throws IOException when the library finds none
   */
  CloudHttp.Authorization authorization() throws IOException {
    Optional<URI> server = metadataServer();
    if (server.isEmpty()) {
      return CredentialsHeaders.of(getCredentials());
    }
    MetadataServerToken token = new MetadataServerToken(provider, server.get(), Clock.systemUTC());
    return CloudHttp.Authorization.bearer(token::current, token::renew);
  }

  /**
   * The metadata server the library's Application Default Credentials would end at, checked as its {@code
   * DefaultCredentialsProvider} checks, in its order; empty when they would end elsewhere or nowhere.
   */
  Optional<URI> metadataServer() {
    String keyFile = env.apply("GOOGLE_APPLICATION_CREDENTIALS");
    if (keyFile != null && !keyFile.isEmpty()) {
      return Optional.empty();
    }
    if (Files.isRegularFile(wellKnownFile())) {
      return Optional.empty(); // gcloud auth application-default login
    }
    if (systemProperties.apply("com.google.appengine.runtime.version") != null) {
      return Optional.empty(); // App Engine standard: the library decides
    }
    if (env.apply("DEVSHELL_CLIENT_PORT") != null) {
      return Optional.empty(); // Cloud Shell, which runs on a VM: before the metadata server, as in the library
    }
    String quotaProject = env.apply("GOOGLE_CLOUD_QUOTA_PROJECT");
    if (quotaProject != null && !quotaProject.isBlank()) {
      return Optional.empty(); // the library's credentials then also send x-goog-user-project
    }
    if (Boolean.parseBoolean(env.apply("NO_GCE_CHECK"))) {
      return Optional.empty();
    }
    String host = env.apply(GoogleMetadata.GCE_METADATA_HOST);
    URI base;
    try {
      base = new URI("http://" + (host != null ? host : DEFAULT_HOST));
    } catch (URISyntaxException e) {
      return Optional.empty(); // no address a request can go to: the library's to report
    }
    return pinged(base) || productNameSaysGoogle() ? Optional.of(base) : Optional.empty();
  }

  /** gcloud's {@code application_default_credentials.json}, where the library looks for it. */
  private Path wellKnownFile() {
    String config = env.apply("CLOUDSDK_CONFIG");
    Path dir;
    if (config != null) {
      dir = Path.of(config);
    } else if (osName().contains("windows")) {
      dir = Path.of(String.valueOf(env.apply("APPDATA")), "gcloud");
    } else {
      dir = Path.of(Optional.ofNullable(systemProperties.apply("user.home")).orElse(""), ".config", "gcloud");
    }
    return dir.resolve("application_default_credentials.json");
  }

  /**
   * The library's ping: {@code GET /} with {@code Metadata-Flavor: Google}, answered with that header (a network that
   * answers every request is not the metadata server); three tries of a 500 ms connection.
   */
  private boolean pinged(URI base) {
    return MetadataClient.builder(provider, base).header("Metadata-Flavor", "Google")
        .answersWith("Metadata-Flavor", "Google").timeouts(PING_CONNECT, PING_READ).retries(PING_TRIES - 1).build()
        .answers("");
  }

  /** The library's check when the ping fails, on Linux only: the DMI product name's first line starts with Google. */
  private boolean productNameSaysGoogle() {
    if (!osName().startsWith("linux")) {
      return false;
    }
    try (BufferedReader in = Files.newBufferedReader(productName, StandardCharsets.UTF_8)) {
      String name = in.readLine();
      return name != null && name.trim().startsWith("Google");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private String osName() {
    return Optional.ofNullable(systemProperties.apply("os.name")).orElse("").toLowerCase(Locale.US);
  }
}
