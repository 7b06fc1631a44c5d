package io.clusterresolver.google;

import com.google.api.client.http.EmptyContent;
import com.google.api.client.http.GenericUrl;
import com.google.api.client.http.HttpRequest;
import com.google.api.client.http.HttpRequestInitializer;
import com.google.api.client.http.HttpResponse;
import com.google.api.client.http.javanet.ConnectionFactory;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.gax.httpjson.GaxHttpJsonProperties;
import com.google.api.gax.rpc.ApiClientHeaderProvider;
import com.google.api.gax.rpc.RequestUrlParamsEncoder;
import com.google.api.pathtemplate.PathTemplate;
import com.google.auth.Credentials;
import com.google.auth.http.HttpCredentialsAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The few REST methods of a Google API that a provider calls, as the SDK's generated HTTP/JSON stub sends
 * them (path, query, {@code x-goog-request-params} routing header, {@code x-goog-api-client}), on Google's own
 * transport and credentials (google-http-client with google-auth's {@link HttpCredentialsAdapter}, which is
 * what gax's channel does for each call) but without gax's call chain: no client context, executors or
 * scheduler thread, callables, retrying or tracing machinery, and no logging interceptor. A call runs on the
 * caller's thread, once: the kit's {@code CloudApi} retries. Its time is bounded by what is left of the
 * resolve's deadline: the connect and read timeouts, which the resolver's bounded connection
 * ({@code AnswerLimit.open}) turns into a bound of the body too, and a {@link CallAlarm} that closes the
 * connection at the deadline if the headers are not in by then (headers trickled a byte at a time).
 *
 * <p>The answer is streamed with gson into the provider's own record, reading only what a resolve uses
 * ({@link GoogleJson}); an answer that is not the JSON expected is a {@link MalformedAnswer}, an error status
 * google-http-client's {@code HttpResponseException} (in an {@link UncheckedIOException}), both read by
 * {@link GoogleFailure}.
 */
public final class GoogleCalls implements AutoCloseable {

  /** The header the SDK's clients send (gl-java/… gax/… rest/…), less the library's token: the same for every call. */
  private static final Map<String, String> API_CLIENT = ApiClientHeaderProvider.newBuilder()
      .setTransportToken(GaxHttpJsonProperties.getHttpJsonTokenName(), GaxHttpJsonProperties.getHttpJsonVersion())
      .build().getHeaders();
  private static final RequestUrlParamsEncoder<Get> ROUTING = new RequestUrlParamsEncoder<>(Get::routing);

  private final ConnectionFactory connections;
  /** Signs each request, or {@code null} without credentials. */
  private final HttpRequestInitializer signer;
  /** The endpoint with its scheme ({@code https://} unless given) and a trailing {@code /}, as gax writes it. */
  private final String base;

  /**
   * Connects as {@code rest} says (credentials, bounded transport, endpoint if overridden).
   *
   * @param defaultEndpoint Google's endpoint of the API, like {@code compute.googleapis.com:443}
   * @throws IOException when the credentials cannot be loaded
   */
  public GoogleCalls(GoogleRest rest, String defaultEndpoint) throws IOException {
    Credentials credentials = rest.credentials();
    this.connections = rest.connections();
    this.signer = credentials == null ? null : new HttpCredentialsAdapter(credentials);
    String endpoint = rest.endpoint() != null ? rest.endpoint().toString() : defaultEndpoint;
    endpoint = endpoint.contains("://") ? endpoint : "https://" + endpoint;
    this.base = endpoint.endsWith("/") ? endpoint : endpoint + "/";
  }

  /**
   * A {@code GET} request.
   *
   * @param path the fields of the method's path template, like {@code project}
   * @param query the query parameters, by the names the API takes (like {@code maxResults})
   * @param routing the fields sent in the {@code x-goog-request-params} header, as the SDK's stub sends them
   */
  public record Get(Map<String, String> path, Map<String, List<String>> query, Map<String, String> routing) {
    public Get {
      path = Map.copyOf(path);
      query = Map.copyOf(query);
      routing = Map.copyOf(routing);
    }
  }

  /** Reads a whole answer: the reader is at its start. */
  @FunctionalInterface
  public interface Answer<R> {
    /** Reads the answer's top-level value. */
    R read(JsonReader in) throws IOException;
  }

  /**
   * A {@code GET} method of a Google REST API, as the SDK's generated stub declares it.
   *
   * @param fullName the RPC's full name, like {@code google.cloud.tpu.v2.Tpu/GetNode} (named in errors)
   * @param path the path template
   * @param answer reads the answer
   */
  public record Method<R>(String fullName, PathTemplate path, Answer<R> answer) {}

  /**
   * A {@code GET} method.
   *
   * @param path the path template, like {@code /v2/{name=projects/*&#47;locations/*&#47;nodes/*}}
   */
  public static <R> Method<R> get(String fullName, String path, Answer<R> answer) {
    return new Method<>(fullName, PathTemplate.create(path), answer);
  }

  /**
   * Calls {@code method} once, waiting at most {@code remaining} for the whole answer.
   *
   * @throws UncheckedIOException when there is no answer or an error status ({@code HttpResponseException})
   * @throws MalformedAnswer when the answer is not the JSON expected (or not within the answer limit)
   */
  public <R> R call(Method<R> method, Get request, Duration remaining) {
    // The path escaped as the SDK's formatter escapes it, the query as gax sets it on the URL.
    GenericUrl url = new GenericUrl(base + method.path().instantiate(request.path()));
    request.query().forEach(url::set);
    int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, remaining.toMillis()));
    CallAlarm alarm = new CallAlarm(connections, millis);
    try {
      // Empty content, as gax sends a GET: the transport then sends Content-Length: 0 (no 411 from a proxy).
      HttpRequest http = new NetHttpTransport.Builder().setConnectionFactory(alarm).build().createRequestFactory(signer)
          .buildRequest("GET", url, new EmptyContent());
      http.setConnectTimeout(millis).setReadTimeout(millis);
      http.getHeaders().putAll(API_CLIENT);
      String routing = ROUTING.encode(request);
      if (!routing.isEmpty()) {
        http.getHeaders().set("x-goog-request-params", routing);
      }
      HttpResponse response = http.execute();
      alarm.close();
      if (alarm.rang()) {
        throw timedOut(method, millis); // the alarm closed the connection
      }
      return read(method, response.getContent());
    } catch (IOException e) {
      alarm.close();
      throw alarm.rang() ? timedOut(method, millis) : new UncheckedIOException(e);
    } catch (RuntimeException e) {
      alarm.close();
      throw alarm.rang() ? timedOut(method, millis) : e;
    }
  }

  /** The call's time ran out (the alarm closed its connection): whatever the transport made of that, not an answer. */
  private static UncheckedIOException timedOut(Method<?> method, int millis) {
    return new UncheckedIOException(new SocketTimeoutException(method.fullName() + ": no whole answer within " + millis
        + " ms"));
  }

  /** Streams an answer into the provider's record; anything but one well-formed JSON value is an error. */
  private static <R> R read(Method<R> method, InputStream body) {
    try (JsonReader in = new JsonReader(new InputStreamReader(body == null ? InputStream.nullInputStream() : body,
        StandardCharsets.UTF_8))) {
      R read = method.answer().read(in);
      if (in.peek() != JsonToken.END_DOCUMENT) {
        throw new IOException("more after the answer's JSON value at " + in.getPath());
      }
      return read;
    } catch (IOException | IllegalStateException | NumberFormatException e) {
      throw new MalformedAnswer("the answer of " + method.fullName() + " is not the JSON expected: " + e.getMessage(),
          e);
    }
  }

  /** Nothing to close: no pool of its own (connections are the JDK's keep-alive cache, the alarm's thread a daemon). */
  @Override
  public void close() {}

  /** An answer that is not the JSON a method answers, or one cut short by the answer limit (its cause). */
  public static final class MalformedAnswer extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MalformedAnswer(String message, Exception cause) {
      super(message, cause);
    }
  }
}
