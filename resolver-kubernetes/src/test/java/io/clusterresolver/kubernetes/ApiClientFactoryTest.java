package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.testkit.HostileEndpoint;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletionException;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client of an {@code http} API server, made without fabric8's TLS set-up: it talks plain HTTP, makes no TLS
 * connection so trusts no certificate (the setting that skipped the set-up is not left in the {@link Config}), and an
 * {@code https} server's client is fabric8's own as before. The https endpoint's certificate is self-signed: a
 * client that trusts every certificate (fabric8's {@code trustCerts}) is the only one that reaches it.
 */
class ApiClientFactoryTest {

  static HostileEndpoint server;

  @BeforeAll
  static void start() {
    server = HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"), "{}");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static int get(HttpClient client, URI uri) {
    HttpResponse<String> r = client.sendAsync(client.newHttpRequestBuilder().uri(uri).build(), String.class).join();
    return r.code();
  }

  @Test
  void theClientOfAnHttpServerTalksHttpAndTrustsNoCertificate() {
    Config config = Config.empty();
    config.setMasterUrl(server.uri().toString());
    config.setRequestRetryBackoffLimit(0);

    HttpClient client = new ApiClientFactory().newBuilder(config).build();

    assertThat(config.isTrustCerts()).as("the Config's own setting").isFalse();
    assertThat(get(client, server.uri().resolve("/api/v1/namespaces/ml/pods"))).isEqualTo(200);
    Throwable t = catchThrowable(() -> get(client, server.httpsUri().resolve("/api/v1/namespaces/ml/pods")));
    assertThat(t).isInstanceOf(CompletionException.class).hasRootCauseInstanceOf(UnsupportedOperationException.class)
        .hasRootCauseMessage("no TLS connection is made to an http API server");
  }

  @Test
  void anHttpsServersClientIsFabric8sOwnWithItsTrustSettings() {
    Config config = Config.empty();
    config.setMasterUrl(server.httpsUri().toString());
    config.setRequestRetryBackoffLimit(0);
    config.setTrustCerts(true); // insecure-skip-tls-verify in a kubeconfig

    HttpClient trusting = new ApiClientFactory().newBuilder(config).build();
    assertThat(get(trusting, server.httpsUri().resolve("/version"))).isEqualTo(200);

    config.setTrustCerts(false);
    HttpClient verifying = new ApiClientFactory().newBuilder(config).build();
    assertThat(catchThrowable(() -> get(verifying, server.httpsUri().resolve("/version"))))
        .hasCauseInstanceOf(SSLException.class);
  }

  @Test
  void aPlainHttpServerIsOneWhoseUrlSaysHttp() {
    assertThat(ClusterTrust.isPlainHttp("http://127.0.0.1:8001")).isTrue();
    assertThat(ClusterTrust.isPlainHttp("HTTP://localhost:8001/")).isTrue();
    assertThat(ClusterTrust.isPlainHttp("https://10.0.0.1:443")).isFalse();
    assertThat(ClusterTrust.isPlainHttp("10.0.0.1:443")).isFalse();
    assertThat(ClusterTrust.isPlainHttp(null)).isFalse();
  }
}
