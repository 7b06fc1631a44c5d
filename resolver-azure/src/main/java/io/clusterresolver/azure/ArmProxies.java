package io.clusterresolver.azure;

import com.azure.core.http.ProxyOptions;
import com.azure.core.util.Configuration;
import com.azure.core.util.ConfigurationBuilder;
import java.io.IOException;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The proxy of the Resource Manager calls, chosen as azure-core's JDK {@code HttpClient} (which sent them until the
 * eighth round) chose it, so that a proxy set up for the SDK still carries them: the proxy azure-core's own {@link
 * ProxyOptions#fromConfiguration} finds ({@code java.net.useSystemProxies=true} with {@code HTTPS_PROXY}, then
 * {@code HTTP_PROXY}, and {@code NO_PROXY}; else {@code https.proxyHost}, then {@code http.proxyHost}, with their
 * ports and {@code http.nonProxyHosts}), bypassed for a host its non-proxy pattern matches (ignoring case, as that
 * client's selector did); with none found, the JDK's default selector, which that client used then. As the {@code
 * java.net.http} client, only an HTTP proxy is taken (it ignored a SOCKS one), an {@code https} call is tunnelled
 * with {@code CONNECT}, and no proxy credentials are sent (that client gave them only to a {@code 407} challenge,
 * and the JDK refuses {@code Basic} for tunnels by default). The settings are read once, when the resolver is made,
 * as that client read them when it was built; environment variables are the resolver context's. IMDS is not asked
 * through here ({@link Imds}: link-local, never proxied). Immutable.
 */
final class ArmProxies extends ProxySelector {

  /**
   * What azure-core's {@code ProxyOptions} may read ({@link Configuration#get(String)}: a system property, else an
   * environment variable of that name).
   */
  private static final List<String> SETTINGS = List.of("java.net.useSystemProxies", "HTTPS_PROXY", "HTTP_PROXY",
      "NO_PROXY", "https.proxyHost", "https.proxyPort", "https.proxyUser", "https.proxyPassword", "http.proxyHost",
      "http.proxyPort", "http.proxyUser", "http.proxyPassword", "http.nonProxyHosts");

  /** azure-core's proxy, or {@code null}: the JDK's default selector. */
  private final Proxy proxy;
  /** The hosts {@link #proxy} is bypassed for, or {@code null} for none. */
  private final Pattern nonProxyHosts;

  private ArmProxies(Proxy proxy, Pattern nonProxyHosts) {
    this.proxy = proxy;
    this.nonProxyHosts = nonProxyHosts;
  }

  /**
   * The selector the settings make, or {@code null} when none of them can name a proxy (then azure-core found none
   * and the JDK's default selector answered {@code DIRECT}; nothing of azure-core's is loaded for it).
   *
   * @param environment the environment variables to read instead of the process's
   */
  static ArmProxies fromSettings(Map<String, String> environment) {
    if (!"true".equalsIgnoreCase(System.getProperty("java.net.useSystemProxies"))
        && empty("java.net.useSystemProxies", environment) && empty("https.proxyHost", environment)
        && empty("http.proxyHost", environment)) {
      return null; // what azure-core and the JDK's selector each need before they name a proxy
    }
    ProxyOptions options = ProxyOptions.fromConfiguration(configuration(environment), true);
    if (options == null) {
      return new ArmProxies(null, null);
    }
    String hosts = options.getNonProxyHosts();
    return new ArmProxies(new Proxy(options.getType().toProxyType(), options.getAddress()),
        hosts == null ? null : Pattern.compile(hosts, Pattern.CASE_INSENSITIVE));
  }

  /**
   * azure-core's global configuration, but with {@code environment}'s variables: each setting is given (unset ones
   * as {@code null}), since azure-core reads the process's for a name its source leaves out.
   */
  private static Configuration configuration(Map<String, String> environment) {
    Map<String, String> variables = new HashMap<>();
    SETTINGS.forEach(name -> variables.put(name, environment.get(name)));
    return new ConfigurationBuilder(path -> Map.of(), path -> Map.of(), path -> variables).build();
  }

  private static boolean empty(String name, Map<String, String> environment) {
    String property = System.getProperty(name);
    String variable = environment.get(name);
    return (property == null || property.isEmpty()) && (variable == null || variable.isEmpty());
  }

  @Override
  public List<Proxy> select(URI uri) {
    List<Proxy> chosen;
    if (proxy == null) {
      ProxySelector jdk = ProxySelector.getDefault();
      chosen = jdk == null ? List.of() : jdk.select(uri);
    } else {
      String host = uri.getHost() == null ? "" : uri.getHost();
      chosen = nonProxyHosts != null && nonProxyHosts.matcher(host).matches() ? List.of() : List.of(proxy);
    }
    // The java.net.http client takes the first proxy only if it is an HTTP one.
    return chosen.isEmpty() || chosen.get(0).type() != Proxy.Type.HTTP ? List.of(Proxy.NO_PROXY)
        : List.of(chosen.get(0));
  }

  @Override
  public void connectFailed(URI uri, SocketAddress address, IOException e) {
    // Nothing to learn: the call fails and the kit's CloudApi retries it, through the same proxy.
  }

  @Override
  public String toString() {
    return "ArmProxies{" + (proxy == null ? "the JDK's selector" : proxy.address()
        + (nonProxyHosts == null ? "" : ", not for " + nonProxyHosts)) + "}";
  }
}
