package io.clusterresolver.kubernetes;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.cloud.internal.HeaderLogGuard;
import io.clusterresolver.cloud.JobAssignment;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.TaskProperties;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Builds the {@code kubernetes} resolver: validation, the connection, the fabric8 client and the layout. */
final class KubernetesResolverFactory {

  /** Retries of a failed request (5xx, no response) by the fabric8 client, with exponential backoff from 100 ms. */
  static final int RETRIES = 3;

  private static final String NAME = KubernetesClusterResolverProvider.NAME;

  private KubernetesResolverFactory() {}

  static ClusterResolver create(ResolverConfig config) {
    List<String> problems = new ArrayList<>();
    String selector = config.get(KubernetesProperties.SELECTOR);
    if (selector == null || selector.isBlank()) {
      problems.add(config.key(KubernetesProperties.SELECTOR) + " is empty: set a label selector, like app=trainer");
    }
    LabelSelectorSyntax.check(config.key(KubernetesProperties.SELECTOR), selector, problems);
    PodLayout layout = PodLayout.oneJob();
    if (config.isSet(KubernetesProperties.JOB_LABEL) && config.isSet(CloudProperties.JOBS)) {
      problems.add("Set only one of " + config.key(KubernetesProperties.JOB_LABEL) + " and "
          + config.key(CloudProperties.JOBS));
    } else if (config.isSet(KubernetesProperties.JOB_LABEL)) {
      String label = config.get(KubernetesProperties.JOB_LABEL).trim();
      if (label.isEmpty()) {
        problems.add(config.key(KubernetesProperties.JOB_LABEL) + " is empty: name a label, like role");
      }
      layout = PodLayout.byLabel(label);
    } else if (config.isSet(CloudProperties.JOBS)) {
      try {
        layout = PodLayout.byCounts(JobAssignment.parseCounts(config.get(CloudProperties.JOBS)));
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
    if (!problems.isEmpty()) {
      throw ResolverConfig.problems(NAME, problems);
    }

    HeaderLogGuard.keepHeadersOutOfLogs(); // the JDK client logs the bearer token with -Djdk.httpclient.HttpClient.log
    AuditIds auditIds = new AuditIds();
    AnswerBounds bounds = new AnswerBounds(AnswerLimit.of(config), timeout);
    KubernetesClient client = new KubernetesClientBuilder().withConfig(connection.clientConfig())
        .withHttpClientFactory(new AnswerBounds.NoRedirects())
        .withHttpClientBuilderConsumer(http -> http.addOrReplaceInterceptor("cluster-resolver-audit-ids", auditIds)
            .addOrReplaceInterceptor("cluster-resolver-answer-bounds", bounds))
        .build();
    CloudApi api = CloudApi.builder(NAME, e -> KubernetesFailures.read(e, RETRIES + 1))
        .apiName("Kubernetes API")
        .permissions("list on pods in namespace " + connection.namespace())
        .build();
    PodSource source = new PodSource(client, auditIds, api, connection, selector.trim(),
        AddressType.parse(config.get(KubernetesProperties.ADDRESS)), config.get(CloudProperties.PORT),
        config.get(KubernetesProperties.PORT_NAME), timeout);
    String podName = config.getenv("POD_NAME");
    if (podName == null || podName.isBlank()) {
      podName = config.getenv("HOSTNAME");
    }
    return new KubernetesClusterResolver(source, layout, podName == null || podName.isBlank() ? null : podName.trim(),
        config.get(TaskProperties.TASK_TYPE), config.get(TaskProperties.TASK_ID), config.get(TaskProperties.RPC_LAYER),
        connection + ", selector " + selector);
  }
}
