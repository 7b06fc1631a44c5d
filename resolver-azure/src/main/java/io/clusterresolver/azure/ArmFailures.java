package io.clusterresolver.azure;

import com.azure.core.exception.ClientAuthenticationException;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.RetryAfter;
import java.time.Instant;
import reactor.core.Exceptions;

/** Reads the facts of an ARM call's failure (ARM's {@code {"error":{"code","message"}}} and {@code x-ms-request-id}). */
final class ArmFailures {

  private ArmFailures() {}

  /** The facts of one attempt's failure (a call is sent once: {@link ArmHttp}). */
  static ApiFailure read(RuntimeException e) {
    int attempts = 1;
    Throwable t = Exceptions.unwrap(e); // a credential may throw what Reactor wrapped
    if (t instanceof ClientAuthenticationException || t.getClass().getName().startsWith("com.azure.identity.")) {
      return ApiFailure.of(ApiFailure.Kind.CREDENTIALS, firstLine(t.getMessage()), attempts);
    }
    if (t instanceof ArmAnswerException) {
      ArmAnswerException answer = (ArmAnswerException) t;
      int status = answer.status();
      if (status >= 200 && status < 300) {
        return ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, firstLine(answer.getMessage()), attempts);
      }
      String code = answer.code();
      String message = answer.errorMessage();
      return ApiFailure.http(status, code != null ? code : "HTTP " + status,
          message != null ? message : firstLine(answer.getMessage()), answer.header("x-ms-request-id"), attempts)
          .withRetryAfter(RetryAfter.fromHeaders(answer::header, Instant.now()));
    }
    ApiFailure withoutAnswer = ApiFailure.withoutAnswer(t);
    if (withoutAnswer.kind() == ApiFailure.Kind.TIMEOUT) {
      return withoutAnswer;
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      String name = c.getClass().getName();
      if (name.contains("Json") || name.contains("Deserializ") || name.contains("MismatchedInput")) {
        return ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, c.getClass().getSimpleName() + ": "
            + firstLine(c.getMessage()), attempts);
      }
    }
    return withoutAnswer;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "no detail";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
