package io.clusterresolver.cloud;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * What went wrong in one cloud API call, as a provider reads it off its SDK's exception: the facts
 * {@link CloudApi} needs to write one explained {@link io.clusterresolver.ClusterResolverException}
 * the same way for every cloud.
 *
 * @param kind what kind of failure it was
 * @param httpStatus the HTTP status, or 0 when there was no HTTP response
 * @param errorCode the API's error code ({@code RequestLimitExceeded}, {@code PERMISSION_DENIED}), or {@code null}
 * @param message the API's error message, or {@code null}
 * @param requestId the request id to quote to the cloud's support, or {@code null}
 * @param attempts how many attempts the SDK made for this one call of {@link CloudApi}, at least 1 (more than 1
 *     only for an SDK left to retry itself: {@link RetryPolicy#none()})
 * @param retryAfter how long the API asked to wait before the next attempt ({@code Retry-After}, read with
 *     {@link RetryAfter#parse}), or {@code null} when it did not say
 */
public record ApiFailure(Kind kind, int httpStatus, String errorCode, String message, String requestId, int attempts,
    Duration retryAfter) {

  /** The kinds of failure, each explained differently. */
  public enum Kind {
    /** The API answered with an error status. */
    HTTP_ERROR,
    /** No valid HTTP response: connection refused, reset, DNS, TLS. */
    NO_RESPONSE,
    /** An answer that is not the API's format (a proxy's page, truncated JSON or XML). */
    MALFORMED_RESPONSE,
    /** The call ran out of time. */
    TIMEOUT,
    /** The credentials could not be loaded or were refused before any call. */
    CREDENTIALS
  }

  /** Normalises missing parts. */
  public ApiFailure {
    if (kind == null) {
      throw new IllegalArgumentException("kind");
    }
    attempts = Math.max(1, attempts);
    if (retryAfter != null && retryAfter.isNegative()) {
      retryAfter = Duration.ZERO;
    }
  }

  /** A failure the API gave no {@code Retry-After} for (the form before {@link #retryAfter()} existed). */
  public ApiFailure(Kind kind, int httpStatus, String errorCode, String message, String requestId, int attempts) {
    this(kind, httpStatus, errorCode, message, requestId, attempts, null);
  }

  /** This failure with the wait the API asked for ({@code Retry-After}), or {@code null} for none. */
  public ApiFailure withRetryAfter(Duration wait) {
    return new ApiFailure(kind, httpStatus, errorCode, message, requestId, attempts, wait);
  }

  /** This failure counted as {@code attempts} attempts in all. */
  ApiFailure withAttempts(int attempts) {
    return new ApiFailure(kind, httpStatus, errorCode, message, requestId, attempts, retryAfter);
  }

  /** An error status from the API. */
  public static ApiFailure http(int status, String errorCode, String message, String requestId, int attempts) {
    return new ApiFailure(Kind.HTTP_ERROR, status, errorCode, message, requestId, attempts);
  }

  /** A failure of another kind, with the exception's message as detail. */
  public static ApiFailure of(Kind kind, String message, int attempts) {
    return new ApiFailure(kind, 0, null, message, null, attempts);
  }

  /**
   * The failure of a call that got no answer from the API, read off the transport's exception the same way for every
   * client (the JDK's {@code HttpURLConnection} and {@code HttpClient}, an SDK's, a wait for another thread): {@link
   * Kind#TIMEOUT} when a timeout is anywhere in the cause chain ({@link SocketTimeoutException} from a connect or
   * read, {@link HttpTimeoutException} (and its connect timeout), {@link TimeoutException} from a future), else {@link
   * Kind#NO_RESPONSE} (connection refused or reset, an unknown host, a failed TLS handshake), which {@link
   * #isRetryable()}. Its message is the transport's own exception (the innermost {@link IOException}, else the
   * innermost cause): {@code "ConnectException: Connection refused"}. A provider's failure reader reads its API's
   * error answers and the errors its client names itself first, then hands the rest here.
   *
   * @param e what the call threw, or what it was wrapped in ({@link java.io.UncheckedIOException}, an SDK's exception)
   */
  public static ApiFailure withoutAnswer(Throwable e) {
    Throwable transport = null;
    Throwable root = e;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SocketTimeoutException || t instanceof HttpTimeoutException || t instanceof TimeoutException) {
        return of(Kind.TIMEOUT, describe(t), 1);
      }
      if (t instanceof IOException) {
        transport = t;
      }
      root = t;
    }
    return of(Kind.NO_RESPONSE, describe(transport != null ? transport : root), 1);
  }

  /** {@code "ConnectException: Connection refused"}, or the class's name alone when the exception has no message. */
  private static String describe(Throwable t) {
    String name = t.getClass().getSimpleName();
    return t.getMessage() == null ? name : name + ": " + t.getMessage();
  }

  /**
   * Whether the cloud refused the caller's credentials or permissions. A 403 that says it is
   * throttling (Compute Engine answers a project over its rate quota with 403
   * {@code rateLimitExceeded}) is {@linkplain #isThrottling() throttling}, not this.
   */
  public boolean isAuthorization() {
    return kind == Kind.CREDENTIALS || httpStatus == 401 || httpStatus == 403 && !isThrottling();
  }

  /** Whether the cloud is throttling the caller. */
  public boolean isThrottling() {
    return httpStatus == 429 || (errorCode != null && (errorCode.contains("Throttl") || errorCode.contains("LimitExceeded")
        || errorCode.equals("RESOURCE_EXHAUSTED") || errorCode.equals("rateLimitExceeded")));
  }

  /**
   * Whether trying the same call again may succeed: throttling in every shape the clouds use
   * ({@linkplain #isThrottling() above}), a server error (5xx but 501 Not Implemented and 505 HTTP
   * Version Not Supported, RFC 9110 §15.6), 408 Request Timeout, gRPC's {@code UNAVAILABLE}, and no
   * response at all (connection refused or reset). Never credentials, a refused or unknown caller
   * (401, 403 that is not throttling), a missing resource or any other 4xx, an answer that is not
   * the API's, or a call that ran out of time.
   */
  public boolean isRetryable() {
    switch (kind) {
      case NO_RESPONSE:
        return true;
      case HTTP_ERROR:
        if (httpStatus == 401 || httpStatus == 404) {
          return false; // whatever code came with it: a refused caller or a missing resource stays so
        }
        return isThrottling() || httpStatus == 408 || httpStatus >= 500 && httpStatus != 501 && httpStatus != 505
            || "UNAVAILABLE".equals(errorCode);
      default:
        return false;
    }
  }
}
