package io.clusterresolver.aws;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import javax.xml.stream.XMLStreamException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Reads a successful {@code DescribeInstances} answer with {@link InstancePage} instead of the SDK's
 * unmarshaller, for requests that carry a {@link #SINK}: the SDK keeps doing what it does well —
 * credentials, SigV4 signing, endpoints, retries and throttling, HTTP, and error answers — and only
 * the body of a 200 is read here, once, keeping the fields a member needs. The SDK then unmarshals
 * an empty body in its place (an empty page, at no cost). Requests without a sink are left alone.
 */
final class StreamingInstances implements ExecutionInterceptor {

  /** Where the page read from the answer is put, one per request. */
  static final ExecutionAttribute<AtomicReference<InstancePage>> SINK =
      new ExecutionAttribute<>("io.clusterresolver.aws.InstancePage");

  /** An empty body: the SDK's unmarshaller then makes an empty page without starting an XML parser. */
  private static final byte[] EMPTY_PAGE = new byte[0];

  @Override
  public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
      ExecutionAttributes attributes) {
    AtomicReference<InstancePage> sink = attributes.getAttribute(SINK);
    Optional<InputStream> body = context.responseBody();
    if (sink == null || !context.httpResponse().isSuccessful() || body.isEmpty()) {
      return body;
    }
    try (InputStream in = body.get()) {
      sink.set(InstancePage.read(in));
    } catch (XMLStreamException | IOException e) {
      // The same words as the SDK's own unmarshalling failure, so it is explained the same way.
      throw SdkClientException.create("Unable to unmarshall response (" + e.getMessage() + ")", e);
    }
    return Optional.of(new ByteArrayInputStream(EMPTY_PAGE));
  }
}
