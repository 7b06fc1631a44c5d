package io.clusterresolver.cloud;

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
 * @param attempts how many attempts the SDK made, at least 1
 */
public record ApiFailure(Kind kind, int httpStatus, String errorCode, String message, String requestId, int attempts) {

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
}
