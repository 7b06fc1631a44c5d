package io.clusterresolver.azure;

/**
 * A Resource Manager answer a call cannot use: an error status (with ARM's error object when it sent one), or a
 * 200 whose body is not what the call reads. What the SDK's {@code ManagementException} and {@code
 * HttpResponseException} carried, with the same messages, read by {@link ArmFailures}.
 */
final class ArmAnswerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient ArmHttp.Answer answer;
  private final transient ArmError error;

  ArmAnswerException(String message, ArmHttp.Answer answer, ArmError error, Throwable cause) {
    super(message, cause);
    this.answer = answer;
    this.error = error;
  }

  /** The answer's status. */
  int status() {
    return answer.status();
  }

  /** A header of the answer, by its case-insensitive name, or {@code null}. */
  String header(String name) {
    return answer.header(name);
  }

  /** ARM's {@code error.code}, or {@code null}. */
  String code() {
    return error == null ? null : error.code();
  }

  /** ARM's {@code error.message}, or {@code null}. */
  String errorMessage() {
    return error == null ? null : error.message();
  }
}
