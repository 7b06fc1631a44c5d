package io.clusterresolver.cloud;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;
import javax.net.ssl.SSLSocketFactory;

/**
 * One call of a cloud's HTTP API on the JDK's {@link HttpURLConnection}, within what is left of a resolve's
 * deadline, without a client library's call chain: the body bounded by the {@link AnswerLimit} (its bytes, and the
 * whole exchange within the time left), the status line and headers by a {@link CallAlarm}, the connect and read
 * timeouts by the time left, a {@code gzip} answer unpacked under the same limit. A call is sent once: the kit's
 * {@link CloudApi} retries, and the provider reads an error {@link Answer} into its {@link ApiFailure}.
 *
 * <p>After a {@code 401} the request's {@link Authorization} is asked to renew once and, when it did, the request
 * is sent again (a token re-read or refreshed). A redirect is reported as its status unless the client follows
 * them, and then it is followed without the credentials (which would otherwise go to whichever host it names),
 * after a {@code 303} as a {@code GET} without the body, at most 10 times.
 *
 * <p>{@link #exchange} is the whole call of most providers: a 2xx answer read by the provider's {@link AnswerReader},
 * an error answer read whole and made into its {@link ApiErrorException} by its {@link ErrorReader}.
 *
 * <pre>{@code
 * CloudHttp http = new CloudHttp(AnswerLimit.of(config), CloudHttp.Redirects.REPORTED, null);
 * PodList pods = http.exchange(CloudHttp.Request.get(uri), CloudHttp.Authorization.bearer(token), left,
 *     answer -> PodList.read(answer.body()),
 *     error -> new ApiErrorException("list pods: HTTP " + error.status(), ApiFailure.http(error.status(),
 *         error.reason(), error.text(), error.header("Audit-Id"), 1).withRetryAfter(error.retryAfter())));
 * }</pre>
 */
public final class CloudHttp {

