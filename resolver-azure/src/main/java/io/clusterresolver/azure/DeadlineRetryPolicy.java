package io.clusterresolver.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.Context;
import io.clusterresolver.cloud.AnswerLimitException;
import io.clusterresolver.cloud.Deadline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * The pipeline's retry policy, bounded by the resolve's {@link Deadline} (carried in the call's
 * {@link Context}): retries throttling (429), 408 and 5xx answers and lost connections; waits what
 * ARM's {@code Retry-After} (or {@code retry-after-ms}, {@code x-ms-retry-after-ms}) says, else an
 * exponential backoff with jitter. When the wait would not end before the deadline it stops and
 * hands the last answer to the SDK, so the caller sees ARM's own error (status, code,
 * {@code x-ms-request-id}) instead of a timeout; so it does when the deadline ends during a retry
 * that follows such an answer. azure-core's {@code RetryPolicy} would sleep the
 * whole {@code Retry-After} whatever is left of the deadline.
 */
final class DeadlineRetryPolicy implements HttpPipelinePolicy {

  /** Context key of the resolve's {@link Deadline}. */
  static final String DEADLINE = "clusterresolver-deadline";
  /** Context key of an {@link AtomicInteger} counting the attempts of one call. */
  static final String ATTEMPTS = "clusterresolver-attempts";
  /** The JDK HTTP client's per-request response timeout key. */
  private static final String RESPONSE_TIMEOUT = "azure-response-timeout";

  private static final Duration BASE_DELAY = Duration.ofMillis(200);
  private static final Duration MAX_DELAY = Duration.ofSeconds(8);
  /** Time kept back for the last answer to reach the caller. */
  private static final Duration MARGIN = Duration.ofMillis(50);
  /** Time kept back, in a retry after a retriable answer, to hand that answer back within the deadline. */
  private static final Duration HANDBACK = Duration.ofMillis(250);

  private final int maxAttempts;

  DeadlineRetryPolicy(int maxAttempts) {
    this.maxAttempts = maxAttempts;
  }

  /** A call context carrying the deadline and an attempt counter. */
  static Context context(Deadline deadline, AtomicInteger attempts) {
    return new Context(DEADLINE, deadline).addData(ATTEMPTS, attempts);
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    return attempt(context, next, 1, null);
  }

  /** One attempt's result: an answer or a failure. */
  private record Outcome(HttpResponse response, Throwable error) {}

  /**
   * @param previous the last retriable answer (buffered), handed to the caller instead of a timeout
   *     when the deadline ends during a retry: the caller then sees ARM's status and request id
   */
  private Mono<HttpResponse> attempt(HttpPipelineCallContext context, HttpPipelineNextPolicy next, int attempt,
      HttpResponse previous) {
    Deadline deadline = deadline(context);
    count(context);
    Mono<HttpResponse> call = next.clone().process();
    if (deadline != null) {
      // After a retriable answer, stop early enough that the SDK can still turn that answer into
      // ARM's error before the deadline (the kit reports a bare timeout after it).
      Duration remaining = previous == null ? deadline.remaining() : deadline.remaining().minus(HANDBACK);
      context.setData(RESPONSE_TIMEOUT, positive(remaining));
      call = call.timeout(positive(remaining));
    }
    // Errors of this attempt only: a later attempt's failure is final and must not be retried here again.
    return call.map(r -> new Outcome(r, null))
        .onErrorResume(e -> Mono.just(new Outcome(null, e)))
        .flatMap(outcome -> {
          if (outcome.response() != null) {
            HttpResponse response = outcome.response();
            Duration wait = retryWait(response, attempt, deadline);
            if (wait == null) {
              close(previous);
              return Mono.just(response);
            }
            HttpResponse kept = response.buffer();
            close(previous);
            return Mono.delay(wait).then(Mono.defer(() -> attempt(context, next, attempt + 1, kept)));
          }
          Throwable e = outcome.error();
          if (previous != null && e instanceof TimeoutException) {
            return Mono.just(previous);
          }
          Duration wait = errorWait(e, attempt, deadline);
          if (wait == null) {
            close(previous);
            return Mono.error(e);
          }
          return Mono.delay(wait).then(Mono.defer(() -> attempt(context, next, attempt + 1, previous)));
        });
  }

