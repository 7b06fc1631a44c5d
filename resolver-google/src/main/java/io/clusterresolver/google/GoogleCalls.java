package io.clusterresolver.google;

import com.google.api.client.http.HttpHeaders;
import com.google.api.client.http.HttpResponseException;
import com.google.api.client.util.escape.CharEscapers;
import com.google.api.gax.httpjson.GaxHttpJsonProperties;
import com.google.api.gax.rpc.ApiClientHeaderProvider;
import com.google.api.gax.rpc.RequestUrlParamsEncoder;
import com.google.api.pathtemplate.PathTemplate;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.clusterresolver.cloud.CloudHttp;
import io.clusterresolver.cloud.MalformedAnswerException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The few REST methods of a Google API that a provider calls, as the SDK's generated HTTP/JSON stub sends
 * them (path, query, {@code x-goog-request-params} routing header, {@code x-goog-api-client}), with google-auth's
 * credentials, but on the kit's {@link CloudHttp} (the JDK's {@code HttpURLConnection}) alone: no gax call chain (client context, executors,
 * callables, retrying or tracing machinery, logging interceptor), and no google-http-client request either, whose
 * first use reads the annotations of its headers class reflectively (generating accessor classes), starts
 * OpenCensus tracing and the time-zone data for a date parser, none of which a {@code GET} needs. What google-http-client
 * did for these calls is done the same way here: the URL escaped as its {@code GenericUrl} escapes it,
 * {@code Accept-Encoding: gzip} with a gzip answer unpacked, the credentials' request metadata as headers (what
 * google-auth's {@code HttpCredentialsAdapter} adds) and one refresh of them after a 401, and an error status as its
 * {@link HttpResponseException}, and redirects followed without the credentials. A call runs on the caller's
 * thread, once: the kit's {@code CloudApi} retries. Its time is bounded by what is left of the resolve's deadline
 * ({@link CloudHttp}: the body in bytes and time, the headers by the deadline).
 *
 * <p>The answer is streamed with gson into the provider's own record, reading only what a resolve uses
 * ({@link GoogleJson}); an answer that is not the JSON expected is the kit's {@link MalformedAnswerException}, an error
 * status an {@link HttpResponseException} (in an {@link UncheckedIOException}), both read by {@link GoogleFailure}.
 */
public final class GoogleCalls {

  /** The header the SDK's clients send (gl-java/… gax/… rest/…), less the library's token: the same for every call. */
  private static final Map<String, String> API_CLIENT = ApiClientHeaderProvider.newBuilder()
      .setTransportToken(GaxHttpJsonProperties.getHttpJsonTokenName(), GaxHttpJsonProperties.getHttpJsonVersion())
      .build().getHeaders();
  private static final RequestUrlParamsEncoder<Get> ROUTING = new RequestUrlParamsEncoder<>(Get::routing);
  /** Google's front ends compress an answer only for a client whose user agent says "gzip", as google-http-client's does. */
  private static final String USER_AGENT = "cluster-resolver (gzip)";
  /** The body's type, as gax's HTTP/JSON transport sends it. */
  private static final String JSON_CONTENT = "application/json; charset=utf-8";
  /** The exchange: google-http-client follows redirects (without the credentials), and so does it. */
  private final CloudHttp http;
  /** The credentials' request metadata as headers, refreshed once after a 401 (none without credentials). */
  private final CloudHttp.Authorization authorization;
  /** The endpoint with its scheme ({@code https://} unless given) and a trailing {@code /}, as gax writes it. */
  private final String base;

  /**
   * Connects as {@code rest} says (credentials, bounded transport, endpoint if overridden).
   *
   * @param defaultEndpoint Google's endpoint of the API, like {@code compute.googleapis.com:443}
   * @throws IOException when the credentials cannot be loaded
   */
  public GoogleCalls(GoogleRest rest, String defaultEndpoint) throws IOException {
    this.http = new CloudHttp(rest.limit(), CloudHttp.Redirects.FOLLOWED_WITHOUT_CREDENTIALS, null);
    this.authorization = rest.authorization();
    String endpoint = rest.endpoint() != null ? rest.endpoint().toString() : defaultEndpoint;
    endpoint = endpoint.contains("://") ? endpoint : "https://" + endpoint;
    this.base = endpoint.endsWith("/") ? endpoint : endpoint + "/";
  }

  /**
   * A request's path, query and routing header: a {@code GET}'s whole request, a {@code POST}'s besides its body
   * ({@link #post}).
   *
   * @param path the fields of the method's path template, like {@code project}
   * @param query the query parameters, by the names the API takes (like {@code maxResults})
   * @param routing the fields sent in the {@code x-goog-request-params} header, as the SDK's stub sends them
   */
  public record Get(Map<String, String> path, Map<String, List<String>> query, Map<String, String> routing) {
    public Get {
      path = Map.copyOf(path);
      // The query and the header in the order given, as the SDK's stub sends them.
      query = Collections.unmodifiableMap(new LinkedHashMap<>(query));
      routing = Collections.unmodifiableMap(new LinkedHashMap<>(routing));
    }
  }

  /** Reads a whole answer: the reader is at its start. */
  @FunctionalInterface
  public interface Answer<R> {
    /** Reads the answer's top-level value. */
    R read(JsonReader in) throws IOException;
  }

  /**
   * A method of a Google REST API, as the SDK's generated stub declares it (sent by {@link #call} or {@link #post}).
   *
   * @param fullName the RPC's full name, like {@code google.cloud.tpu.v2.Tpu/GetNode} (named in errors)
   * @param path the path template
   * @param answer reads the answer
   */
  public record Method<R>(String fullName, PathTemplate path, Answer<R> answer) {}

