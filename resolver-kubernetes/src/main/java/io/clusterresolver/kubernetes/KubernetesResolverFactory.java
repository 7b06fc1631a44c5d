package io.clusterresolver.kubernetes;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.cloud.CloudResolverSetup;
import io.clusterresolver.cloud.SelfIdentity;
import io.clusterresolver.spi.ResolverConfig;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Builds the {@code kubernetes} resolver: validation, the connection, its calls ({@link ApiCalls}) and the
 * layout. Pods take task indices in order of StatefulSet ordinal or Indexed Job completion index,
 * then creation time, then name; with one job ({@code worker}) the ordinal <em>is</em> the task
 * index, so a missing or unready pod leaves a gap (a sparse job) instead of renumbering every pod
 * after it. This process is the pod named by {@code POD_NAME} (the downward API), else
 * {@code HOSTNAME}, unless {@code task-type}/{@code task-id} say otherwise.
 */
final class KubernetesResolverFactory {

  private static final String NAME = KubernetesClusterResolverProvider.NAME;

  private KubernetesResolverFactory() {}

  static ClusterResolver create(ResolverConfig config) {
    // The JDK client logs the bearer token: start holds it.
    CloudResolverSetup setup = CloudResolverSetup.start(config, KubernetesProperties.DECLARATIONS);
    List<String> problems = setup.problems();
    String selector = config.get(KubernetesProperties.SELECTOR);
    if (selector == null || selector.isBlank()) {
      problems.add(config.key(KubernetesProperties.SELECTOR) + " is empty: set a label selector, like app=trainer");
    }
    LabelSelectorSyntax.check(config.key(KubernetesProperties.SELECTOR), selector, problems);
    if (config.isSet(KubernetesProperties.PORT_NAME) && config.isSet(CloudProperties.PORT)) {
      problems.add("Set only one of " + config.key(CloudProperties.PORT) + " and "
          + config.key(KubernetesProperties.PORT_NAME));
    }
    Duration timeout = setup.timeout();
    ApiConnection connection = ApiConnection.resolve(config, problems);
    setup.requireValid();

    ApiCalls calls;
    try {
      // A kubeconfig's users (exec plugins, OIDC, client certificates, impersonation) and proxies are fabric8's; a
      // token file, a certificate authority and an endpoint are all the JDK's HttpURLConnection needs.
      calls = connection.fromKubeconfig() ? Fabric8Calls.of(connection, AnswerLimit.of(config), timeout)
          : UrlConnectionCalls.of(connection, AnswerLimit.of(config), timeout, PodSource.CALLS);
    } catch (GeneralSecurityException | IOException e) {
      throw connection.tlsUnusable(e, e);
    }
    CloudApi api = CloudApi.builder(NAME, ApiFailure::withoutAnswer).retryPolicy(ApiConnection.RETRY)
        .apiName("Kubernetes API")
        .permissions("list on pods in namespace " + connection.namespace())
        .build();
    PodSource source = new PodSource(calls, api, connection, selector.trim(),
        AddressType.parse(config.get(KubernetesProperties.ADDRESS)), config.get(CloudProperties.PORT),
        config.get(KubernetesProperties.PORT_NAME), timeout);
    return setup.description(connection + ", selector " + selector)
        .resolver(source, SelfIdentity.cached(() -> podName(config)), NAME,
            connection.masterUrl(), connection.namespace(), connection.credentialsDescription());
  }

  /** This pod's name: {@code POD_NAME} (the downward API), else {@code HOSTNAME} (a pod's host name is its name). */
  private static Optional<String> podName(ResolverConfig config) {
    for (String variable : List.of("POD_NAME", "HOSTNAME")) {
      String value = config.getenv(variable);
      if (value != null && !value.isBlank()) {
        return Optional.of(value.trim());
      }
    }
    return Optional.empty();
  }
}
