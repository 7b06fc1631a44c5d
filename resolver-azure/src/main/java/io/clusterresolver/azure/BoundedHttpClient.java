package io.clusterresolver.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.core.util.FluxUtil;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.AnswerLimitException;
import io.clusterresolver.cloud.BoundedAnswers;
import io.clusterresolver.cloud.Deadline;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;
import javax.net.ssl.SSLContext;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * azure-core's hook for the kit's {@link BoundedAnswers}, for azure-identity's token requests (the
 * Resource Manager calls are {@link ArmHttp}'s): an {@link HttpClient} whose answers are read at most up
 * to the limit, and the whole body within what is left of the deadline of the resolve in progress (or
 * else the timeout), which is also the request's response timeout. The JDK client it wraps would otherwise read a whole
 * body into memory before the SDK sees it (its "eager" read, bounded per read only), so it is asked to
 * stream, and the body is metered here as it arrives (and again as it inflates, for a gzip answer).
 */
final class BoundedHttpClient implements HttpClient {

  /** azure-core's context key asking the HTTP client to read the whole body before returning. */
  private static final String EAGERLY_READ = "azure-eagerly-read-response";
  /** The JDK HTTP client's per-request response timeout key. */
  private static final String RESPONSE_TIMEOUT = "azure-response-timeout";
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  /** What a gzip answer is read from the wire in: an answer of a few KB in one read or two, not 512 B at a time. */
  private static final int GZIP_BUFFER = 8192;

  private final HttpClient http;
  private final BoundedAnswers bounds;
  private final Supplier<Deadline> outside;

  /**
   * The JDK HTTP client, trusting {@code ssl} (or the JVM's default when {@code null}), its answers under {@code
   * bounds}, each within what is left of {@code deadline}'s answer when there is one, else the timeout.
   */
  static HttpClient overJdk(SSLContext ssl, BoundedAnswers bounds, Supplier<Deadline> deadline) {
    java.net.http.HttpClient.Builder jdk = java.net.http.HttpClient.newBuilder();
    if (ssl != null) {
      jdk.sslContext(ssl);
    }
    return new BoundedHttpClient(new JdkHttpClientBuilder(jdk)
        .connectionTimeout(CONNECT_TIMEOUT)
        .responseTimeout(bounds.timeout())
        .build(), bounds, deadline);
  }

  /**
   * Answers of {@code http} under {@code bounds}, within the deadline of the call, or else of {@code
   * outside} (which may give {@code null}), or else the timeout.
   */
  BoundedHttpClient(HttpClient http, BoundedAnswers bounds, Supplier<Deadline> outside) {
    this.http = http;
    this.bounds = bounds;
    this.outside = outside;
  }

  @Override
  public Mono<HttpResponse> send(HttpRequest request) {
    return send(request, Context.NONE);
  }

  @Override
  public Mono<HttpResponse> send(HttpRequest request, Context context) {
    Duration within = within();
    return http.send(request, streaming(context, within)).map(r -> new Bounded(r, within));
  }

  @Override
  public HttpResponse sendSync(HttpRequest request, Context context) {
    Duration within = within();
    return new Bounded(http.sendSync(request, streaming(context, within)), within);
  }

  private Duration within() {
    return bounds.within(outside.get());
  }

  /** {@code context}, asking the JDK client to stream the body and to wait for the headers at most {@code within}. */
  private static Context streaming(Context context, Duration within) {
    return context.addData(EAGERLY_READ, false).addData(RESPONSE_TIMEOUT, within);
  }

  /** The request's URL as a URI. */
  static URI uri(HttpRequest request) {
    try {
      return request.getUrl().toURI();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("Not a URI: " + request.getUrl(), e);
    }
  }

  /** One answer whose body, however it is read, is metered. */
  private final class Bounded extends HttpResponse {
    private final HttpResponse answer;
    private final Duration within;
    Bounded(HttpResponse answer, Duration within) {
      super(answer.getRequest());
      this.answer = answer;
      this.within = within;
    }

    @Override
    public int getStatusCode() {
      return answer.getStatusCode();
    }

    @Override
    public String getHeaderValue(String name) {
      return answer.getHeaderValue(name);
    }

    @Override
    public HttpHeaders getHeaders() {
      return answer.getHeaders();
    }

    @Override
    public Flux<ByteBuffer> getBody() {
      if (gzip()) {
        return Flux.defer(() -> Flux.just(ByteBuffer.wrap(inflated())));
      }
      return Flux.defer(() -> {
        AnswerLimit.Meter meter = bounds.meter(uri(getRequest()), within);
        return answer.getBody().handle((buffer, sink) -> {
          try {
            meter.add(buffer.remaining());
            sink.next(buffer);
          } catch (AnswerLimitException e) {
            answer.close(); // ends the exchange: the rest is not read
            sink.error(e);
          }
        });
      });
    }

    @Override
    public Mono<byte[]> getBodyAsByteArray() {
      return FluxUtil.collectBytesInByteBufferStream(getBody());
    }

    @Override
    public Mono<String> getBodyAsString() {
      return getBodyAsString(StandardCharsets.UTF_8); // token endpoints answer JSON, which is UTF-8
    }

    @Override
    public Mono<String> getBodyAsString(Charset charset) {
      return getBodyAsByteArray().map(bytes -> new String(bytes, charset));
    }

    @Override
    public Mono<InputStream> getBodyAsInputStream() {
      return getBodyAsByteArray().map(ByteArrayInputStream::new);
    }

    @Override
    public InputStream getBodyAsInputStreamSync() {
      return new ByteArrayInputStream(inflated());
    }

    @Override
    public BinaryData getBodyAsBinaryData() {
      return BinaryData.fromBytes(inflated());
    }

    /**
     * The whole body under the limit, inflated when it is gzip (a token endpoint may send it unasked): what arrives
     * and what it inflates to are both metered, so a small answer that inflates past the limit stops there.
     */
    private byte[] inflated() {
      URI from = uri(getRequest());
      try (InputStream wire = bounds.stream(answer.getBodyAsInputStreamSync(), from, within);
          InputStream in = gzip() ? bounds.stream(new GZIPInputStream(wire, GZIP_BUFFER), from, within) : wire) {
        byte[] body = in.readAllBytes();
        // GZIPInputStream ends at the trailer without reading the wire to its end, and the JDK client closes
        // a connection whose body stream is closed before its end: the next call would connect (and shake
        // hands) again. Read to the end (metered, still under the deadline), so it goes back to the pool.
        wire.transferTo(OutputStream.nullOutputStream());
        return body;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private boolean gzip() {
      String encoding = answer.getHeaderValue("Content-Encoding");
      return encoding != null && "gzip".equalsIgnoreCase(encoding.trim());
    }

    @Override
    public void close() {
      answer.close();
    }
  }
}
