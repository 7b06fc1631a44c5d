package io.clusterresolver.azure;

import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.CloudHttp;
import io.clusterresolver.cloud.Deadline;
import java.io.UncheckedIOException;
import java.net.ProxySelector;
import java.net.URI;
import java.util.UUID;
import javax.net.ssl.SSLContext;

/**
 * One Resource Manager {@code GET} on the kit's {@link CloudHttp} (the JDK's {@code HttpURLConnection}), as the
 * SDK's pipeline sent it ({@code Accept}, {@code Accept-Encoding: gzip}, {@code User-Agent}, {@code
 * x-ms-client-request-id}, {@code Authorization: Bearer}): no azure-core pipeline, no Reactor, no {@code
 * java.net.http} client with its selector thread and {@code SSLEngine} (about 800 classes and half the samples of a
 * cold resolve, docs/benchmarks.md). Connections are the JDK's keep-alive cache, so a resolve's calls share one TLS
 * connection, through the proxy azure-core's client took ({@link ArmProxies}). The body is read under the kit's
 * answer limit (what arrives and, for gzip, what it inflates to), within what is left of the resolve's deadline, and
 * the headers by then too. A call is made once (the kit's {@code CloudApi} retries it); after a 401 a renewable token
 * is asked again and the call sent once more, as azure-core's bearer policy's challenge did.
 */
final class ArmHttp {

  /** What the pipeline's {@code UserAgentPolicy("cluster-resolver-azure")} sent. */
  static final String USER_AGENT = "cluster-resolver-azure";

  private final CloudHttp http;
  private final BoundedAnswers bounds;
  private final BearerTokens tokens;

  /**
   * @param ssl the TLS context to trust the endpoint with, or {@code null} for the JVM's default
   * @param bounds the answer limit, and the timeout of a call made outside a resolve
   * @param proxies the proxy of each call ({@link ArmProxies}), or {@code null} for none
   */
  ArmHttp(SSLContext ssl, BoundedAnswers bounds, BearerTokens tokens, ProxySelector proxies) {
    // One socket factory for every call, so that they share the keep-alive cache's connection.
    this.http = new CloudHttp(bounds.limit(), CloudHttp.Redirects.REPORTED, ssl == null ? null : ssl.getSocketFactory(),
        proxies);
    this.bounds = bounds;
    this.tokens = tokens;
  }

  /**
   * Sends the {@code GET} once: a 2xx answer read by {@code reader}, an error answer thrown as the {@link
   * ArmAnswerException} the generated clients' {@code ManagementException} was.
   *
   * @param deadline the resolve's, or {@code null} outside one (then the timeout)
   * @throws UncheckedIOException when there is no whole answer (a {@code SocketTimeoutException} when the time ran
   *     out), or the body is over the limit (its cause an {@code AnswerLimitException})
   */
  <T> T get(String url, Deadline deadline, CloudHttp.AnswerReader<T> reader) {
    CloudHttp.Request request = CloudHttp.Request.get(URI.create(url)).with("Accept", "application/json")
        // gzip: a page of 100 VMs is about 160 KB of JSON that compresses many times over.
        .with("Accept-Encoding", "gzip").with("User-Agent", USER_AGENT)
        .with("x-ms-client-request-id", UUID.randomUUID().toString());
    return http.exchange(request, authorization(deadline), bounds.within(deadline), reader, ArmAnswerException::of);
  }

  /** The bearer token of a call under {@code deadline}, renewed once after a 401 when it can be. */
  private CloudHttp.Authorization authorization(Deadline deadline) {
    return CloudHttp.Authorization.bearer(() -> tokens.token(deadline), () -> {
      if (!tokens.renewable()) {
        return false;
      }
      tokens.renewed(deadline);
      return true;
    });
  }
}