  private static void close(HttpResponse response) {
    if (response != null) {
      response.close();
    }
  }

  @Override
  public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    Deadline deadline = deadline(context);
    for (int attempt = 1; ; attempt++) {
      count(context);
      if (deadline != null) {
        context.setData(RESPONSE_TIMEOUT, deadline.remaining());
      }
      HttpResponse response;
      try {
        response = next.clone().processSync();
      } catch (RuntimeException e) {
        Duration wait = errorWait(e, attempt, deadline);
        if (wait == null) {
          throw e;
        }
        sleep(wait);
        continue;
      }
      Duration wait = retryWait(response, attempt, deadline);
      if (wait == null) {
        return response;
      }
      response.close();
      sleep(wait);
    }
  }

  /** How long to wait before retrying this answer, or {@code null} to hand it to the caller. */
  private Duration retryWait(HttpResponse response, int attempt, Deadline deadline) {
    int status = response.getStatusCode();
    if (!(status == 429 || status == 408 || (status >= 500 && status != 501 && status != 505))) {
      return null;
    }
    Duration wait = retryAfter(response);
    return fits(wait != null ? wait : backoff(attempt), attempt, deadline);
  }

  private Duration errorWait(Throwable e, int attempt, Deadline deadline) {
    if (AnswerLimitException.find(e) != null) {
      return null; // an answer over its limit (a token's, read inside this call) is no lost connection
    }
    boolean lostConnection = e instanceof IOException || e instanceof UncheckedIOException
        || e.getCause() instanceof IOException;
    return lostConnection ? fits(backoff(attempt), attempt, deadline) : null;
  }

  private Duration fits(Duration wait, int attempt, Deadline deadline) {
    if (attempt >= maxAttempts) {
      return null;
    }
    if (deadline != null && wait.plus(HANDBACK).plus(MARGIN).compareTo(deadline.remaining()) >= 0) {
      return null;
    }
    return wait;
  }

  /** ARM's wait: {@code retry-after-ms}, {@code x-ms-retry-after-ms}, or {@code Retry-After} in seconds or as an HTTP date. */
  static Duration retryAfter(HttpResponse response) {
    for (String header : new String[] {"retry-after-ms", "x-ms-retry-after-ms"}) {
      String ms = response.getHeaderValue(header);
      if (ms != null && ms.trim().matches("\\d{1,9}")) {
        return Duration.ofMillis(Long.parseLong(ms.trim()));
      }
    }
    String value = response.getHeaderValue("Retry-After");
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.trim();
    if (v.matches("\\d{1,9}")) {
      return Duration.ofSeconds(Long.parseLong(v));
    }
    try {
      Duration until = Duration.between(OffsetDateTime.now(), OffsetDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME));
      return until.isNegative() ? Duration.ZERO : until;
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static Duration backoff(int attempt) {
    long base = BASE_DELAY.toMillis() << Math.min(attempt - 1, 10);
    long capped = Math.min(base, MAX_DELAY.toMillis());
    return Duration.ofMillis((long) (capped * (0.8 + 0.4 * ThreadLocalRandom.current().nextDouble())));
  }

  private static Deadline deadline(HttpPipelineCallContext context) {
    return (Deadline) context.getData(DEADLINE).orElse(null);
  }

  private static void count(HttpPipelineCallContext context) {
    context.getData(ATTEMPTS).ifPresent(n -> ((AtomicInteger) n).incrementAndGet());
  }

  private static Duration positive(Duration d) {
    return d.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : d;
  }

  private static void sleep(Duration wait) {
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting to retry", e);
    }
  }
}
