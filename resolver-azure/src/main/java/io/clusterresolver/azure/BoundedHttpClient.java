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
import io.clusterresolver.cloud.Deadline;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An azure-core {@link HttpClient} whose answers are read under an {@link AnswerLimit}: at most its
 * size, and the whole body within the call's remaining time (the resolve's {@link Deadline} in the
 * call's context). The JDK client it wraps would otherwise read a whole body into memory before the
 * SDK sees it (its "eager" read, bounded per read only), so it is asked to stream, and the body is
 * metered here as it arrives. A successful answer to a call marked as a listing ({@link ArmListAnswer})
 * must be one.
 */
final class BoundedHttpClient implements HttpClient {

  /** azure-core's context key asking the HTTP client to read the whole body before returning. */
  private static final String EAGERLY_READ = "azure-eagerly-read-response";
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final HttpClient http;
  private final AnswerLimit limit;
  private final Duration defaultTime;

  /**
   * The JDK HTTP client, trusting {@code ssl} (or the JVM's default when {@code null}), its answers
   * under {@code limit} and each within {@code timeout} (or what is left of the call's deadline).
   */
  static HttpClient overJdk(SSLContext ssl, Duration timeout, AnswerLimit limit) {
    java.net.http.HttpClient.Builder jdk = java.net.http.HttpClient.newBuilder();
    if (ssl != null) {
      jdk.sslContext(ssl);
    }
    return new BoundedHttpClient(new JdkHttpClientBuilder(jdk)
        .connectionTimeout(CONNECT_TIMEOUT)
        .responseTimeout(timeout)
        .build(), limit, timeout);
  }

  /** Answers of {@code http} under {@code limit}, within the deadline of the call or else {@code defaultTime}. */
  BoundedHttpClient(HttpClient http, AnswerLimit limit, Duration defaultTime) {
    this.http = http;
    this.limit = limit;
    this.defaultTime = defaultTime;
  }

  @Override
  public Mono<HttpResponse> send(HttpRequest request) {
    return send(request, Context.NONE);
  }

  @Override
  public Mono<HttpResponse> send(HttpRequest request, Context context) {
    Duration within = within(context);
    boolean list = ArmListAnswer.marked(context);
    return http.send(request, context.addData(EAGERLY_READ, false)).map(r -> new Bounded(r, within, list));
  }

  @Override
  public HttpResponse sendSync(HttpRequest request, Context context) {
    return new Bounded(http.sendSync(request, context.addData(EAGERLY_READ, false)), within(context),
        ArmListAnswer.marked(context));
  }

  private Duration within(Context context) {
    return context.getData(DeadlinePolicy.DEADLINE).map(d -> ((Deadline) d).remaining()).orElse(defaultTime);
  }

  /** {@code https://management.azure.com:443}: where the answer came from, without path or query. */
  private static String endpoint(HttpRequest request) {
    URL url = request.getUrl();
    return url.getProtocol() + "://" + url.getHost() + ":" + (url.getPort() < 0 ? url.getDefaultPort() : url.getPort());
  }

  /** One answer whose body, however it is read, is metered. */
  private final class Bounded extends HttpResponse {
    private final HttpResponse answer;
    private final Duration within;
    /** Whether a successful body must be a list answer. */
    private final boolean list;

    Bounded(HttpResponse answer, Duration within, boolean list) {
      super(answer.getRequest());
      this.answer = answer;
      this.within = within;
      this.list = list;
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
      return Flux.defer(() -> {
        AnswerLimit.Meter meter = limit.meter(endpoint(getRequest()), within);
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
      return FluxUtil.collectBytesInByteBufferStream(getBody()).map(this::checked);
    }

    @Override
    public Mono<String> getBodyAsString() {
      return getBodyAsString(StandardCharsets.UTF_8); // ARM answers JSON, which is UTF-8
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
      return new ByteArrayInputStream(bytes());
    }

    @Override
    public BinaryData getBodyAsBinaryData() {
      return BinaryData.fromBytes(bytes());
    }

    /** The whole body, read from the answer's stream (the synchronous path) under the limit. */
    private byte[] bytes() {
      try (InputStream in = limit.bound(answer.getBodyAsInputStreamSync(), endpoint(getRequest()), within)) {
        return checked(in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private byte[] checked(byte[] body) {
      if (list && getStatusCode() / 100 == 2) {
        ArmListAnswer.require(body, endpoint(getRequest()));
      }
      return body;
    }

    @Override
    public void close() {
      answer.close();
    }
  }
}
