package io.clusterresolver.cloud;

import io.clusterresolver.spi.ResolverConfig;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URL;
import java.net.URLConnection;
import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;

/**
 * How much of one answer a provider reads, and for how long: at most {@link #maxBytes()} of its
 * body, the whole of it (not only the headers) within the time the request was given. An HTTP
 * client's own timeouts bound the wait for headers and each single read, so a body trickled one
 * byte at a time, or one that never ends, would otherwise run on and fill the memory. Immutable.
 *
 * <pre>{@code
 * AnswerLimit limit = AnswerLimit.of(config);
 * // google-http-client: new NetHttpTransport.Builder().setConnectionFactory(limit::open)
 * InputStream body = limit.bound(connection.getInputStream(), endpoint, remaining);
 * }</pre>
 */
public final class AnswerLimit {

  /**
   * A request header that {@link #open} connections take as the time the whole answer has, in
   * milliseconds, and do not send: for clients that run a call on threads of their own and set only
   * a per-read timeout (gax HTTP/JSON: {@code HttpJsonCallContext.withExtraHeaders}).
   */
  public static final String TIME_HEADER = "X-Cluster-Resolver-Answer-Millis";

  private static final long MIB = 1024 * 1024;

  private final long maxBytes;
  private final String key;
  /** What a too large answer's error advises instead of the provider's endpoint property, or {@code null}. */
  private final String advice;

  private AnswerLimit(long maxBytes, String key) {
    this(maxBytes, key, null);
  }

  private AnswerLimit(long maxBytes, String key, String advice) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("An answer limit must be positive, not " + maxBytes);
    }
    this.maxBytes = maxBytes;
    this.key = key;
    this.advice = advice;
  }

  /** The limit {@link CloudProperties#MAX_ANSWER_MIB} sets for a provider's configuration. */
  public static AnswerLimit of(ResolverConfig config) {
    return new AnswerLimit(config.get(CloudProperties.MAX_ANSWER_MIB) * MIB, config.key(CloudProperties.MAX_ANSWER_MIB));
  }

  /** A limit of {@code maxBytes}, not set by a property (a test's fixed limit, a metadata server's few bytes). */
  public static AnswerLimit ofBytes(long maxBytes) {
    return new AnswerLimit(maxBytes, null);
  }

  /**
   * The same limit for an endpoint that another setting than the provider's {@code endpoint} points
   * at: a too large answer's error says {@code check} ({@link AnswerLimitException#advice()}).
   */
  public AnswerLimit advising(String check) {
    return new AnswerLimit(maxBytes, key, Objects.requireNonNull(check, "check"));
  }

  /** The most bytes of one body that are read. */
  public long maxBytes() {
    return maxBytes;
  }

  /**
   * A stream that reads at most {@link #maxBytes()} of {@code body} and all of it within
   * {@code within} from now; past either it throws an {@link AnswerLimitException} naming
   * {@code endpoint} and the limit (and closes {@code body}, which ends the exchange).
   */
  public InputStream bound(InputStream body, String endpoint, Duration within) {
    return new Bounded(body, endpoint, within.toMillis());
  }

  /**
   * A connection to {@code url} (no proxy, as the JDK's default factory) whose bodies are bounded:
   * by this size and by the read timeout the client sets (or {@link #TIME_HEADER}, when shorter), which
   * then covers the whole exchange instead of each read. For clients built on {@link HttpURLConnection}, such as google-http-client's
   * {@code NetHttpTransport.Builder.setConnectionFactory(limit::open)}.
   */
  public HttpURLConnection open(URL url) throws IOException {
    return open(url, null);
  }

  /**
   * As {@link #open(URL)}, with the TLS of an {@code https} URL made by {@code tls} (trusting, say, a cluster's own
   * certificate authority alone) instead of the JDK's default; the host name is still checked as the JDK checks it.
   * The returned connection is the bounded wrapper, no {@code HttpsURLConnection}: this is where its TLS is set.
   *
   * @param tls the TLS sockets' factory, or {@code null} for the JDK's default
   */
  public HttpURLConnection open(URL url, SSLSocketFactory tls) throws IOException {
    return open(url, tls, Proxy.NO_PROXY);
  }

  /**
   * As {@link #open(URL, SSLSocketFactory)}, through {@code proxy}: an HTTP proxy is asked for an {@code http} URL in
   * the request line and tunnels an {@code https} one ({@code CONNECT}), as the JDK's connections do.
   *
   * @param proxy the proxy, or {@link Proxy#NO_PROXY} for none
   */
  public HttpURLConnection open(URL url, SSLSocketFactory tls, Proxy proxy) throws IOException {
    URLConnection connection = url.openConnection(Objects.requireNonNull(proxy, "proxy"));
    if (tls != null && connection instanceof HttpsURLConnection https) {
      https.setSSLSocketFactory(tls);
    }
    return new BoundedHttpConnection((HttpURLConnection) connection, this);
  }

  /** {@code 64 MiB}, {@code 512 bytes}. */
  static String describe(long bytes) {
    return bytes % MIB == 0 ? bytes / MIB + " MiB" : bytes + " bytes";
  }

  @Override
  public String toString() {
    return "AnswerLimit{" + describe(maxBytes) + "}";
  }

  /**
   * A meter for a body that arrives in pieces (an asynchronous client's buffers): {@link Meter#add}
   * each piece as it comes.
   */
  public Meter meter(String endpoint, Duration within) {
    return new Meter(endpoint, within.toMillis());
  }

  /** Counts the bytes and the time of one body. Not thread-safe: one body, one reader. */
  public final class Meter {
    private final String endpoint;
    private final long budgetMillis;
    private final long endNanos;
    private long read;

    private Meter(String endpoint, long budgetMillis) {
      this.endpoint = endpoint;
      this.budgetMillis = Math.max(1, budgetMillis);
      this.endNanos = System.nanoTime() + this.budgetMillis * 1_000_000;
    }

    /**
     * Counts {@code bytes} more of the body.
     *
     * @throws AnswerLimitException when the body is now larger than the limit, or its time is up
     */
    public void add(long bytes) throws AnswerLimitException {
      read += bytes;
      if (read > maxBytes) {
        throw AnswerLimitException.tooLarge(endpoint, maxBytes, key, advice);
      }
      if (System.nanoTime() - endNanos > 0) {
        throw AnswerLimitException.tooSlow(endpoint, budgetMillis, read);
      }
    }

    /** How many more bytes may come: one past it shows the body is too large. */
    long allowance() {
      return maxBytes - read + 1;
    }
  }

  /** Meters every read. */
  private final class Bounded extends FilterInputStream {
    private final Meter meter;

    Bounded(InputStream in, String endpoint, long budgetMillis) {
      super(in);
      this.meter = new Meter(endpoint, budgetMillis);
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      metered(0);
      int n = super.read(b, off, (int) Math.min(len, meter.allowance()));
      if (n > 0) {
        metered(n);
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      byte[] skipped = new byte[(int) Math.min(n, 8192)];
      int r = read(skipped, 0, skipped.length);
      return Math.max(r, 0);
    }

    @Override
    public boolean markSupported() {
      return false;
    }

    private void metered(int bytes) throws IOException {
      try {
        meter.add(bytes);
      } catch (AnswerLimitException broken) {
        try {
          in.close();
        } catch (IOException e) {
          broken.addSuppressed(e);
        }
        throw broken;
      }
    }
  }
}
