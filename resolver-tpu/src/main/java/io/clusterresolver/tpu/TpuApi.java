package io.clusterresolver.tpu;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.httpjson.HttpJsonCallContext;
import com.google.api.gax.retrying.RetrySettings;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.StatusCode;
import com.google.cloud.tpu.v2.GetNodeRequest;
import com.google.cloud.tpu.v2.Node;
import com.google.cloud.tpu.v2.TpuClient;
import com.google.cloud.tpu.v2.TpuSettings;
import com.google.protobuf.InvalidProtocolBufferException;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.AnswerLimitException;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.google.GoogleCredentialsSetting;
import io.clusterresolver.google.GoogleError;
import io.clusterresolver.google.GoogleRest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Cloud TPU API v2 through {@code google-cloud-tpu} over HttpJson (REST): one {@code nodes.get}
 * per call, retried here (at most {@link #MAX_ATTEMPTS} attempts, exponential backoff, within what
 * is left of the deadline) on throttling, server errors and lost connections, so that a failure
 * can say how many attempts it took. Clients are built on first use and shared in the JVM per endpoint
 * and credentials (a client holds threads and connections; each call carries its own deadline).
 */
final class TpuApi {

  /** The scope the credentials ask for. */
  static final List<String> SCOPES = List.of("https://www.googleapis.com/auth/cloud-platform");

  static final int MAX_ATTEMPTS = 4;
  private static final Set<Integer> RETRYABLE = Set.of(429, 500, 502, 503, 504);
  private static final Duration FIRST_BACKOFF = Duration.ofMillis(100);

  /** The longest any one call may take, whatever a resolver's timeout: each call's context sets its own. */
  private static final Duration CLIENT_CEILING = Duration.ofMinutes(10);
  /** The credentials (loaded once per resolver: a client lives for one call), endpoint and bounded transport. */
  private final GoogleRest rest;

  /**
   * @param endpoint the API endpoint, or {@code null} for Google's
   * @param credentials the {@code credentials} property's credentials ({@link GoogleCredentialsSetting})
   */
  TpuApi(URI endpoint, CredentialsProvider credentials, AnswerLimit limit) {
    this.rest = new GoogleRest(endpoint, credentials, limit);
  }

  /** Gets one node by its full resource name; retries retryable failures within {@code remaining}. */
  Node getNode(String name, Duration remaining) {
    long deadline = System.nanoTime() + remaining.toNanos();
    GetNodeRequest request = GetNodeRequest.newBuilder().setName(name).build();
    // A client per call, closed after it: gax's HTTP/JSON channel keeps a non-daemon scheduler thread until
    // it is closed, which would keep a program that resolved from exiting.
    try (TpuClient client = build()) {
      for (int attempt = 1; ; attempt++) {
        try {
          Duration left = Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
          // The timeout bounds the wait for headers; the header (read by the bounded connection) bounds the body too.
          return client.getNodeCallable().call(request, HttpJsonCallContext.createDefault().withTimeoutDuration(left)
              .withExtraHeaders(Map.of(AnswerLimit.TIME_HEADER, List.of(Long.toString(left.toMillis())))));
        } catch (RuntimeException e) {
          long backoff = FIRST_BACKOFF.toNanos() << (attempt - 1);
          if (attempt >= MAX_ATTEMPTS || !retryable(e) || System.nanoTime() + backoff >= deadline) {
            throw new Attempted(e, attempt);
          }
          sleep(backoff);
        }
      }
    }
  }

  private TpuClient build() {
    TpuSettings.Builder settings = rest.connect(TpuSettings.newHttpJsonBuilder());
    settings.getNodeSettings().setRetrySettings(RetrySettings.newBuilder().setMaxAttempts(1)
        .setTotalTimeoutDuration(CLIENT_CEILING).setInitialRpcTimeoutDuration(CLIENT_CEILING)
        .setMaxRpcTimeoutDuration(CLIENT_CEILING).setRpcTimeoutMultiplier(1.0).build());
    return GoogleRest.create(() -> TpuClient.create(settings.build()));
  }

  private static boolean retryable(RuntimeException e) {
    if (AnswerLimitException.find(e) != null) {
      return false; // too large or too slow: the same endpoint answers the same way again
    }
    int status = httpStatus(e);
    return status == 0 ? !malformed(e) : RETRYABLE.contains(status);
  }

  private static void sleep(long nanos) {
    try {
      Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting to retry nodes.get", e);
    }
  }

  /** The HTTP status of an API error, or 0 when no HTTP answer came. */
  static int httpStatus(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof com.google.api.client.http.HttpResponseException) {
        return ((com.google.api.client.http.HttpResponseException) t).getStatusCode();
      }
    }
    return 0;
  }

  private static boolean malformed(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InvalidProtocolBufferException || t instanceof com.google.gson.JsonParseException
          || t instanceof com.google.gson.stream.MalformedJsonException || t instanceof java.io.EOFException) {
        return true;
      }
    }
    return false;
  }

  /** Whether a failure is the API saying that the node does not exist. */
  static boolean notFound(Throwable e) {
    Throwable cause = e instanceof Attempted ? e.getCause() : e;
    return cause instanceof ApiException
        && ((ApiException) cause).getStatusCode().getCode() == StatusCode.Code.NOT_FOUND;
  }

  /** The facts of a failure for the kit's one explanation of it ({@code CloudApi}). */
  static ApiFailure readFailure(RuntimeException e) {
    int attempts = e instanceof Attempted ? ((Attempted) e).attempts : 1;
    Throwable cause = e instanceof Attempted ? e.getCause() : e;
    if (cause instanceof GoogleRest.CredentialsUnavailable) {
      return ApiFailure.of(ApiFailure.Kind.CREDENTIALS, cause.getMessage(), attempts);
    }
    int status = httpStatus(cause);
    if (status != 0) {
      GoogleError error = GoogleError.of(responseBody(cause));
      String code = error.status() != null ? error.status()
          : cause instanceof ApiException ? ((ApiException) cause).getStatusCode().getCode().name() : null;
      return ApiFailure.http(status, code, error.message(), error.requestId(), attempts);
    }
    String message = cause.getClass().getSimpleName() + ": " + cause.getMessage();
    if (malformed(cause)) {
      Throwable parse = cause;
      while (parse.getCause() != null && !(parse instanceof InvalidProtocolBufferException
          || parse instanceof com.google.gson.JsonParseException)) {
        parse = parse.getCause();
      }
      return ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, parse.getClass().getSimpleName() + ": "
          + parse.getMessage(), attempts);
    }
    if (cause instanceof ApiException && ((ApiException) cause).getStatusCode().getCode()
        == StatusCode.Code.DEADLINE_EXCEEDED) {
      return ApiFailure.of(ApiFailure.Kind.TIMEOUT, message, attempts);
    }
    return ApiFailure.of(ApiFailure.Kind.NO_RESPONSE, message, attempts);
  }

  /** The body of the HTTP error answer, or {@code null}. */
  private static String responseBody(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof com.google.api.client.http.HttpResponseException) {
        return ((com.google.api.client.http.HttpResponseException) t).getContent();
      }
    }
    return null;
  }

  /** A failure after {@code attempts} attempts. */
  static final class Attempted extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int attempts;

    Attempted(RuntimeException cause, int attempts) {
      super(cause.getMessage(), cause);
      this.attempts = attempts;
    }
  }
}
