package io.clusterresolver.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.Context;
import io.clusterresolver.cloud.Deadline;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * Bounds each request of the pipeline by what is left of the resolve's {@link Deadline} (carried in
 * the call's {@link Context}): the JDK client's response timeout and, on the async path, the answer
 * itself. It does not retry, and the pipeline has no azure-core {@code RetryPolicy} either: the kit's
 * {@code CloudApi} retries each call ({@link AzureMemberSource#API}), so nothing is retried twice.
 */
final class DeadlinePolicy implements HttpPipelinePolicy {

  /** Context key of the resolve's {@link Deadline}. */
  static final String DEADLINE = "clusterresolver-deadline";
  /** The JDK HTTP client's per-request response timeout key. */
  private static final String RESPONSE_TIMEOUT = "azure-response-timeout";

  /** A call context carrying the deadline. */
  static Context context(Deadline deadline) {
    return new Context(DEADLINE, deadline);
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    Duration remaining = bound(context);
    Mono<HttpResponse> call = next.process();
    return remaining == null ? call : call.timeout(remaining);
  }

  @Override
  public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    bound(context);
    return next.processSync();
  }

  /** Sets the response timeout to what is left of the deadline; {@code null} without one. */
  private static Duration bound(HttpPipelineCallContext context) {
    Deadline deadline = (Deadline) context.getData(DEADLINE).orElse(null);
    if (deadline == null) {
      return null;
    }
    Duration remaining = deadline.remaining();
    Duration positive = remaining.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : remaining;
    context.setData(RESPONSE_TIMEOUT, positive);
    return positive;
  }
}
