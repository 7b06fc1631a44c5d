package io.clusterresolver.kubernetes;

import io.clusterresolver.cloud.Endpoints;
import io.clusterresolver.cloud.RetryPolicy;
import io.clusterresolver.cloud.SmallFile;
import io.clusterresolver.spi.ResolverConfig;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.Utils;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where the API server is and how to authenticate to it, and which namespace to list: in a pod,
 * the service account's files ({@code token}, {@code ca.crt}, {@code namespace}) and
 * {@code KUBERNETES_SERVICE_HOST}/{@code _PORT}; outside, a kubeconfig's current context. Explicit
 * {@code endpoint}, {@code token-file}, {@code ca-file} and {@code namespace} win over both.
 * Immutable; the token file is read again on every request ({@link TokenFile}).
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

  private final Config clientConfig;
  private final String namespace;
  private final TokenFile tokenFile;
  private final String credentials;
  private final String tlsSource;
  private final boolean kubeconfig;
  private final Path caFile;

  private ApiConnection(Config clientConfig, String namespace, TokenFile tokenFile, String credentials,
      String tlsSource, boolean kubeconfig, Path caFile) {
    this.clientConfig = clientConfig;
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
    return kubeconfig;
  }

  /** The bearer token's file ({@code token-file}, the service account's), or {@code null} without a token. */
  TokenFile tokenFile() {
    return tokenFile;
  }

  /** The certificate authority's file ({@code ca-file}, the service account's {@code ca.crt}), or {@code null}. */
  Path caFile() {
    return caFile;
  }

  /** The fabric8 client configuration. */
  Config clientConfig() {
    return clientConfig;
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
  static ApiConnection resolve(ResolverConfig config, Duration timeout, List<String> problems) {
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

    Config client;
    String credentials;
    String contextNamespace = null;
    if (kubeconfig != null) {
      if (!Files.isReadable(kubeconfig)) {
        problems.add(kubeconfigKey + ": cannot read the kubeconfig file " + kubeconfig);
        return null;
      }
      try {
        client = fromKubeconfig(SmallFile.read(kubeconfig, MAX_KUBECONFIG_BYTES), kubeconfig);
      } catch (IOException | RuntimeException e) {
        problems.add(kubeconfigKey + ": " + kubeconfig + " is not a usable kubeconfig ("
            + (e instanceof SmallFile.TooLarge ? e.getMessage() : e.getClass().getSimpleName())
            + "): check its current-context, cluster and user");
        return null;
      }
      contextNamespace = client.getNamespace();
      credentials = "the user of the current context of " + kubeconfig;
    } else {
      client = Config.empty();
      credentials = "the service account token";
      if (endpoint == null) {
        String port = config.getenv("KUBERNETES_SERVICE_PORT");
        endpoint = URI.create("https://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
            + (port == null || port.isBlank() ? "443" : port.trim()));
      }
    }
    if (endpoint != null) {
      client.setMasterUrl(endpoint.toString());
    }

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
      client.setOauthTokenProvider(token);
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
      client.setCaCertFile(ca.toString());
    }

    String namespace = config.get(KubernetesProperties.NAMESPACE);
    if (namespace == null) {
      namespace = namespaceFile(tokenPath != null ? tokenPath.resolveSibling("namespace") : null);
    }
    if (namespace == null && kubeconfig == null) {
      namespace = namespaceFile(serviceAccount.resolve("namespace"));
    }
    if (namespace == null) {
      namespace = contextNamespace != null && !contextNamespace.isBlank() ? contextNamespace : "default";
    }
    if (!NAMESPACE_NAME.matcher(namespace).matches()) {
      problems.add(config.key(KubernetesProperties.NAMESPACE) + ": '" + namespace + "' is not a namespace name "
          + "(lower-case letters, digits and '-', at most 63)");
    }
    int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
    client.setNamespace(namespace);
    client.setRequestTimeout(millis);
    client.setConnectionTimeout(Math.min(millis, 5_000));
    client.setRequestRetryBackoffLimit(0); // one attempt: CloudApi retries (RETRY)
    // HTTP/1.1: a listing is a few requests one after another on one connection, and HTTP/2 (which the JDK client
    // asks an https API server for, and an http one for with an upgrade) would start its whole stack for them.
    client.setHttp2Disable(true);
    return problems.size() > before ? null : new ApiConnection(client, namespace, token, credentials,
        tlsSource != null ? tlsSource : caKey, kubeconfig != null, ca);
  }

  /**
   * The client configuration of a kubeconfig's current context, as fabric8's {@code Config.fromKubeconfig} makes it:
   * the kubeconfig read by fabric8's own serialization (its mapper and YAML reading) into its kubeconfig model, each
   * context, cluster and user tagged with its file (relative certificate and key paths resolve against it), merged by
   * {@code KubeConfigUtils.merge}, then fabric8's system properties and environment variables unless auto
   * configuration is off. What differs: fabric8's shared serialization first searches the class path for every
   * Kubernetes kind (the model classes of ~20 jars, most of a cold kubeconfig read), which a kubeconfig's model never
   * needs; and the contents read are these, bounded, not the file read again.
   */
  static Config fromKubeconfig(String contents, Path path) {
    io.fabric8.kubernetes.api.model.Config kubeconfig =
        KubeconfigReader.SERIALIZATION.unmarshal(contents, io.fabric8.kubernetes.api.model.Config.class);
    File file = path.toFile();
    // The keys fabric8's KubeConfigUtils.parseConfig(File) tags them with, and reads back to resolve relative paths.
    if (kubeconfig.getContexts() != null) {
      kubeconfig.getContexts().forEach(c -> c.getAdditionalProperties().put("KUBERNETES_CONFIG_CONTEXT_FILE_KEY", file));
    }
    if (kubeconfig.getClusters() != null) {
      kubeconfig.getClusters().forEach(c -> c.getAdditionalProperties().put("KUBERNETES_CONFIG_CLUSTER_FILE_KEY", file));
    }
    if (kubeconfig.getUsers() != null) {
      kubeconfig.getUsers().forEach(u -> u.getAdditionalProperties().put("KUBERNETES_CONFIG_AUTH_INFO_FILE_KEY", file));
    }
    Config client = Config.empty();
    KubeConfigUtils.merge(client, null, kubeconfig);
    if (!Utils.getSystemPropertyOrEnvVar(Config.KUBERNETES_DISABLE_AUTO_CONFIG_SYSTEM_PROPERTY, false)) {
      Config.configFromSysPropsOrEnvVars(client);
    }
    return client;
  }

  /** fabric8's default serialization, made on first use, without its search of the class path for kinds. */
  private static final class KubeconfigReader {
    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization(
        JsonMapper.builderWithJackson2Defaults().addModule(new Jackson2JdkTypesModule()).build(), false);
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
    return "ApiConnection{" + clientConfig.getMasterUrl() + ", namespace " + namespace + ", " + credentials + "}";
  }
}
