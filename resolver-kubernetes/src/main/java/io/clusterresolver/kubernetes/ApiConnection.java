package io.clusterresolver.kubernetes;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.cloud.Endpoints;
import io.clusterresolver.cloud.RetryPolicy;
import io.clusterresolver.cloud.SmallFile;
import io.clusterresolver.spi.ResolverConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where the API server is and how to authenticate to it, and which namespace to list: in a pod,
 * the service account's files ({@code token}, {@code ca.crt}, {@code namespace}) and
 * {@code KUBERNETES_SERVICE_HOST}/{@code _PORT}; outside, a kubeconfig's current context. Explicit
 * {@code endpoint}, {@code token-file}, {@code ca-file} and {@code namespace} win over both.
 * Immutable; the token file is read again on every request ({@link TokenFile}).
 *
 * <p>Without a kubeconfig nothing here is fabric8's: the endpoint, the token file, the certificate authority and the
 * namespace are all a call needs ({@link UrlConnectionCalls}), and fabric8's {@code Config} (with its builders and
 * logging, ~35 classes) is not made. A kubeconfig is read by fabric8 ({@link Kubeconfig}), whose client then lists
 * the pods ({@link Fabric8Calls}).
 */
final class ApiConnection {

  /**
   * How the kit's {@code CloudApi} retries a list call (429, 5xx, no response): 4 attempts, backoff from
   * 100 ms doubling, what the fabric8 client did before. The client itself makes one attempt, so nothing
   * retries twice. A {@code Retry-After} the API server sends (API Priority and Fairness does with a 429) is
   * waited for instead of the backoff.
   */
  static final RetryPolicy RETRY = RetryPolicy.builder().maxAttempts(4).baseBackoff(Duration.ofMillis(100))
      .maxBackoff(Duration.ofSeconds(2)).build();

  /** Larger than any kubeconfig of a few clusters with their certificates inline. */
  private static final int MAX_KUBECONFIG_BYTES = 1024 * 1024;
  private static final Pattern NAMESPACE_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  private final String masterUrl;
  private final String namespace;
  private final TokenFile tokenFile;
  private final String credentials;
  private final String tlsSource;
  private final Kubeconfig kubeconfig;
  private final Path caFile;

  private ApiConnection(String masterUrl, String namespace, TokenFile tokenFile, String credentials,
      String tlsSource, Kubeconfig kubeconfig, Path caFile) {
    this.masterUrl = masterUrl;
    this.namespace = namespace;
    this.tokenFile = tokenFile;
    this.credentials = credentials;
    this.tlsSource = tlsSource;
    this.kubeconfig = kubeconfig;
    this.caFile = caFile;
  }

  /**
   * Whether the connection comes from a kubeconfig (its user may be an exec plugin, OIDC, a client certificate,
   * impersonation; its settings may name a proxy), which only fabric8's client speaks; otherwise it is the endpoint,
   * the token file and the certificate authority alone.
   */
  boolean fromKubeconfig() {
    return kubeconfig != null;
  }

  /** The kubeconfig's current context, or {@code null} without a kubeconfig. */
  Kubeconfig kubeconfig() {
    return kubeconfig;
  }

  /**
   * The API server's URL, ending with {@code /}: {@code endpoint}, else in a pod
   * {@code https://KUBERNETES_SERVICE_HOST:KUBERNETES_SERVICE_PORT/}, else the kubeconfig's server (as fabric8's
   * {@code Config.setMasterUrl} writes it).
   */
  String masterUrl() {
    return masterUrl;
  }

  /** The bearer token's file ({@code token-file}, the service account's), or {@code null} without a token. */
  TokenFile tokenFile() {
    return tokenFile;
  }

  /** The certificate authority's file ({@code ca-file}, the service account's {@code ca.crt}), or {@code null}. */
  Path caFile() {
    return caFile;
  }

  /** The namespace whose pods are listed. */
  String namespace() {
    return namespace;
  }

  /** Where the credentials come from, for messages (never the credentials). */
  String credentialsDescription() {
    return credentials;
  }

  /**
   * Where the TLS settings come from (the certificate authority, a kubeconfig's client certificate), for the
   * message when they cannot be used: the property and the file.
   */
  String tlsSource() {
    return tlsSource;
  }

