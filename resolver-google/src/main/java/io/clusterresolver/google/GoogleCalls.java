package io.clusterresolver.google;

import com.google.api.gax.core.BackgroundResource;
import com.google.api.gax.httpjson.ApiMethodDescriptor;
import com.google.api.gax.httpjson.GaxHttpJsonProperties;
import com.google.api.gax.httpjson.HttpJsonCallSettings;
import com.google.api.gax.httpjson.HttpJsonCallableFactory;
import com.google.api.gax.httpjson.HttpRequestFormatter;
import com.google.api.gax.httpjson.HttpResponseParser;
import com.google.api.gax.httpjson.RestSerializationException;
import com.google.api.gax.rpc.ApiClientHeaderProvider;
import com.google.api.gax.rpc.ClientContext;
import com.google.api.gax.rpc.StubSettings;
import com.google.api.gax.rpc.UnaryCallSettings;
import com.google.api.gax.rpc.UnaryCallable;
import com.google.api.pathtemplate.PathTemplate;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.protobuf.TypeRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The few REST methods of a Google API that a provider calls, on gax's HTTP/JSON transport (its
 * credentials, channel, call context, deadline, exceptions with the HTTP status, tracing) without the
 * SDK's generated stub, settings or messages: a stub builds the request formatter of every method of its
 * service and an operations client, its settings describe every method, and its messages build the API's
 * whole protobuf descriptor (Compute Engine's is one file for the whole API) and are filled by protobuf's
 * reflective {@code JsonFormat}. Here a request is a {@link Get} (the path's fields, the query, the routing
 * header) and the answer is streamed with gson into the provider's own record, reading only what a resolve
 * uses ({@link GoogleJson}); an answer that is not the JSON expected is a {@link RestSerializationException}
 * (a malformed answer for {@link GoogleFailure}), and each call is one attempt ({@link GoogleRest#oneAttempt}).
 */
public final class GoogleCalls implements AutoCloseable {

  private final ClientContext context;
  private final Duration ceiling;

  /**
   * Connects as {@code rest} says (credentials, bounded transport, endpoint if overridden).
   *
   * @param serviceName the API's service name, like {@code compute}
   * @param defaultEndpoint Google's endpoint of the API, like {@code compute.googleapis.com:443}
   * @param ceiling the longest any one call may take (each call's context sets its own, shorter timeout)
   * @throws IOException when the credentials cannot be loaded
   */
  public GoogleCalls(GoogleRest rest, String serviceName, String defaultEndpoint, Duration ceiling) throws IOException {
    this.context = ClientContext.create(rest.connect(new Settings.Builder(serviceName, defaultEndpoint)).build());
    this.ceiling = ceiling;
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
   * @param fullName the RPC's full name, like {@code google.cloud.tpu.v2.Tpu/GetNode} (the tracing span)
   * @param path the path template, like {@code /v2/{name=projects/*&#47;locations/*&#47;nodes/*}}
   * @param answer reads the answer
   */
  public static <R> ApiMethodDescriptor<Get, R> get(String fullName, String path, Answer<R> answer) {
    return ApiMethodDescriptor.<Get, R>newBuilder().setFullMethodName(fullName).setHttpMethod("GET")
        .setType(ApiMethodDescriptor.MethodType.UNARY)
        .setRequestFormatter(new GetFormatter(PathTemplate.create(path)))
        .setResponseParser(new StreamingParser<>(fullName, answer))
        .build();
  }

  /** The callable of {@code method}: one attempt, bounded by the ceiling, sending the request's routing header. */
  public <R> UnaryCallable<Get, R> unary(ApiMethodDescriptor<Get, R> method) {
    UnaryCallSettings.Builder<Get, R> settings = UnaryCallSettings.newUnaryCallSettingsBuilder();
    GoogleRest.oneAttempt(settings, ceiling);
    HttpJsonCallSettings<Get, R> call = HttpJsonCallSettings.<Get, R>newBuilder().setMethodDescriptor(method)
        .setParamsExtractor(Get::routing).build();
    return HttpJsonCallableFactory.createUnaryCallable(call, settings.build(), context);
  }

  /** Closes the transport and the executor (gax's scheduler thread would keep a program from exiting). */
  @Override
  public void close() throws Exception {
    for (BackgroundResource resource : context.getBackgroundResources()) {
      resource.close();
    }
  }

  /** The path from its template (values escaped as the SDK's formatter escapes them), the query, no body. */
  private record GetFormatter(PathTemplate template) implements HttpRequestFormatter<Get> {
    @Override
    public Map<String, List<String>> getQueryParamNames(Get request) {
      return request.query();
    }

    @Override
    public String getRequestBody(Get request) {
      return null;
    }

    @Override
    public String getPath(Get request) {
      return template.instantiate(request.path());
    }

    @Override
    public PathTemplate getPathTemplate() {
      return template;
    }
  }

  /** Streams an answer into the provider's record; anything but one well-formed JSON value is an error. */
  private record StreamingParser<R>(String method, Answer<R> answer) implements HttpResponseParser<R> {
    @Override
    public R parse(InputStream in) {
      return parse(in, null);
    }

    @Override
    public R parse(InputStream in, TypeRegistry types) {
      return parse(new InputStreamReader(in, StandardCharsets.UTF_8), types);
    }

    @Override
    public R parse(Reader text, TypeRegistry types) {
      try (JsonReader in = new JsonReader(text)) {
        R read = answer.read(in);
        if (in.peek() != JsonToken.END_DOCUMENT) {
          throw new IOException("more after the answer's JSON value at " + in.getPath());
        }
        return read;
      } catch (IOException | IllegalStateException | NumberFormatException e) {
        throw new RestSerializationException("the answer of " + method + " is not the JSON expected: " + e.getMessage(),
            e);
      }
    }

    @Override
    public String serialize(R answer) {
      throw new UnsupportedOperationException("answers are only read");
    }
  }

  /** gax's client settings with nothing but the connection: no method of the SDK's described. */
  private static final class Settings extends StubSettings<Settings> {
    private final String serviceName;

    private Settings(Builder builder) {
      super(builder);
      this.serviceName = builder.serviceName;
    }

    @Override
    protected String getServiceName() {
      return serviceName;
    }

    @Override
    public Builder toBuilder() {
      return new Builder(this);
    }

    static final class Builder extends StubSettings.Builder<Settings, Builder> {
      private final String serviceName;

      Builder(String serviceName, String defaultEndpoint) {
        super((ClientContext) null);
        this.serviceName = serviceName;
        setEndpoint(defaultEndpoint);
        // The header the SDK's clients send (x-goog-api-client: gl-java/… gax/… rest/…), less the library's token.
        setInternalHeaderProvider(ApiClientHeaderProvider.newBuilder()
            .setTransportToken(GaxHttpJsonProperties.getHttpJsonTokenName(), GaxHttpJsonProperties.getHttpJsonVersion())
            .build());
      }

      Builder(Settings settings) {
        super(settings);
        this.serviceName = settings.serviceName;
      }

      @Override
      public Settings build() {
        return new Settings(this);
      }
    }
  }
}
