package io.clusterresolver.tpu;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.httpjson.ApiMethodDescriptor;
import com.google.api.gax.httpjson.ProtoRestSerializer;
import com.google.api.gax.rpc.RequestParamsBuilder;
import com.google.api.gax.rpc.UnaryCallable;
import com.google.cloud.tpu.v2.GetNodeRequest;
import com.google.cloud.tpu.v2.Node;
import com.google.cloud.tpu.v2.TpuSettings;
import com.google.cloud.tpu.v2.stub.TpuStubSettings;
import com.google.protobuf.TypeRegistry;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.RetryPolicy;
import io.clusterresolver.google.GoogleCalls;
import io.clusterresolver.google.GoogleClients;
import io.clusterresolver.google.GoogleCredentialsSetting;
import io.clusterresolver.google.GoogleRest;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The Cloud TPU API v2 with {@code google-cloud-tpu}'s messages and settings over HttpJson (REST): one {@code nodes.get}
 * per call, made once (the SDK does not retry): the kit's {@code CloudApi} retries it by {@link #RETRY}
 * (at most {@link #MAX_ATTEMPTS} attempts, exponential backoff, within what is left of the deadline)
 * on throttling, server errors and lost connections, and counts the attempts. The client is built on the
 * first call and kept while resolves use it ({@link GoogleClients}); each call carries its own deadline.
 */
final class TpuApi {

  /** The scope the credentials ask for. */
  static final List<String> SCOPES = List.of("https://www.googleapis.com/auth/cloud-platform");

  static final int MAX_ATTEMPTS = 4;
  /** How {@code CloudApi} retries {@code nodes.get}: 4 attempts, backoff from 100 ms. */
  static final RetryPolicy RETRY = RetryPolicy.builder().maxAttempts(MAX_ATTEMPTS).baseBackoff(Duration.ofMillis(100))
      .maxBackoff(Duration.ofSeconds(2)).build();

  /** The longest any one call may take, whatever a resolver's timeout: each call's context sets its own. */
  private static final Duration CLIENT_CEILING = Duration.ofMinutes(10);
  /**
   * {@code nodes.get} as google-cloud-tpu's {@code HttpJsonTpuStub} sends it (its path, {@code $alt} and routing
   * header), through {@link GoogleCalls}: the SDK's {@code TpuClient} would build the formatters of every Cloud
   * TPU method and an operations client for this one call.
   */
  private static final ApiMethodDescriptor<GetNodeRequest, Node> GET_NODE = GoogleCalls.get(
      "google.cloud.tpu.v2.Tpu/GetNode", "/v2/{name=projects/*/locations/*/nodes/*}",
      r -> GoogleCalls.pathParams(r, "name"), r -> {
        Map<String, List<String>> query = new HashMap<>();
        ProtoRestSerializer.<GetNodeRequest>create().putQueryParam(query, "$alt", "json;enum-encoding=int");
        return query;
      }, Node.getDefaultInstance(), TypeRegistry.getEmptyTypeRegistry());

  private final GoogleClients clients = new GoogleClients();
  private final Supplier<NodesGet> client;

  /** The transport and the one callable. */
  private record NodesGet(GoogleCalls calls, UnaryCallable<GetNodeRequest, Node> get) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      calls.close();
    }
  }

  /**
   * @param endpoint the API endpoint, or {@code null} for Google's
   * @param credentials the {@code credentials} property's credentials ({@link GoogleCredentialsSetting})
   */
  TpuApi(URI endpoint, CredentialsProvider credentials, AnswerLimit limit) {
    GoogleRest rest = new GoogleRest(endpoint, credentials, limit);
    this.client = clients.client(() -> {
      TpuSettings.Builder settings = rest.connect(TpuSettings.newHttpJsonBuilder());
      GoogleRest.oneAttempt(settings.getNodeSettings(), CLIENT_CEILING);
      return GoogleRest.create(() -> {
        TpuStubSettings stub = (TpuStubSettings) settings.build().getStubSettings();
        GoogleCalls calls = new GoogleCalls(stub);
        return new NodesGet(calls, calls.unary(GET_NODE, stub.getNodeSettings(), TypeRegistry.getEmptyTypeRegistry(),
            r -> {
              RequestParamsBuilder params = RequestParamsBuilder.create();
              params.add("name", String.valueOf(r.getName()));
              return params.build();
            }));
      });
    });
  }

  /** Takes the client for one resolve: built on its first call, closed when the last resolve using it ends. */
  GoogleClients.Lease lease() {
    return clients.lease();
  }

  /** Gets one node by its full resource name, waiting at most {@code remaining}; one attempt, within a {@link #lease()}. */
  Node getNode(String name, Duration remaining) {
    GetNodeRequest request = GetNodeRequest.newBuilder().setName(name).build();
    // The timeout bounds the wait for headers; the header (read by the bounded connection) bounds the body too.
    return client.get().get().call(request, GoogleRest.context(remaining));
  }
}
