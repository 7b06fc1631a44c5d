package io.clusterresolver.kubernetes;

import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.CloudHttp;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * The calls on the JDK's {@link java.net.HttpURLConnection} through the kit's {@link CloudHttp}, for a connection
 * that needs nothing of fabric8's client: the in-cluster service account (its token file, {@code ca.crt}) and an
 * {@code endpoint} with a {@code token-file} and a {@code ca-file}, which fabric8 would send as the same
 * {@code GET} with {@code Authorization: Bearer} and its {@code User-Agent}. What fabric8's client did for them is
 * done the same way: the token file read for every request and once more after a 401, which is then sent again
 * once (fabric8's token refresh); no redirect followed; an {@code https} API server with a certificate authority
 * trusted through that authority alone ({@link ClusterTrust#authorityAlone}), without one through the JDK's;
 * no proxy; HTTP/1.1. Without fabric8's client, a resolve starts neither the JDK's {@code java.net.http} client
 * (its selector thread and ~270 classes) nor fabric8's request chain, and loads no class of fabric8's: its
 * {@code User-Agent} is the version fabric8's client would name, a constant. The body is bounded by the kit's answer limit
 * and the call's time, the headers by its {@code CallAlarm}.
 */
final class UrlConnectionCalls implements ApiCalls {

  /**
   * The {@code User-Agent} of fabric8's client ({@code Config}'s default, {@code fabric8-kubernetes-client/} and its
   * version), which the API server's audit log names: {@code PodListRequestTest} checks it against fabric8's own.
   */
  static final String USER_AGENT = "fabric8-kubernetes-client/8.0.0";

  private final CloudHttp http;
  private final CloudHttp.Authorization authorization;
  private final Duration timeout;
  private final ExecutorService threads;

  private UrlConnectionCalls(CloudHttp http, CloudHttp.Authorization authorization, Duration timeout,
      ExecutorService threads) {
    this.http = http;
    this.authorization = authorization;
    this.timeout = timeout;
    this.threads = threads;
  }

  /**
   * The calls of {@code connection}, each on one of {@code threads}, within {@code timeout}.
   *
   * @throws IOException when the certificate authority file cannot be read
   * @throws GeneralSecurityException when it holds no certificate, or one that cannot be read
   */
  static UrlConnectionCalls of(ApiConnection connection, AnswerLimit limit, Duration timeout,
      ExecutorService threads) throws IOException, GeneralSecurityException {
    SSLSocketFactory tls = null;
    Path ca = connection.caFile();
    if (ca != null && !ClusterTrust.isPlainHttp(connection.masterUrl())) {
      SSLContext context = SSLContext.getInstance("TLS");
      try (InputStream pem = Files.newInputStream(ca)) {
        context.init(null, ClusterTrust.authorityAlone(pem, "file " + ca), null);
      }
      tls = context.getSocketFactory();
    }
    TokenFile token = connection.tokenFile();
    // As fabric8's token refresh: after a 401 the file is read again (the kubelet may have rotated it), sent once more.
    CloudHttp.Authorization authorization = token == null ? CloudHttp.Authorization.NONE
        : CloudHttp.Authorization.bearer(token::getToken, () -> true);
    return new UrlConnectionCalls(new CloudHttp(limit, CloudHttp.Redirects.REPORTED, tls), authorization, timeout,
        threads);
  }

  @Override
  public CompletableFuture<Answer> get(URI uri) {
    // On a thread of its own: the next page is asked for while this one is read. A cancelled call ends by its time.
    return CompletableFuture.supplyAsync(() -> call(uri), threads);
  }

  /** One {@code GET}, its whole answer read (the connection then goes back to the JDK's keep-alive cache). */
  Answer call(URI uri) {
    CloudHttp.Request request = CloudHttp.Request.get(uri).with("Accept", "application/json")
        .with("User-Agent", USER_AGENT);
    try (CloudHttp.Answer answer = http.send(request, authorization, timeout)) {
      byte[] body = answer.body().readAllBytes();
      return new Answer(answer.status(), body, answer::header);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
