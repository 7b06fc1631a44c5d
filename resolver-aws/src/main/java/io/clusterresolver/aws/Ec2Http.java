package io.clusterresolver.aws;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.awscore.endpoint.DualstackEnabledProvider;
import software.amazon.awssdk.awscore.endpoint.FipsEnabledProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.ProxyConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.utils.Lazy;

/**
 * The HTTP client of the EC2 calls: the SDK's JDK-based url-connection client.
 *
 * <p>Built with its builder, that client makes a TLS context of its own up front (the JDK's security
 * providers and the whole trust store read: about a tenth of a second of a cold start), even for an
 * {@code http} endpoint. Without a proxy it is given the JDK's own connections instead: an {@code https}
 * connection then uses the JDK's default TLS context, which is the same thing (the default trust store,
 * the {@code javax.net.ssl.keyStore*} key managers, host name verification), made once per process —
 * in the background while the SDK client is built — and never for a plain {@code http} endpoint; those
 * connections follow the JDK's proxy selector ({@code https.proxyHost}). With a proxy in the SDK's own
 * settings (by default {@code http.proxyHost} or {@code HTTP_PROXY}) the builder's client, which does the
 * proxying and its authorization, is used as before.
 */
final class Ec2Http {

  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

  private Ec2Http() {}

  /** A client for {@code endpoint} ({@code null}: the region's public endpoint, which is {@code https}). */
  static SdkHttpClient client(URI endpoint) {
    if (ProxyConfiguration.builder().build().host() != null) {
      Ec2Warmup.start(true, false);
      return UrlConnectionHttpClient.builder()
          .connectionTimeout(CONNECT_TIMEOUT)
          .socketTimeout(READ_TIMEOUT)
          .build();
    }
    Ec2Warmup.start(true, endpoint == null || "https".equalsIgnoreCase(endpoint.getScheme()));
    return UrlConnectionHttpClient.create(Ec2Http::connection);
  }

  /**
   * Whether the SDK's url-connection client would go through a proxy: its own proxy settings (with their defaults,
   * the {@code http.proxyHost} system properties or the {@code HTTP_PROXY} variable), or else the JDK's proxy selector,
   * which its connections follow ({@code https.proxyHost} for an {@code https} endpoint, {@code http.proxyHost} for an
   * {@code http} one, {@code java.net.useSystemProxies}). The kit's connections never use a proxy.
   */
  static boolean proxied(URI endpoint) {
    if (ProxyConfiguration.builder().build().host() != null) {
      return true;
    }
    ProxySelector selector = ProxySelector.getDefault();
    return selector != null && selector.select(endpoint).stream().anyMatch(proxy -> proxy.type() != Proxy.Type.DIRECT);
  }

  /** Whether the SDK's own settings ask for a FIPS or a dual-stack endpoint (variables, system properties, profile). */
  static boolean fipsOrDualstackAsked() {
    Lazy<ProfileFile> profiles = new Lazy<>(ProfileFile::defaultProfileFile); // read at most once, if at all
    return FipsEnabledProvider.builder().profileFile(profiles::getValue).build().isFipsEnabled().orElse(false)
        || DualstackEnabledProvider.builder().profileFile(profiles::getValue).build().isDualstackEnabled()
            .orElse(false);
  }

  /** What the SDK's own connection factory does when there is no proxy. */
  private static HttpURLConnection connection(URI uri) {
    try {
      HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
      connection.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
      connection.setReadTimeout((int) READ_TIMEOUT.toMillis());
      return connection;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open a connection to " + uri + ": " + e.getMessage(), e);
    }
  }
}
