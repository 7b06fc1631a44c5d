package io.clusterresolver.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.policy.BearerTokenAuthenticationPolicy;
import com.azure.core.http.policy.UserAgentPolicy;
import com.azure.core.management.AzureEnvironment;
import com.azure.resourcemanager.compute.fluent.ComputeManagementClient;
import com.azure.resourcemanager.compute.implementation.ComputeManagementClientBuilder;
import com.azure.resourcemanager.network.fluent.NetworkManagementClient;
import com.azure.resourcemanager.network.implementation.NetworkManagementClientBuilder;
import io.clusterresolver.cloud.AnswerLimit;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * The SDK's inner (generated) clients of Compute and Network on one HTTP pipeline: the JDK HTTP
 * client with bounded answers ({@link BoundedHttpClient}), the {@link DeadlinePolicy} and the bearer token, and
 * no retry policy (the kit's {@code CloudApi} retries each call, so nothing retries twice). Only the inner clients'
 * listings are used: the fluent API's per-VM calls are never made.
 *
 * <p>The clients are what {@code ComputeManager.authenticate(pipeline, profile).serviceClient()}
 * (and {@code NetworkManager}'s) return, built with the same builders those managers use, without
 * the managers: a {@code ComputeManager} also builds Network, Storage, Authorization and MSI
 * managers, which cost about 0.4 s of CPU in a cold JVM (measured, docs/benchmarks.md) and are
 * never used here.
 */
final class ArmClients {

  /** Resource Manager's token scope (the fixed token of {@code access-token} ignores it). */
  static final String SCOPE = "https://management.azure.com/.default";
  static final URI DEFAULT_ENDPOINT = URI.create("https://management.azure.com");

  final ComputeManagementClient compute;
  final NetworkManagementClient network;

  private ArmClients(ComputeManagementClient compute, NetworkManagementClient network) {
    this.compute = compute;
    this.network = network;
  }

  /**
   * @param ssl the TLS context to trust the endpoint with, or {@code null} for the JVM's default
   * @param deadlines the pipeline's deadline policy (shared with the token requests' client)
   * @param timeout the overall deadline, also the longest a single response may take
   * @param limit how much of each answer is read
   */
  static ArmClients create(URI endpoint, String subscription, TokenCredential credential, SSLContext ssl,
      DeadlinePolicy deadlines, Duration timeout, AnswerLimit limit) {
    HttpClient http = BoundedHttpClient.overJdk(ssl, timeout, limit);
    HttpPipeline pipeline = new HttpPipelineBuilder()
        .httpClient(http)
        .policies(new UserAgentPolicy("cluster-resolver-azure"), deadlines,
            new BearerTokenAuthenticationPolicy(credential, SCOPE))
        .build();
    Map<String, String> endpoints = new HashMap<>(AzureEnvironment.AZURE.getEndpoints());
    endpoints.put("resourceManagerEndpointUrl", endpoint.toString());
    AzureEnvironment environment = new AzureEnvironment(endpoints);
    String host = endpoint.toString();
    return new ArmClients(
        new ComputeManagementClientBuilder().pipeline(pipeline).environment(environment).endpoint(host)
            .subscriptionId(subscription).defaultPollInterval(Duration.ofSeconds(30)).buildClient(),
        new NetworkManagementClientBuilder().pipeline(pipeline).environment(environment).endpoint(host)
            .subscriptionId(subscription).defaultPollInterval(Duration.ofSeconds(30)).buildClient());
  }
}