  /** A certificate or key that cannot be read ({@code cause}, of {@code e}): what to change, and where. */
  ConfigurationException tlsUnusable(Throwable cause, Exception e) {
    return new ConfigurationException(tlsSource + ": the TLS settings cannot be used ("
        + cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage())
        + "): check that the certificate authority (and a client certificate and key) are PEM", e);
  }

  /** Checks, before a listing, that the token file (if any) can be read; a {@code ConfigurationException} if not. */
  void checkCredentials() {
    if (tokenFile != null) {
      tokenFile.check();
    }
  }

  /**
   * The connection a configuration asks for; each problem is added to {@code problems} naming its
   * key, and then {@code null} is returned.
   */
  static ApiConnection resolve(ResolverConfig config, List<String> problems) {
    int before = problems.size();
    URI endpoint = Endpoints.httpUrl(config, KubernetesProperties.ENDPOINT, problems);
    Path serviceAccount = Path.of(KubernetesProperties.SERVICE_ACCOUNT_DIR);
    String host = config.getenv("KUBERNETES_SERVICE_HOST");
    boolean inPod = host != null && !host.isBlank();
    String kubeconfigKey = config.key(KubernetesProperties.KUBECONFIG);
    Path kubeconfig = config.find(KubernetesProperties.KUBECONFIG).map(Path::of).orElse(null);
    if (kubeconfig == null && endpoint == null && !inPod) {
      kubeconfig = defaultKubeconfig(config);
      if (kubeconfig == null) {
        problems.add("Not in a pod (KUBERNETES_SERVICE_HOST is not set) and no kubeconfig was found (KUBECONFIG, "
            + "~/.kube/config): set " + kubeconfigKey + " or " + config.key(KubernetesProperties.ENDPOINT));
        return null;
      }
    }

    Kubeconfig context = null;
    String credentials;
    if (kubeconfig != null) {
      if (!Files.isReadable(kubeconfig)) {
        problems.add(kubeconfigKey + ": cannot read the kubeconfig file " + kubeconfig);
        return null;
      }
      try {
        context = Kubeconfig.read(SmallFile.read(kubeconfig, MAX_KUBECONFIG_BYTES), kubeconfig);
      } catch (IOException | RuntimeException e) {
        problems.add(kubeconfigKey + ": " + kubeconfig + " is not a usable kubeconfig ("
            + (e instanceof SmallFile.TooLarge ? e.getMessage() : e.getClass().getSimpleName())
            + "): check its current-context, cluster and user");
        return null;
      }
      credentials = "the user of the current context of " + kubeconfig;
    } else {
      credentials = "the service account token";
      if (endpoint == null) {
        String port = config.getenv("KUBERNETES_SERVICE_PORT");
        endpoint = URI.create("https://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
            + (port == null || port.isBlank() ? "443" : port.trim()));
      }
    }
    // As fabric8's Config.setMasterUrl writes a URL (the scheme is always there: Endpoints.httpUrl asks for it).
    String masterUrl = endpoint == null ? context.masterUrl()
        : endpoint.toString().endsWith("/") ? endpoint.toString() : endpoint + "/";

    TokenFile token = null;
    String tokenKey = config.key(KubernetesProperties.TOKEN_FILE);
    Path tokenPath = config.find(KubernetesProperties.TOKEN_FILE).map(Path::of).orElse(null);
    if (tokenPath == null && kubeconfig == null && Files.exists(serviceAccount.resolve("token"))) {
      tokenPath = serviceAccount.resolve("token");
    }
    if (tokenPath != null) {
      token = new TokenFile(tokenPath, tokenKey);
      try {
        token.check();
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
      }
      credentials = "the token in " + tokenPath + " (" + tokenKey + ")";
    } else if (kubeconfig == null && inPod) {
      problems.add(tokenKey + ": no service account token at " + serviceAccount.resolve("token")
          + ": mount it (automountServiceAccountToken: true) or set " + tokenKey);
    }

    String caKey = config.key(KubernetesProperties.CA_FILE);
    Path ca = config.find(KubernetesProperties.CA_FILE).map(Path::of).orElse(null);
    if (ca == null && kubeconfig == null && Files.exists(serviceAccount.resolve("ca.crt"))) {
      ca = serviceAccount.resolve("ca.crt");
    }
    String tlsSource = kubeconfig != null ? kubeconfigKey + " (" + kubeconfig + ")" : null;
    if (ca != null) {
      tlsSource = caKey + " (" + ca + ")";
      if (!Files.isReadable(ca)) {
        problems.add(caKey + ": cannot read the certificate authority file " + ca);
      }
    }

    String namespace = config.get(KubernetesProperties.NAMESPACE);
    if (namespace == null) {
      namespace = namespaceFile(tokenPath != null ? tokenPath.resolveSibling("namespace") : null);
    }
    if (namespace == null && kubeconfig == null) {
      namespace = namespaceFile(serviceAccount.resolve("namespace"));
    }
    if (namespace == null) {
      String contextNamespace = context == null ? null : context.namespace();
      namespace = contextNamespace != null && !contextNamespace.isBlank() ? contextNamespace : "default";
    }
    if (!NAMESPACE_NAME.matcher(namespace).matches()) {
      problems.add(config.key(KubernetesProperties.NAMESPACE) + ": '" + namespace + "' is not a namespace name "
          + "(lower-case letters, digits and '-', at most 63)");
    }
    return problems.size() > before ? null : new ApiConnection(masterUrl, namespace, token, credentials,
        tlsSource != null ? tlsSource : caKey, context, ca);
  }

  private static Path defaultKubeconfig(ResolverConfig config) {
    String env = config.getenv("KUBECONFIG");
    if (env != null && !env.isBlank()) {
      for (String entry : env.split(java.io.File.pathSeparator)) {
        if (!entry.isBlank() && Files.isReadable(Path.of(entry))) {
          return Path.of(entry);
        }
      }
    }
    String home = config.getenv("HOME");
    Path file = Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"), ".kube", "config");
    return Files.isReadable(file) ? file : null;
  }

  private static String namespaceFile(Path file) {
    try {
      if (file != null && Files.isReadable(file)) {
        String ns = SmallFile.read(file, 1024).trim(); // a namespace name is at most 63 characters
        return ns.isEmpty() ? null : ns;
      }
    } catch (IOException e) {
      // not readable: the next default applies
    }
    return null;
  }

  @Override
  public String toString() {
    return "ApiConnection{" + masterUrl + ", namespace " + namespace + ", " + credentials + "}";
  }
}
