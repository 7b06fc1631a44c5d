package io.clusterresolver.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.Context;
import io.clusterresolver.cloud.Deadline;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.Mono;

/**
 * Bounds each request of the pipeline by what is left of the resolve's {@link Deadline} (carried in
 * the call's {@link Context}; {@link BoundedHttpClient} sets the response timeout and the body's time
 * from it) and, on the async path, the answer itself. It also keeps the deadline of the resolve whose
 * call it saw last, for the token requests the bearer token policy after it makes: azure-identity sends
 * those without the call's context. It does not retry, and the pipeline has no azure-core {@code
 * RetryPolicy} either: the kit's {@code CloudApi} retries each call ({@link AzureMemberSource#API}), so
 * nothing is retried twice.
 */
final class DeadlinePolicy implements HttpPipelinePolicy {

  /** Context key of the resolve's {@link Deadline}. */
  static final String DEADLINE = "clusterresolver-deadline";

  /** The deadline of the last call seen; resolves of one resolver that overlap share the latest. */
  private final AtomicReference<Deadline> latest = new AtomicReference<>();

  /** A call context carrying the deadline. */
  static Context context(Deadline deadline) {
    return new Context(DEADLINE, deadline);
  }

  /** The deadline a call of {@code context} runs under, or {@code null} outside a resolve. */
  static Deadline of(Context context) {
    return (Deadline) context.getData(DEADLINE).orElse(null);
  }

  /** The deadline of the resolve in progress (its last call), or {@code null} before any. */
  Deadline latest() {
    return latest.get();
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    Deadline deadline = seen(context);
    Mono<HttpResponse> call = next.process();
    return deadline == null ? call : call.timeout(positive(deadline.remaining()));
  }

  @Override
  public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    seen(context);
    return next.processSync();
  }

  private Deadline seen(HttpPipelineCallContext context) {
    Deadline deadline = (Deadline) context.getData(DEADLINE).orElse(null);
    if (deadline != null) {
      latest.set(deadline);
    }
    return deadline;
  }

  private static Duration positive(Duration d) {
    return d.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : d;
  }
}
