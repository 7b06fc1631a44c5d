package io.clusterresolver.aws;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import software.amazon.awssdk.utils.ProxyConfigProvider;

/**
 * The proxy of the EC2 calls, chosen as the SDK's url-connection client chose it, so that a proxy set up for the SDK
 * still carries them: the SDK's own proxy settings first, read by the SDK ({@link ProxyConfigProvider}: the
 * {@code http.proxyHost}, {@code http.proxyPort}, {@code http.proxyUser}, {@code http.proxyPassword} and
 * {@code http.nonProxyHosts} system properties, else the {@code HTTP_PROXY} and {@code NO_PROXY} variables), an HTTP
 * proxy for {@code http} and {@code https} endpoints alike; for a host those settings leave out, or without them, the
 * JDK's proxy selector, which that client's connections followed ({@code https.proxyHost} for an {@code https}
 * endpoint, {@code http.nonProxyHosts}, {@code java.net.useSystemProxies}). The SDK's settings are read once, when the
 * resolver is made, as the SDK's client read them when it was built. Immutable.
 */
final class Ec2Proxies extends ProxySelector {

  /** The SDK's proxy, or {@code null} when its settings name none. */
  private final Proxy sdkProxy;
  /** The SDK's {@code nonProxyHosts}: regular expressions of host names, in lower case. */
  private final Set<String> nonProxyHosts;
  /** {@code Basic} credentials of the SDK's proxy, or {@code null}. */
  private final String authorization;

  private Ec2Proxies(Proxy sdkProxy, Set<String> nonProxyHosts, String authorization) {
    this.sdkProxy = sdkProxy;
    this.nonProxyHosts = nonProxyHosts;
    this.authorization = authorization;
  }

  /** What the SDK's settings and the JDK's say now. */
  static Ec2Proxies fromSettings() {
    if (System.getProperty("http.proxyHost") == null && System.getenv("HTTP_PROXY") == null
        && System.getenv("http_proxy") == null) {
      // Where the SDK finds its proxy's host: with none of them set it finds none (and the SDK's reading of its
      // settings, some 40 classes, is not loaded on every cold start).
      return new Ec2Proxies(null, Set.of(), null);
    }
    // The url-connection client's ProxyConfiguration default: system properties, then environment, scheme "http".
    ProxyConfigProvider sdk = ProxyConfigProvider.fromSystemEnvironmentSettings(true, true, "http");
    if (sdk == null || sdk.host() == null) {
      return new Ec2Proxies(null, Set.of(), null);
    }
    String user = sdk.userName().orElse(null);
    String password = sdk.password().orElse(null);
    String basic = user == null || user.isEmpty() || password == null || password.isEmpty() ? null
        : "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return new Ec2Proxies(new Proxy(Proxy.Type.HTTP, InetSocketAddress.createUnresolved(sdk.host(), sdk.port())),
        Set.copyOf(sdk.nonProxyHosts()), basic);
  }

  @Override
  public List<Proxy> select(URI uri) {
    if (viaSdkProxy(uri)) {
      return List.of(sdkProxy);
    }
    ProxySelector jdk = ProxySelector.getDefault();
    return jdk == null ? List.of(Proxy.NO_PROXY) : jdk.select(uri);
  }

  @Override
  public void connectFailed(URI uri, SocketAddress address, IOException e) {
    // Nothing to learn: the call fails and the session retries it, through the same proxy.
  }

  /**
   * The {@code Proxy-Authorization} the SDK's client sent with a request for {@code uri} (its proxy's {@code Basic}
   * credentials), or {@code null}: only for an {@code http} endpoint, which the proxy reads in the clear. Inside an
   * {@code https} tunnel it would go to EC2 instead, and the proxy never sees it.
   */
  String authorization(URI uri) {
    return authorization != null && "http".equalsIgnoreCase(uri.getScheme()) && viaSdkProxy(uri) ? authorization
        : null;
  }

  private boolean viaSdkProxy(URI uri) {
    if (sdkProxy == null) {
      return false;
    }
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.getDefault());
    return nonProxyHosts.stream().noneMatch(host::matches); // as the SDK's client matches them
  }

  @Override
  public String toString() {
    return "Ec2Proxies{" + (sdkProxy == null ? "the JDK's selector" : sdkProxy + ", then the JDK's selector") + "}";
  }
}
