package io.clusterresolver.cloud;

/**
 * A successful (2xx) answer that is not what the call reads: a body its reader could not parse, or a status the
 * call does not take. Thrown by {@link CloudHttp#exchange} for a reader's checked failure, and by a reader itself to
 * word it as its SDK did. A provider's failure reader reports it as {@link #failure()}: not retryable, and, unlike a
 * {@link NotTheApiException}, an error a {@code ClusterWait} polls through.
 */
public final class MalformedAnswerException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what was asked and what was wrong with the answer, read in {@link CloudApi}'s sentence
   * @param cause the reader's failure, or {@code null}
   */
  public MalformedAnswerException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The facts of it: a {@link ApiFailure.Kind#MALFORMED_RESPONSE} with this message, one attempt. */
  public ApiFailure failure() {
    return ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, getMessage(), 1);
  }
}
