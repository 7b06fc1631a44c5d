package io.clusterresolver.kubernetes;

import io.clusterresolver.cloud.AnswerLimit;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The calls on fabric8's HTTP client ({@link ApiClientFactory}), as its {@code Config} makes it: a kubeconfig's user
 * (exec plugins, OIDC, client certificates, impersonation, its token refreshed after a 401) and proxies. The body is
 * bounded by {@link AnswerBounds} as it arrives.
 */
final class Fabric8Calls implements ApiCalls {

  private final HttpClient http;
  private final long timeoutMillis;

  /**
   * fabric8's HTTP client for a kubeconfig's connection, as its {@code Config} makes it (TLS, the user, proxies),
   * without the {@code KubernetesClient} around it: a resolve makes one kind of request, and the DSL's model and
   * serialization cost most of a cold start. Answers are bounded by {@link AnswerBounds}.
   *
   * @throws io.clusterresolver.ConfigurationException when a certificate or key cannot be read, naming where from
   */
  static Fabric8Calls of(ApiConnection connection, AnswerLimit limit, Duration timeout) {
    Config config = connection.kubeconfig().clientConfig(connection, timeout);
    HttpClient http;
    try {
      http = new ApiClientFactory().newBuilder(config)
          .addOrReplaceInterceptor("cluster-resolver-answer-bounds", new AnswerBounds(limit, timeout))
          .build();
    } catch (KubernetesClientException e) {
      if (!(e.getCause() instanceof GeneralSecurityException || e.getCause() instanceof IOException)) {
        throw e;
      }
      throw connection.tlsUnusable(e.getCause(), e);
    }
    return new Fabric8Calls(http, config.getRequestTimeout());
  }

  /**
   * @param http the client
   * @param timeoutMillis how long a call waits for its answer's headers
   */
  Fabric8Calls(HttpClient http, long timeoutMillis) {
    this.http = http;
    this.timeoutMillis = timeoutMillis;
  }

  @Override
  public CompletableFuture<Answer> get(URI uri) {
    HttpRequest request = http.newHttpRequestBuilder().uri(uri)
        .header("Accept", "application/json")
        .timeout(timeoutMillis, TimeUnit.MILLISECONDS)
        .build();
    // The whole body, then read: fabric8's InputStream over the body's buffers copies them one byte at a time.
    CompletableFuture<HttpResponse<byte[]>> sent = http.sendAsync(request, byte[].class);
    CompletableFuture<Answer> answer = sent.thenApply(r -> new Answer(r.code(), r.body(), r::header));
    answer.whenComplete((a, failure) -> {
      if (answer.isCancelled()) {
        sent.cancel(true); // fabric8 completes the exchange anyway and drops its answer, read to its end
      }
    });
    return answer;
  }
}
