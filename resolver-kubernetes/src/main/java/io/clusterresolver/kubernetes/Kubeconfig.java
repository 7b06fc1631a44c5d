package io.clusterresolver.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.client.utils.Utils;
import io.fabric8.kubernetes.model.jackson.Jackson2JdkTypesModule;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import tools.jackson.databind.json.JsonMapper;

/**
 * A kubeconfig's current context as fabric8 reads it (its users: exec plugins, OIDC, client certificates,
 * impersonation; its proxies), and the fabric8 client configuration a connection through it is made from. Only a
 * resolve with a kubeconfig loads this class, and with it fabric8's {@code Config}.
 */
final class Kubeconfig {

  private final Config config;

  private Kubeconfig(Config config) {
    this.config = config;
  }

  /**
   * Reads a kubeconfig.
   *
   * @param contents the file's contents
   * @param path the file: relative certificate and key paths resolve against it
   * @throws RuntimeException when fabric8 cannot read it
   */
  static Kubeconfig read(String contents, Path path) {
    return new Kubeconfig(fromKubeconfig(contents, path));
  }

  /** The current context's server, as fabric8 writes it (ending with {@code /}); {@code null} without one. */
  String masterUrl() {
    return config.getMasterUrl();
  }

  /** The current context's namespace, or {@code null}. */
  String namespace() {
    return config.getNamespace();
  }

  /**
   * The configuration of fabric8's client for {@code connection}: the kubeconfig's, with the connection's
   * {@code endpoint}, token file, certificate authority and namespace over it, {@code timeout}, one attempt per call
   * ({@code CloudApi} retries: {@link ApiConnection#RETRY}) and HTTP/1.1. The same settings every time it is asked.
   */
  Config clientConfig(ApiConnection connection, Duration timeout) {
    if (connection.masterUrl() != null && !connection.masterUrl().equals(config.getMasterUrl())) {
      config.setMasterUrl(connection.masterUrl()); // endpoint
    }
    TokenFile token = connection.tokenFile();
    if (token != null) {
      config.setOauthTokenProvider(token::getToken);
    }
    if (connection.caFile() != null) {
      config.setCaCertFile(connection.caFile().toString());
    }
    int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
    config.setNamespace(connection.namespace());
    config.setRequestTimeout(millis);
    config.setConnectionTimeout(Math.min(millis, 5_000));
    config.setRequestRetryBackoffLimit(0); // one attempt: CloudApi retries (RETRY)
    // HTTP/1.1: a listing is a few requests one after another on one connection, and HTTP/2 (which the JDK client
    // asks an https API server for, and an http one for with an upgrade) would start its whole stack for them.
    config.setHttp2Disable(true);
    return config;
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
        Reader.SERIALIZATION.unmarshal(contents, io.fabric8.kubernetes.api.model.Config.class);
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
  private static final class Reader {
    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization(
        JsonMapper.builderWithJackson2Defaults().addModule(new Jackson2JdkTypesModule()).build(), false);
  }
}
