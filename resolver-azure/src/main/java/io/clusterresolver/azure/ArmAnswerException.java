package io.clusterresolver.azure;

import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import io.clusterresolver.cloud.ApiErrorException;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.CloudHttp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * An error status Resource Manager answered, with the message the SDK's {@code ManagementException} had, its facts
 * read here for the kit to take as they are: ARM's {@code error.code} (else {@code HTTP <status>}) and {@code
 * error.message} (else this message), {@code x-ms-request-id}, and the wait the answer asked for; whoever looks at the
 * answer again reads them from {@link #failure()}. A 2xx answer a call cannot read is the kit's {@code
 * MalformedAnswerException}.
 */
final class ArmAnswerException extends ApiErrorException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message the status and the body's text, as the SDK wrote them
   * @param answer an answer of an error status (not 2xx)
   * @param error ARM's error object in the body, or {@code null} when it sent none
   */
  private ArmAnswerException(String message, CloudHttp.ErrorAnswer answer, ArmError error) {
    super(message, ApiFailure.http(answer.status(),
        error != null && error.code() != null ? error.code() : "HTTP " + answer.status(),
        error != null && error.message() != null ? error.message() : message, answer.header("x-ms-request-id"), 1)
        .withRetryAfter(answer.retryAfter()));
  }

  /** What the generated clients threw for an error status: ARM's {@code {"error":{...}}} as the value, if it is one. */
  static ArmAnswerException of(CloudHttp.ErrorAnswer answer) {
    byte[] body = answer.body();
    ArmError error = null;
    if (body.length > 0) {
      try (JsonReader json = JsonProviders.createReader(body)) {
        error = ArmError.read(json);
      } catch (IOException | RuntimeException e) {
        // not ARM's error object (a proxy's page): the status and the text say what happened
      }
    }
    return new ArmAnswerException(statusAndBody(answer.status(), body), answer, error);
  }

  /** The SDK's words for an answer it did not take: {@code Status code 409, "<body>"} or {@code (empty body)}. */
  static String statusAndBody(int status, byte[] body) {
    return "Status code " + status + ", "
        + (body.length == 0 ? "(empty body)" : "\"" + new String(body, StandardCharsets.UTF_8) + "\"");
  }
}