  /** The statuses followed when redirects are: the ones the JDK and google-http-client follow. */
  private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);
  private static final int MAX_REDIRECTS = 10;
  /** The most bytes read off the wire after an unpacked body's end, so that its connection can be kept. */
  private static final int WIRE_LEFT_READ = 8 * 1024;

  /** What a call does with a redirect. */
  public enum Redirects {
    /** The redirect is the answer: a cloud API that lists does not redirect, so the provider reports it. */
    REPORTED,
    /** Followed (at most 10), without the credentials; after a {@code 303} as a {@code GET} without the body. */
    FOLLOWED_WITHOUT_CREDENTIALS
  }

  /** The credentials of a call: the headers that authorize a request, and whether they can be renewed after a 401. */
  public interface Authorization {

    /** No credentials: nothing added, nothing renewed. */
    Authorization NONE = request -> Map.of();

    /**
     * The headers that authorize {@code request} as it is about to be sent: a bearer token, or a signature of the
     * whole request (method, URI, headers, body) with its date.
     */
    Map<String, List<String>> headers(Request request) throws IOException;

    /**
     * Called once, after a call's first {@code 401}: whether the credentials were renewed (a token file read again,
     * a token refreshed), so that the request is worth sending once more. Without: the 401 is the answer.
     */
    default boolean renewed() throws IOException {
      return false;
    }

    /** {@code Authorization: Bearer <token>}, the token asked for each request; a 401 is the answer. */
    static Authorization bearer(Supplier<String> token) {
      return bearer(token, () -> false);
    }

    /**
     * {@code Authorization: Bearer <token>}, the token asked for each request, and {@code renewal} asked once after a
     * 401 (a token file read again, a credential asked for a new token): when it renewed, the request is sent again
     * with the token {@code token} gives then.
     */
    static Authorization bearer(Supplier<String> token, Renewal renewal) {
      Objects.requireNonNull(token, "token");
      Objects.requireNonNull(renewal, "renewal");
      return new Authorization() {
        @Override
        public Map<String, List<String>> headers(Request request) {
          return Map.of("Authorization", List.of("Bearer " + token.get()));
        }

        @Override
        public boolean renewed() throws IOException {
          return renewal.renew();
        }
      };
    }
  }

  /** What renews a token after a 401 ({@link Authorization#bearer(Supplier, Renewal)}). */
  @FunctionalInterface
  public interface Renewal {
    /** Renews the token; {@code false} when it cannot be (a fixed token): the 401 is the answer. */
    boolean renew() throws IOException;
  }

  /**
   * A request: its method, URI (with the query, escaped), headers in the order given, and body ({@code null}: none).
   * Its {@code toString} names the method and the URI without its query.
   */
  public record Request(String method, URI uri, Map<String, List<String>> headers, byte[] body) {
    public Request {
      Objects.requireNonNull(method, "method");
      Objects.requireNonNull(uri, "uri");
      Map<String, List<String>> copy = new LinkedHashMap<>();
      headers.forEach((name, values) -> copy.put(name, List.copyOf(values)));
      headers = Collections.unmodifiableMap(copy);
    }

    /** A {@code GET} of {@code uri} without headers. */
    public static Request get(URI uri) {
      return new Request("GET", uri, Map.of(), null);
    }

    /** A {@code POST} of {@code body} as {@code contentType}. */
    public static Request post(URI uri, String contentType, byte[] body) {
      return new Request("POST", uri, Map.of("Content-Type", List.of(contentType)), body.clone());
    }

    /** This request with one more header (after those it has). */
    public Request with(String name, String value) {
      Map<String, List<String>> more = new LinkedHashMap<>(headers);
      more.merge(name, List.of(value), (had, added) -> {
        List<String> both = new java.util.ArrayList<>(had);
        both.addAll(added);
        return both;
      });
      return new Request(method, uri, more, body);
    }

    /** {@code GET https://host/path}: the request in an error message, without its query. */
    @Override
    public String toString() {
      return method + " " + uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath();
    }
  }

  /** Reads a 2xx answer into what the call returns. */
  @FunctionalInterface
  public interface AnswerReader<T> {
    /**
     * Reads {@code answer} (its status, headers and body).
     *
     * @throws IOException when the body could not be read (the connection lost): no whole answer
     * @throws Exception any other checked exception: the answer is not what was expected, reported as a
     *     {@link MalformedAnswerException}; an unchecked one (a {@link MalformedAnswerException} worded by the reader,
     *     a {@link NotTheApiException}) is thrown as it is
     */
    T read(Answer answer) throws Exception;
  }

  /** Reads an error answer (a status that is not 2xx) into the exception the call throws. */
  @FunctionalInterface
  public interface ErrorReader {
    /** The provider's exception for {@code answer}: its status, its cloud's error body, its headers. */
    ApiErrorException read(ErrorAnswer answer);
  }

  /** An error answer, its body read whole within the call's bounds, and the wait it asked for. */
  public static final class ErrorAnswer {
    private final Answer answer;
    private final String reason;
    private final byte[] body;
    private final Duration retryAfter;

    private ErrorAnswer(Answer answer, byte[] body, Duration retryAfter) {
      this.answer = answer;
      this.reason = answer.reason(); // the connection's, while it is open
      this.body = body;
      this.retryAfter = retryAfter;
    }

    /** The request this answers. */
    public Request request() {
      return answer.request();
    }

    /** The HTTP status. */
    public int status() {
      return answer.status();
    }

    /** The status line's reason, or {@code ""}. */
    public String reason() {
      return reason;
    }

    /** The first value of the header {@code name} (any case), or {@code null}. */
    public String header(String name) {
      return answer.header(name);
    }

    /** The value of the first of {@code names} the answer has (a request id under one of its names), or {@code null}. */
    public String firstHeader(String... names) {
      for (String name : names) {
        String value = header(name);
        if (value != null) {
          return value;
        }
      }
      return null;
    }

    /** The whole body (empty when there was none, as a 401's to a streamed request). */
    public byte[] body() {
      return body.clone();
    }

    /** The whole body as UTF-8 text. */
    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /** The wait the answer asked for ({@link RetryAfter#fromHeaders}), or {@code null}. */
    public Duration retryAfter() {
      return retryAfter;
    }
  }

  /**
   * A status and its headers, with the body to read: the bounded (and unpacked) answer for any status. Close it, or
   * read the body to its end, to give the connection back to the JDK's keep-alive cache.
   */
  public static final class Answer implements Closeable {
    private final Request request;
    private final HttpURLConnection http;
    private final int status;
    /** The body as it came on the wire, bounded. */
    private final InputStream wire;
    /** The body to read: {@link #wire}, or what it unpacks to. */
    private final InputStream body;

    private Answer(Request request, HttpURLConnection http, int status, InputStream wire, InputStream body) {
      this.request = request;
      this.http = http;
      this.status = status;
      this.wire = wire;
      this.body = body;
    }

    /** The request this answers (after any redirect followed). */
    public Request request() {
      return request;
    }

    /** The HTTP status. */
    public int status() {
      return status;
    }

    /** The status line's reason, or {@code ""}. */
    public String reason() {
      try {
        String reason = http.getResponseMessage();
        return reason == null ? "" : reason;
      } catch (IOException e) {
        return "";
      }
    }

    /** The first value of the header {@code name} (any case), or {@code null}. */
    public String header(String name) {
      return http.getHeaderField(name);
    }

    /** Every header of the answer, by name (the status line's key is {@code null}). */
    public Map<String, List<String>> headers() {
      return http.getHeaderFields();
    }

    /** The body: bounded by the call's answer limit and time, unpacked when it came as {@code gzip}. */
    public InputStream body() {
      return body;
    }

    /** The whole body as UTF-8 text (an error's body), within the same bounds. */
    public String text() throws IOException {
      return new String(body.readAllBytes(), StandardCharsets.UTF_8);
    }

    /**
     * Closes the body. A {@code gzip} reader stops at the end of what it unpacks and leaves the wire's last bytes (a
     * chunked answer's closing chunk, which over TLS is not yet decrypted) unread; the JDK then closes the connection
     * instead of keeping it for the next call, and every page would pay a new connection and TLS handshake. Those
     * few bytes are read first; an answer with more left than that is closed as it is.
     */
    @Override
    public void close() throws IOException {
      if (wire != body) {
        try {
          wire.readNBytes(WIRE_LEFT_READ);
        } catch (IOException e) {
          // Closed already (over the limit, out of time): the connection is not kept, nothing more to do.
        }
      }
      body.close();
    }
  }

  private final AnswerLimit limit;
  private final Redirects redirects;
  private final SSLSocketFactory tls;
  /** The proxy of each connection, or {@code null}: none, whatever the JDK's settings say. */
  private final ProxySelector proxies;

  /**
   * Calls bounded by {@code limit}, straight to the API's host: no proxy, whatever the JDK's proxy settings say.
   *
   * @param tls the TLS of {@code https} calls (a cluster's own certificate authority), or {@code null} for the JDK's
   *     default
   */
  public CloudHttp(AnswerLimit limit, Redirects redirects, SSLSocketFactory tls) {
    this(limit, redirects, tls, null);
  }

  /**
   * Calls bounded by {@code limit}, each connection through the first proxy {@code proxies} gives for its URI (an
   * HTTP proxy tunnels an {@code https} call with {@code CONNECT}): the JDK's {@link ProxySelector#getDefault()}
   * ({@code https.proxyHost}, {@code http.nonProxyHosts}, …), or the settings of the cloud's own SDK.
   *
   * @param tls the TLS of {@code https} calls, or {@code null} for the JDK's default
   * @param proxies the proxy of each URI, or {@code null} for none
   */
  public CloudHttp(AnswerLimit limit, Redirects redirects, SSLSocketFactory tls, ProxySelector proxies) {
    this.limit = Objects.requireNonNull(limit, "limit");
    this.redirects = Objects.requireNonNull(redirects, "redirects");
    this.tls = tls;
    this.proxies = proxies;
  }

  /**
   * Sends {@code request} once (again after a renewed 401, and to a followed redirect) and returns its answer as soon
   * as the status and headers are in, whatever the status; the body is read from the answer within the time left.
   *
   * @param remaining the time the whole call has, from now to the body's last byte
   * @throws SocketTimeoutException when the time ran out before the status and headers were in (naming the request)
   * @throws IOException when there is no answer (the connection refused or closed, TLS failed)
   */
  public Answer send(Request request, Authorization authorization, Duration remaining) throws IOException {
    int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, remaining.toMillis()));
    CallAlarm alarm = new CallAlarm(this::open, millis);
    try {
      Request sent = request;
      HttpURLConnection http = connect(alarm, sent, authorization, millis);
      boolean renewed = false;
      for (int followed = 0; ; ) {
        int status = http.getResponseCode();
        String location = http.getHeaderField("Location");
        if (status == HttpURLConnection.HTTP_UNAUTHORIZED && !renewed && followed == 0 && authorization.renewed()) {
          renewed = true;
          http.disconnect();
          http = connect(alarm, sent, authorization, millis);
        } else if (redirects == Redirects.FOLLOWED_WITHOUT_CREDENTIALS && REDIRECTS.contains(status)
            && location != null && followed < MAX_REDIRECTS) {
          followed++;
          http.disconnect();
          URI next = sent.uri().resolve(location);
          sent = status == HttpURLConnection.HTTP_SEE_OTHER
              ? new Request("GET", next, withoutContentType(sent.headers()), null)
              : new Request(sent.method(), next, sent.headers(), sent.body());
          http = connect(alarm, sent, Authorization.NONE, millis);
        } else {
          alarm.close();
          if (alarm.rang()) {
            throw timedOut(sent, millis);
          }
          InputStream wire = status >= 400 ? http.getErrorStream() : http.getInputStream();
          wire = wire == null ? InputStream.nullInputStream() : wire;
          return new Answer(sent, http, status, wire, unpacked(http, wire, millis));
        }
      }
    } catch (IOException | RuntimeException e) {
      alarm.close();
      if (alarm.rang()) {
        throw timedOut(request, millis);
      }
      throw e;
    }
  }

  /**
   * Makes one call ({@link #send}): a 2xx answer read by {@code reader}, an error answer read whole and thrown as
   * the exception {@code errors} makes of it (a redirect, when reported, is one).
   *
   * @param remaining the time the whole call has, from now to the body's last byte
   * @return what {@code reader} read
   * @throws ApiErrorException the one {@code errors} made of an error answer
   * @throws MalformedAnswerException when {@code reader} failed with a checked exception other than an
   *     {@code IOException}
   * @throws UncheckedIOException when there is no whole answer (a {@link SocketTimeoutException} when the time ran
   *     out), or the answer broke the {@link AnswerLimit}, even as what the reader's parser made of it (its cause an
   *     {@link AnswerLimitException})
   */
  public <T> T exchange(Request request, Authorization authorization, Duration remaining, AnswerReader<T> reader,
      ErrorReader errors) {
    try (Answer answer = send(request, authorization, remaining)) {
      if (answer.status() / 100 != 2) {
        throw Failed.answered(answer, errors);
      }
      try {
        return reader.read(answer);
      } catch (Exception e) {
        throw Failed.unread(request, e);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What an exchange that read no 2xx answer throws: a class apart, so that a resolve whose calls succeed loads
   * neither its classes nor those its verification would.
   */
  private static final class Failed {

    /** The provider's exception for an error answer, its body read whole. */
    static ApiErrorException answered(Answer answer, ErrorReader errors) throws IOException {
      return errors.read(new ErrorAnswer(answer, answer.body().readAllBytes(),
          RetryAfter.fromHeaders(answer::header, Instant.now())));
    }

    /** A reader's failure as the exchange reports it. */
    static RuntimeException unread(Request request, Exception e) {
      AnswerLimitException limit = limitBroken(e);
      if (limit != null) {
        return new UncheckedIOException(limit); // rather than the parser's own word for the body it could not finish
      }
      if (e instanceof RuntimeException) {
        return (RuntimeException) e;
      }
      if (e instanceof IOException) {
        return new UncheckedIOException((IOException) e);
      }
      return new MalformedAnswerException(request + ": the answer is not what was expected (" + e + ")", e);
    }

    /**
     * The limit the answer broke, if that is why it could not be read: in the cause chain, or kept by the JDK's StAX
     * parser as its "nested" exception, which is not its cause.
     */
    private static AnswerLimitException limitBroken(Throwable e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        AnswerLimitException limit = AnswerLimitException.find(t);
        if (limit != null) {
          return limit;
        }
        Throwable nested = t instanceof javax.xml.stream.XMLStreamException
            ? ((javax.xml.stream.XMLStreamException) t).getNestedException() : null;
        if (nested != null) {
          return limitBroken(nested);
        }
      }
      return null;
    }
  }

  /**
   * A bounded connection with this client's TLS (the bounded wrapper is no {@code HttpsURLConnection} itself) and
   * proxy.
   */
  private HttpURLConnection open(URL url) throws IOException {
    return limit.open(url, tls, proxy(url));
  }

  /** The first proxy the selector gives for {@code url} (a {@code DIRECT} one is none). */
  private Proxy proxy(URL url) throws IOException {
    if (proxies == null) {
      return Proxy.NO_PROXY;
    }
    try {
      List<Proxy> chosen = proxies.select(url.toURI());
      return chosen == null || chosen.isEmpty() ? Proxy.NO_PROXY : chosen.get(0);
    } catch (URISyntaxException e) {
      throw new IOException(url + " is no URI: " + e.getMessage(), e);
    }
  }

  private HttpURLConnection connect(CallAlarm alarm, Request request, Authorization authorization, int millis)
      throws IOException {
    HttpURLConnection http = alarm.open(request.uri().toURL());
    http.setInstanceFollowRedirects(false);
    http.setConnectTimeout(millis);
    http.setReadTimeout(millis);
    http.setRequestMethod(request.method());
    request.headers().forEach((name, values) -> values.forEach(value -> http.addRequestProperty(name, value)));
    authorization.headers(request).forEach((name, values) -> values.forEach(value -> http.addRequestProperty(name,
        value)));
    if (request.body() != null) {
      http.setDoOutput(true);
      http.setFixedLengthStreamingMode(request.body().length);
      try (OutputStream out = http.getOutputStream()) {
        out.write(request.body());
      }
    }
    return http;
  }

  /**
   * The body as sent, unpacked when {@code gzip}: the connection bounds the bytes that came, the same limit here what
   * they unpack to, so that a small answer cannot unpack into more than a resolve may read.
   */
  private InputStream unpacked(HttpURLConnection http, InputStream sent, int millis) throws IOException {
    String encoding = http.getContentEncoding();
    if (encoding == null || !(encoding.equalsIgnoreCase("gzip") || encoding.equalsIgnoreCase("x-gzip"))) {
      return sent;
    }
    URL url = http.getURL();
    return limit.bound(new GZIPInputStream(sent), url.getProtocol() + "://" + url.getAuthority() + url.getPath()
        + " (unpacked)", Duration.ofMillis(millis));
  }

  private static Map<String, List<String>> withoutContentType(Map<String, List<String>> headers) {
    Map<String, List<String>> kept = new LinkedHashMap<>(headers);
    kept.keySet().removeIf(name -> name.equalsIgnoreCase("Content-Type"));
    return kept;
  }

  private static SocketTimeoutException timedOut(Request request, int millis) {
    return new SocketTimeoutException(request + ": no answer within " + millis + " ms");
  }
}
