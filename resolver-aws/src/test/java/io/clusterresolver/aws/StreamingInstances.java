package io.clusterresolver.aws;

import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.AnswerLimitException;
import io.clusterresolver.cloud.BoundedAnswers;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import javax.xml.stream.XMLStreamException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Reads a successful {@code DescribeInstances} answer with {@link InstancePage} (and a {@code DescribeInstanceTypes}
 * one with {@link InstanceTypeAccelerators}) instead of the SDK's unmarshaller, for requests that carry a
 * {@link #SINK} (a {@link #TYPES_SINK}), which is given what was read as soon as it is read (before the SDK's
 * own handling of the answer ends): the SDK keeps doing what it does well —
 * credentials, SigV4 signing, endpoints, retries and throttling, HTTP, and error answers — and only
 * the body of a 200 is read here, once, keeping the fields a member needs. The SDK then unmarshals
 * an empty body in its place (an empty answer, at no cost). Requests without a sink are read by the SDK.
 *
 * <p>Every body, of every request and status, is read under the kit's {@link BoundedAnswers}: at most
 * the limit, and all of it within the request's call timeout (the SDK's socket timeout bounds each read
 * only, so a body trickled a byte at a time would run on).
 */
final class StreamingInstances implements ExecutionInterceptor {

  /** Who is given the page read from the answer, one per request. */
  static final ExecutionAttribute<Consumer<InstancePage>> SINK =
      new ExecutionAttribute<>("io.clusterresolver.aws.InstancePage");

  /** Who is given the accelerators read from a {@code DescribeInstanceTypes} answer, one per request. */
  static final ExecutionAttribute<Consumer<InstanceTypeAccelerators>> TYPES_SINK =
      new ExecutionAttribute<>("io.clusterresolver.aws.InstanceTypeAccelerators");

  /** An empty body: the SDK's unmarshaller then makes an empty answer without starting an XML parser. */
  private static final byte[] EMPTY_PAGE = new byte[0];

  private final BoundedAnswers bounds;

  /** Bodies under {@code limit}, within a request's call timeout (what is left of the deadline) or else {@code timeout}. */
  StreamingInstances(AnswerLimit limit, Duration timeout) {
    this.bounds = BoundedAnswers.of(limit, timeout);
  }

  @Override
  public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
      ExecutionAttributes attributes) {
    Consumer<InstancePage> sink = attributes.getAttribute(SINK);
    Consumer<InstanceTypeAccelerators> types = attributes.getAttribute(TYPES_SINK);
    Optional<InputStream> body = context.responseBody().map(b -> bounds.stream(b, context.httpRequest().getUri(),
        context.request().overrideConfiguration().flatMap(c -> c.apiCallTimeout()).orElse(bounds.timeout())));
    if ((sink == null && types == null) || !context.httpResponse().isSuccessful() || body.isEmpty()) {
      return body;
    }
    try (InputStream in = body.get()) {
      if (sink != null) {
        sink.accept(InstancePage.read(in));
      } else {
        types.accept(InstanceTypeAccelerators.read(in));
      }
    } catch (XMLStreamException | IOException e) {
      AnswerLimitException limit = limitBroken(e);
      if (limit != null) {
        throw SdkClientException.create(limit.getMessage(), limit);
      }
      // The same words as the SDK's own unmarshalling failure, so it is explained the same way.
      throw SdkClientException.create("Unable to unmarshall response (" + e.getMessage() + ")", e);
    }
    return Optional.of(new ByteArrayInputStream(EMPTY_PAGE));
  }

  /** The limit the body broke, if that is why it could not be read: StAX keeps it as its "nested" exception. */
  private static AnswerLimitException limitBroken(Exception e) {
    AnswerLimitException limit = AnswerLimitException.find(e);
    if (limit == null && e instanceof XMLStreamException) {
      Throwable nested = ((XMLStreamException) e).getNestedException();
      limit = nested == null ? null : AnswerLimitException.find(nested);
    }
    return limit;
  }
}
