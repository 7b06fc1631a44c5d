package io.clusterresolver.azure;

import com.azure.core.exception.ClientAuthenticationException;
import io.clusterresolver.cloud.ApiErrorException;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.MalformedAnswerException;
import java.util.Objects;
import reactor.core.Exceptions;

/**
 * Reads the facts of an ARM call's failure that is not an error answer: an {@link ArmAnswerException} carries its
 * own, which the kit takes as they are. The kit writes the first line of each message.
 */
final class ArmFailures {

  private ArmFailures() {}

  /** The facts of one attempt's failure (a call is sent once: {@link ArmHttp}). */
  static ApiFailure read(RuntimeException e) {
    Throwable t = Exceptions.unwrap(e); // a credential may throw what Reactor wrapped
    if (t instanceof ClientAuthenticationException || t.getClass().getName().startsWith("com.azure.identity.")) {
      return ApiFailure.of(ApiFailure.Kind.CREDENTIALS, t.getMessage(), 1);
    }
    if (t instanceof ApiErrorException answered) {
      return answered.failure(); // as the kit takes it when it is not wrapped
    }
    if (t instanceof MalformedAnswerException) {
      return ((MalformedAnswerException) t).failure();
    }
    ApiFailure withoutAnswer = ApiFailure.withoutAnswer(t);
    if (withoutAnswer.kind() == ApiFailure.Kind.TIMEOUT) {
      return withoutAnswer;
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      String name = c.getClass().getName();
      if (name.contains("Json") || name.contains("Deserializ") || name.contains("MismatchedInput")) {
        return ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, c.getClass().getSimpleName() + ": "
            + Objects.requireNonNullElse(c.getMessage(), "no detail"), 1);
      }
    }
    return withoutAnswer;
  }
}
