package io.clusterresolver.google;

import com.google.api.gax.core.BackgroundResource;
import com.google.api.gax.httpjson.ApiMethodDescriptor;
import com.google.api.gax.httpjson.FieldsExtractor;
import com.google.api.gax.httpjson.HttpJsonCallSettings;
import com.google.api.gax.httpjson.HttpJsonCallableFactory;
import com.google.api.gax.httpjson.ProtoMessageRequestFormatter;
import com.google.api.gax.httpjson.ProtoMessageResponseParser;
import com.google.api.gax.httpjson.ProtoRestSerializer;
import com.google.api.gax.rpc.ClientContext;
import com.google.api.gax.rpc.RequestParamsExtractor;
import com.google.api.gax.rpc.StubSettings;
import com.google.api.gax.rpc.UnaryCallSettings;
import com.google.api.gax.rpc.UnaryCallable;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.TypeRegistry;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The few REST methods of a Google API that a provider calls, on gax's HTTP/JSON transport with the
 * SDK's settings and messages, without the SDK's generated stub: a stub builds the request formatter
 * of every method of its service when it is created (Compute Engine's Instances: 243 classes) and an
 * operations client besides, which a cold resolve paid for one or two calls (issue 23). Each method
 * is described as the generated stub describes it (path, query parameters, routing header), and
 * called through gax's own callable chain (exceptions, its retry settings, tracing, call context).
 */
public final class GoogleCalls implements AutoCloseable {

  private final ClientContext context;

  /** Connects as {@code settings} say (credentials, transport, endpoint): see {@link GoogleRest#connect}. */
  public GoogleCalls(StubSettings<?> settings) throws IOException {
    this.context = ClientContext.create(settings);
  }

  /**
   * A {@code GET} method of a Google REST API, as the SDK's generated stub declares it.
   *
   * @param fullName the RPC's full name, like {@code google.cloud.tpu.v2.Tpu/GetNode}
   * @param path the path template, like {@code /v2/{name=projects/*&#47;locations/*&#47;nodes/*}}
   * @param pathParams the template's fields of a request
   * @param queryParams the query parameters of a request
   * @param answer the answer's default instance
   * @param types the types an answer's {@code Any} fields may hold
   */
  public static <Q extends Message, R extends Message> ApiMethodDescriptor<Q, R> get(String fullName, String path,
      FieldsExtractor<Q, Map<String, String>> pathParams, FieldsExtractor<Q, Map<String, List<String>>> queryParams,
      R answer, TypeRegistry types) {
    return ApiMethodDescriptor.<Q, R>newBuilder().setFullMethodName(fullName).setHttpMethod("GET")
        .setType(ApiMethodDescriptor.MethodType.UNARY)
        .setRequestFormatter(ProtoMessageRequestFormatter.<Q>newBuilder().setPath(path, pathParams)
            .setQueryParamsExtractor(queryParams).setRequestBodyExtractor(request -> null).build())
        .setResponseParser(ProtoMessageResponseParser.<R>newBuilder().setDefaultInstance(answer)
            .setDefaultTypeRegistry(types).build())
        .build();
  }

  /** A request's path fields, as the generated stub puts them: {@code fields} by their proto names. */
  public static Map<String, String> pathParams(Message request, String... fields) {
    Map<String, String> params = new HashMap<>();
    ProtoRestSerializer<Message> serializer = ProtoRestSerializer.create();
    for (String name : fields) {
      serializer.putPathParam(params, name, request.getField(request.getDescriptorForType().findFieldByName(name)));
    }
    return params;
  }

  /** A request's query parameters: each of {@code fields} (proto names) that is set, by its JSON name, as the stub sends it. */
  public static Map<String, List<String>> queryParams(Message request, String... fields) {
    Map<String, List<String>> params = new HashMap<>();
    ProtoRestSerializer<Message> serializer = ProtoRestSerializer.create();
    for (String name : fields) {
      FieldDescriptor field = request.getDescriptorForType().findFieldByName(name);
      if (request.hasField(field)) {
        serializer.putQueryParam(params, field.getJsonName(), request.getField(field));
      }
    }
    return params;
  }

  /**
   * The callable of {@code method} with the SDK's {@code settings} for it (for a paged method, its
   * page call's), sending {@code routing} as the {@code x-goog-request-params} header.
   */
  @SuppressWarnings("unchecked")
  public <Q, R> UnaryCallable<Q, R> unary(ApiMethodDescriptor<Q, R> method, UnaryCallSettings<Q, ?> settings,
      TypeRegistry types, RequestParamsExtractor<Q> routing) {
    HttpJsonCallSettings<Q, R> call = HttpJsonCallSettings.<Q, R>newBuilder().setMethodDescriptor(method)
        .setTypeRegistry(types).setParamsExtractor(routing).build();
    // A paged method's settings are its page call's settings, typed for the paged answer (the SDK's stub does this too).
    return HttpJsonCallableFactory.createUnaryCallable(call, (UnaryCallSettings<Q, R>) settings, context);
  }

  /** Closes the transport and the executor (gax's scheduler thread would keep a program from exiting). */
  @Override
  public void close() throws Exception {
    for (BackgroundResource resource : context.getBackgroundResources()) {
      resource.close();
    }
  }
}
