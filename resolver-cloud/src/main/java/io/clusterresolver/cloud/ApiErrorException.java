package io.clusterresolver.cloud;

/**
 * An error status the API answered, its facts read where the provider has the answer (the status, the cloud's error
 * body, its request-id and {@code Retry-After} headers). Thrown by a call inside a {@link CloudApi.Session}, which
 * takes its {@link #failure()} as it is, without the provider's {@link CloudApi.FailureReader}: a provider that calls
 * its API itself (on {@link CloudHttp}) needs no reader of its error answers, and a subclass only for what else it keeps
 * of one.
 *
 * <pre>{@code
 * if (answer.status() / 100 != 2) {
 *   throw new ApiErrorException("list pods: HTTP " + answer.status(), ApiFailure.http(answer.status(), reason,
 *       message, answer.header("Audit-Id"), 1).withRetryAfter(RetryAfter.parse(answer.header("Retry-After"), now)));
 * }
 * }</pre>
 */
public class ApiErrorException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient ApiFailure failure;

  /**
   * @param message what was asked and answered, for a stack trace (the user reads {@link CloudApi}'s sentence)
   * @param failure the answer's facts: an {@link ApiFailure.Kind#HTTP_ERROR}
   * @throws IllegalArgumentException when {@code failure} is of another kind (no answer is no error answer)
   */
  public ApiErrorException(String message, ApiFailure failure) {
    super(message, null, false, false); // no stack trace: the ClusterResolverException around it has one
    if (failure.kind() != ApiFailure.Kind.HTTP_ERROR) {
      throw new IllegalArgumentException("an error answer is an HTTP_ERROR, not " + failure.kind());
    }
    this.failure = failure;
  }

  /** The answer's facts. */
  public ApiFailure failure() {
    return failure;
  }
}
