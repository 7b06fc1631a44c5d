package io.clusterresolver.azure;

import io.clusterresolver.cloud.ApiErrorException;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.RetryAfter;
import java.time.Instant;

/**
 * An error status Resource Manager answered, with the message the SDK's {@code ManagementException} had, its facts
 * read here for the kit to take as they are: ARM's {@code error.code} (else {@code HTTP <status>}) and {@code
 * error.message} (else this message), {@code x-ms-request-id}, and the wait the answer asked for. A 2xx answer a call
 * cannot read is an {@link ArmFailures.MalformedAnswer}.
 */
final class ArmAnswerException extends ApiErrorException {
  private static final long serialVersionUID = 1L;

  private final String errorMessage;

  /**
   * @param message the status and the body's text, as the SDK wrote them
   * @param answer an answer of an error status (not 2xx)
   * @param error ARM's error object in the body, or {@code null} when it sent none
   */
  ArmAnswerException(String message, ArmHttp.Answer answer, ArmError error) {
    super(message, ApiFailure.http(answer.status(),
        error != null && error.code() != null ? error.code() : "HTTP " + answer.status(),
        error != null && error.message() != null ? error.message() : message, answer.header("x-ms-request-id"), 1)
        .withRetryAfter(RetryAfter.fromHeaders(answer::header, Instant.now())));
    this.errorMessage = error == null ? null : error.message();
  }

  /** The answer's status. */
  int status() {
    return failure().httpStatus();
  }

  /** ARM's {@code error.message}, or {@code null}. */
  String errorMessage() {
    return errorMessage;
  }
}