  /**
   * A method by its path template: sent as a {@code GET} by {@link #call}, as a {@code POST} by {@link #post}.
   *
   * @param path the path template, like {@code /v2/{name=projects/*&#47;locations/*&#47;nodes/*}}
   */
  public static <R> Method<R> get(String fullName, String path, Answer<R> answer) {
    return new Method<>(fullName, PathTemplate.create(path), answer);
  }

  /**
   * Calls {@code method} once with a {@code GET}, waiting at most {@code remaining} for the whole answer.
   *
   * @throws UncheckedIOException when there is no answer or an error status ({@code HttpResponseException})
   * @throws MalformedAnswerException when the answer is not the JSON expected (or not within the answer limit)
   */
  public <R> R call(Method<R> method, Get request, Duration remaining) {
    return call(method, request, null, remaining);
  }

  /**
   * Calls {@code method} once with a {@code POST} of a JSON body (as the SDK's stub sends a method whose HTTP rule
   * has a body, like Compute Engine's {@code instanceGroups.listInstances}), waiting at most {@code remaining} for
   * the whole answer. Everything else is as {@link #call}'s: headers, credentials and their refresh after a 401,
   * redirects (a 303 turns it into a {@code GET} without the body, as google-http-client does), errors and bounds.
   *
   * @param json the request's body, a JSON object, sent as UTF-8
   * @throws UncheckedIOException when there is no answer or an error status ({@code HttpResponseException})
   * @throws MalformedAnswerException when the answer is not the JSON expected (or not within the answer limit)
   */
  public <R> R post(Method<R> method, Get request, String json, Duration remaining) {
    return call(method, request, json.getBytes(StandardCharsets.UTF_8), remaining);
  }

  /** Calls {@code method} once: a {@code POST} of {@code json} when given, else a {@code GET}. */
  private <R> R call(Method<R> method, Get request, byte[] json, Duration remaining) {
    try {
      URI uri = url(method, request);
      CloudHttp.Request sent = json == null ? CloudHttp.Request.get(uri) : CloudHttp.Request.post(uri, JSON_CONTENT, json);
      sent = sent.with("Accept-Encoding", "gzip").with("User-Agent", USER_AGENT);
      for (Map.Entry<String, String> header : API_CLIENT.entrySet()) {
        sent = sent.with(header.getKey(), header.getValue());
      }
      String routing = ROUTING.encode(request);
      if (!routing.isEmpty()) {
        sent = sent.with("x-goog-request-params", routing);
      }
      try (CloudHttp.Answer answer = http.send(sent, authorization, remaining)) {
        if (answer.status() / 100 != 2) {
          throw new UncheckedIOException(errorAnswer(answer));
        }
        return read(method, answer.body());
      }
    } catch (SocketTimeoutException e) {
      throw new UncheckedIOException(new SocketTimeoutException(method.fullName() + ": " + e.getMessage()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The request's URL: the path and query escaped as google-http-client's {@code GenericUrl} escapes them. */
  private URI url(Method<?> method, Get request) {
    StringBuilder url = new StringBuilder(base);
    String[] segments = method.path().instantiate(request.path()).split("/", -1);
    for (int i = 0; i < segments.length; i++) {
      if (i > 0) {
        url.append('/');
      }
      url.append(CharEscapers.escapeUriPath(CharEscapers.decodeUriPath(segments[i])));
    }
    char separator = '?';
    for (Map.Entry<String, List<String>> parameter : request.query().entrySet()) {
      String name = CharEscapers.escapeUriQuery(parameter.getKey());
      for (String value : parameter.getValue()) {
        url.append(separator).append(name);
        separator = '&';
        String escaped = CharEscapers.escapeUriQuery(value);
        if (!escaped.isEmpty()) {
          url.append('=').append(escaped);
        }
      }
    }
    return URI.create(url.toString());
  }

  /**
   * An error status as google-http-client reports it, for {@link GoogleFailure}: status, reason, headers and body.
   * The headers typed as numbers in its {@link HttpHeaders} (Content-Length, Age) are not copied: nothing reads them.
   */
  private static HttpResponseException errorAnswer(CloudHttp.Answer answer) throws IOException {
    HttpHeaders headers = new HttpHeaders();
    answer.headers().forEach((name, values) -> {
      if (name != null && !name.equalsIgnoreCase("Content-Length") && !name.equalsIgnoreCase("Age")) {
        headers.set(name, List.copyOf(values));
      }
    });
    String content = answer.text();
    String reason = answer.reason();
    return new HttpResponseException.Builder(answer.status(), reason, headers).setContent(content)
        .setMessage(answer.status() + " " + reason + "\n" + answer.request().method() + " " + answer.request().uri())
        .build();
  }

  /** Streams an answer into the provider's record; anything but one well-formed JSON value is an error. */
  private static <R> R read(Method<R> method, InputStream body) {
    try (JsonReader in = new JsonReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
      R read = method.answer().read(in);
      if (in.peek() != JsonToken.END_DOCUMENT) {
        throw new IOException("more after the answer's JSON value at " + in.getPath());
      }
      return read;
    } catch (IOException | IllegalStateException | NumberFormatException e) {
      throw new MalformedAnswerException("the answer of " + method.fullName() + " is not the JSON expected: "
          + e.getMessage(), e);
    }
  }
}
