package io.clusterresolver.azure;

import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.CallAlarm;
import io.clusterresolver.cloud.Deadline;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.GZIPInputStream;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * One Resource Manager {@code GET} on the JDK's {@link HttpURLConnection}, as the SDK's pipeline sent it ({@code
 * Accept}, {@code Accept-Encoding: gzip}, {@code User-Agent}, {@code x-ms-client-request-id}, {@code Authorization:
 * Bearer}): no azure-core pipeline, no Reactor, no {@code java.net.http} client with its selector thread and
 * {@code SSLEngine} (about 800 classes and half a cold resolve's samples, docs/benchmarks.md). Connections are the
 * JDK's keep-alive cache, so a resolve's calls share one TLS connection (or resume its session). The body is read
 * under the kit's {@link AnswerLimit} (what arrives and, for gzip, what it inflates to), within what is left of the
 * resolve's deadline; a {@link CallAlarm} closes a call whose headers are not in by then. A call is made once (the
 * kit's {@code CloudApi} retries it); a 401 gets one new token, as azure-core's bearer policy's challenge does.
 */
final class ArmHttp {

  /** What the pipeline's {@code UserAgentPolicy("cluster-resolver-azure")} sent. */
  static final String USER_AGENT = "cluster-resolver-azure";
  /** What a gzip answer is read from the wire in: a page's 4-5 KB in one read or two, not GZIPInputStream's 512 B. */
  private static final int GZIP_BUFFER = 8192;

  private final BoundedAnswers bounds;
  /** The endpoint's trust, or {@code null} for the JVM's default; one factory, so that connections are reused. */
  private final SSLSocketFactory sockets;
  private final BearerTokens tokens;

  /**
   * @param ssl the TLS context to trust the endpoint with, or {@code null} for the JVM's default
   * @param bounds the answer limit, and the timeout of a call made outside a resolve
   */
  ArmHttp(SSLContext ssl, BoundedAnswers bounds, BearerTokens tokens) {
    this.sockets = ssl == null ? null : ssl.getSocketFactory();
    this.bounds = bounds;
    this.tokens = tokens;
  }

  /** An answer's status, headers and whole body (inflated), as it came. */
  record Answer(URI uri, int status, Map<String, List<String>> headers, byte[] body) {
    /** A header's first value, by its case-insensitive name, or {@code null}. */
    String header(String name) {
      for (Map.Entry<String, java.util.List<String>> h : headers.entrySet()) {
        if (h.getKey() != null && h.getKey().equalsIgnoreCase(name) && !h.getValue().isEmpty()) {
          return h.getValue().get(0);
        }
      }
      return null;
    }
  }

  /**
   * Sends the {@code GET} once and reads its whole answer, whatever its status.
   *
   * @param deadline the resolve's, or {@code null} outside one (then the timeout)
   * @param onAnswer run when a 200's headers are in, before its body is read (the connection is up by then)
   * @throws UncheckedIOException when there is no whole answer (a {@link SocketTimeoutException} when the time ran
   *     out), or the body is over the limit (its cause an {@code AnswerLimitException})
   */
  Answer get(String url, Deadline deadline, Runnable onAnswer) {
    Duration within = bounds.within(deadline);
    int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, within.toMillis()));
    CallAlarm alarm = new CallAlarm(this::open, millis);
    try {
      URL target = new URL(url);
      HttpURLConnection http = send(alarm, target, tokens.token(deadline), millis);
      int status = http.getResponseCode();
      if (status == HttpURLConnection.HTTP_UNAUTHORIZED && tokens.renewable()) {
        drain(http);
        http = send(alarm, target, tokens.renewed(deadline), millis);
        status = http.getResponseCode();
      }
      alarm.close();
      if (alarm.rang()) {
        throw timedOut(url, millis);
      }
      if (status == HttpURLConnection.HTTP_OK) {
        onAnswer.run();
      }
      InputStream wire = status >= 400 ? http.getErrorStream() : http.getInputStream();
      URI uri = URI.create(url);
      return new Answer(uri, status, http.getHeaderFields(), body(http, wire, uri, within));
    } catch (IOException e) {
      alarm.close();
      throw alarm.rang() ? timedOut(url, millis) : new UncheckedIOException(e);
    } catch (RuntimeException e) {
      alarm.close();
      throw alarm.rang() ? timedOut(url, millis) : e;
    }
  }

  private HttpURLConnection open(URL url) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) url.openConnection(Proxy.NO_PROXY);
    if (sockets != null && connection instanceof HttpsURLConnection) {
      ((HttpsURLConnection) connection).setSSLSocketFactory(sockets);
    }
    return bounds.limit().bound(connection);
  }

  private static HttpURLConnection send(CallAlarm alarm, URL url, String token, int millis) throws IOException {
    HttpURLConnection http = alarm.open(url);
    http.setInstanceFollowRedirects(false); // the pipeline had no redirect policy: a 3xx is an error answer
    http.setConnectTimeout(millis);
    http.setReadTimeout(millis);
    http.setRequestProperty("Accept", "application/json");
    // gzip: a page of 100 VMs is about 160 KB of JSON that compresses many times over.
    http.setRequestProperty("Accept-Encoding", "gzip");
    http.setRequestProperty("User-Agent", USER_AGENT);
    http.setRequestProperty("x-ms-client-request-id", UUID.randomUUID().toString());
    http.setRequestProperty("Authorization", "Bearer " + token);
    return http;
  }

  /**
   * The whole body under the limit, inflated when it is gzip: what arrives (the bounded connection) and what it
   * inflates to are both metered, so a small answer that inflates past the limit stops there.
   */
  private byte[] body(HttpURLConnection http, InputStream wire, URI uri, Duration within) throws IOException {
    if (wire == null) {
      return new byte[0];
    }
    String encoding = http.getContentEncoding();
    boolean gzip = encoding != null && "gzip".equalsIgnoreCase(encoding.trim());
    try (wire; InputStream in = gzip ? bounds.stream(new GZIPInputStream(wire, GZIP_BUFFER), uri, within)
        : wire) {
      byte[] body = in.readAllBytes();
      // GZIPInputStream ends at the trailer without reading the wire to its end: read the rest (metered), so that
      // the connection goes back to the keep-alive cache instead of the next call shaking hands again.
      wire.transferTo(OutputStream.nullOutputStream());
      return body;
    }
  }

  /** Reads what is left of a refused answer, so its connection can carry the next attempt. */
  private static void drain(HttpURLConnection http) {
    try (InputStream rest = http.getErrorStream()) {
      if (rest != null) {
        rest.transferTo(OutputStream.nullOutputStream());
      }
    } catch (IOException e) {
      http.disconnect(); // it goes: the next attempt opens another
    }
  }

  /** The call's time ran out (the alarm closed its connection): whatever the transport made of that, not an answer. */
  private static UncheckedIOException timedOut(String url, int millis) {
    return new UncheckedIOException(new SocketTimeoutException("GET " + BoundedAnswers.origin(URI.create(url))
        + ": no whole answer within " + millis + " ms"));
  }
}
