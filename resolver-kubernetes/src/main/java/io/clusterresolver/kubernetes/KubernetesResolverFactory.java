package io.clusterresolver.kubernetes;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.cloud.CloudResolverSetup;
import io.clusterresolver.cloud.ClusterLayout;
import io.clusterresolver.cloud.JobAssignment;
import io.clusterresolver.cloud.MemberClusterResolver;
import io.clusterresolver.cloud.SelfIdentity;
import io.clusterresolver.cloud.internal.ListingSharing;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.TaskProperties;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds the {@code kubernetes} resolver: validation, the connection, the fabric8 client and the
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
    List<String> problems = new ArrayList<>();
    String selector = config.get(KubernetesProperties.SELECTOR);
    if (selector == null || selector.isBlank()) {
      problems.add(config.key(KubernetesProperties.SELECTOR) + " is empty: set a label selector, like app=trainer");
    }
    LabelSelectorSyntax.check(config.key(KubernetesProperties.SELECTOR), selector, problems);
    ClusterLayout.Builder layout = ClusterLayout.builder().jobs(JobAssignment.fixed(ClusterLayout.DEFAULT_JOB))
        .port(config.get(CloudProperties.PORT)).indexByOrdinal();
    if (config.isSet(KubernetesProperties.JOB_LABEL) && config.isSet(CloudProperties.JOBS)) {
      problems.add("Set only one of " + config.key(KubernetesProperties.JOB_LABEL) + " and "
          + config.key(CloudProperties.JOBS));
    } else if (config.isSet(KubernetesProperties.JOB_LABEL)) {
      String label = config.get(KubernetesProperties.JOB_LABEL).trim();
      if (label.isEmpty()) {
        problems.add(config.key(KubernetesProperties.JOB_LABEL) + " is empty: name a label, like role");
      } else {
        layout.jobs(JobAssignment.fromTag(label));
      }
    } else if (config.isSet(CloudProperties.JOBS)) {
      try {
        layout.jobs(JobAssignment.parseCounts(config.get(CloudProperties.JOBS)));
      } catch (IllegalArgumentException e) {
        problems.add(config.key(CloudProperties.JOBS) + ": " + e.getMessage());
      }
    }
    if (config.isSet(KubernetesProperties.PORT_NAME) && config.isSet(CloudProperties.PORT)) {
      problems.add("Set only one of " + config.key(CloudProperties.PORT) + " and "
          + config.key(KubernetesProperties.PORT_NAME));
    }
    Duration timeout = config.get(CloudProperties.TIMEOUT);
    if (timeout.isZero() || timeout.isNegative()) {
      problems.add(config.key(CloudProperties.TIMEOUT) + ": '" + timeout.toMillis() + "ms' must be positive, like 30s");
      timeout = Duration.ofSeconds(30);
    }
    ApiConnection connection = ApiConnection.resolve(config, timeout, problems);
    InetSocketAddress relay = ListingSharing.relayAddress(config, problems);
    if (!problems.isEmpty()) {
      throw ResolverConfig.problems(NAME, problems);
    }

    CloudResolverSetup.keepHeadersOutOfLogs(); // the JDK client logs the bearer token with -Djdk.httpclient.HttpClient.log
    AuditIds auditIds = new AuditIds();
    AnswerBounds bounds = new AnswerBounds(AnswerLimit.of(config), timeout);
    KubernetesClient client = new KubernetesClientBuilder().withConfig(connection.clientConfig())
        .withHttpClientFactory(new AnswerBounds.NoRedirects())
        .withHttpClientBuilderConsumer(http -> http.addOrReplaceInterceptor("cluster-resolver-audit-ids", auditIds)
            .addOrReplaceInterceptor("cluster-resolver-answer-bounds", bounds))
        .build();
    CloudApi api = CloudApi.builder(NAME, KubernetesFailures::read).retryPolicy(ApiConnection.RETRY)
        .apiName("Kubernetes API")
        .permissions("list on pods in namespace " + connection.namespace())
        .build();
    PodSource source = new PodSource(client, auditIds, api, connection, selector.trim(),
        AddressType.parse(config.get(KubernetesProperties.ADDRESS)), config.get(CloudProperties.PORT),
        config.get(KubernetesProperties.PORT_NAME), timeout);
    String query = ListingSharing.query(config, KubernetesProperties.ALL, connection.clientConfig().getMasterUrl(),
        connection.namespace(), connection.credentialsDescription());
    return MemberClusterResolver.builder(NAME, ListingSharing.around(config, source, query, relay))
        .layout(layout.build())
        .taskType(config.get(TaskProperties.TASK_TYPE))
        .taskId(config.get(TaskProperties.TASK_ID))
        .rpcLayer(config.get(TaskProperties.RPC_LAYER))
        .selfIdentity(SelfIdentity.cached(() -> podName(config)))
        .environment(NAME)
        .description(connection + ", selector " + selector)
        .build();
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
