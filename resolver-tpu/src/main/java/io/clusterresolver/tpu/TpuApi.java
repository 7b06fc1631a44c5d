package io.clusterresolver.tpu;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.rpc.RequestParamsBuilder;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.RetryPolicy;
import io.clusterresolver.google.GoogleApi;
import io.clusterresolver.google.GoogleCalls;
import io.clusterresolver.google.GoogleCredentialsSetting;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The Cloud TPU API v2 over REST ({@link GoogleCalls}): one {@code nodes.get}
 * per call, made once (the SDK does not retry): the kit's {@code CloudApi} retries it by {@link #RETRY}
 * (at most {@link #MAX_ATTEMPTS} attempts, exponential backoff, within what is left of the deadline)
 * on throttling, server errors and lost connections, and counts the attempts. The client is built on the
 * first call and kept ({@link GoogleApi}); each call carries its own deadline.
 */
final class TpuApi {

  /** The scope the credentials ask for. */
  static final List<String> SCOPES = List.of("https://www.googleapis.com/auth/cloud-platform");

  static final int MAX_ATTEMPTS = 4;
  /** How {@code CloudApi} retries {@code nodes.get}: 4 attempts, backoff from 100 ms. */
  static final RetryPolicy RETRY = RetryPolicy.builder().maxAttempts(MAX_ATTEMPTS).baseBackoff(Duration.ofMillis(100))
      .maxBackoff(Duration.ofSeconds(2)).build();

  /**
   * {@code nodes.get} as google-cloud-tpu's {@code HttpJsonTpuStub} sends it (its path, {@code $alt} and routing
   * header), through {@link GoogleCalls}, the answer streamed into a {@link TpuNode}: the SDK's {@code TpuClient}
   * would build the formatters of every Cloud TPU method and an operations client for this one call, and its
   * protobuf {@code Node} the API's descriptor.
   */
  private static final GoogleCalls.Method<TpuNode> GET_NODE = GoogleCalls.get(
      "google.cloud.tpu.v2.Tpu/GetNode", "/v2/{name=projects/*/locations/*/nodes/*}", TpuNode::read);

  private final Supplier<GoogleCalls> client;

  /**
   * @param endpoint the API endpoint, or {@code null} for Google's
   * @param credentials the {@code credentials} property's credentials ({@link GoogleCredentialsSetting})
   */
  TpuApi(URI endpoint, CredentialsProvider credentials, AnswerLimit limit) {
    this.client = new GoogleApi(endpoint, credentials, limit).client(rest -> new GoogleCalls(rest,
        "tpu.googleapis.com:443"));
  }

  /** Gets one node by its full resource name, waiting at most {@code remaining}: one attempt. */
  TpuNode getNode(String name, Duration remaining) {
    RequestParamsBuilder routing = RequestParamsBuilder.create();
    routing.add("name", name);
    GoogleCalls.Get request = new GoogleCalls.Get(Map.of("name", name),
        Map.of("$alt", List.of("json;enum-encoding=int")), routing.build());
    return client.get().call(GET_NODE, request, remaining);
  }
}
