package io.clusterresolver.azure;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.HttpResponse;
import com.azure.core.management.exception.ManagementException;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.RetryAfter;
import java.time.Instant;
import java.util.concurrent.TimeoutException;
import reactor.core.Exceptions;

/** Reads the facts of an ARM call's failure (ARM's {@code {"error":{"code","message"}}} and {@code x-ms-request-id}). */
final class ArmFailures {

  private ArmFailures() {}

  /** The facts of one attempt's failure (the pipeline makes one attempt per call: {@link DeadlinePolicy}). */
  static ApiFailure read(RuntimeException e) {
    int attempts = 1;
    Throwable t = Exceptions.unwrap(e);
    if (t instanceof ClientAuthenticationException || t.getClass().getName().startsWith("com.azure.identity.")) {
      return ApiFailure.of(ApiFailure.Kind.CREDENTIALS, firstLine(t.getMessage()), attempts);
    }
    if (t instanceof HttpResponseException && ((HttpResponseException) t).getResponse() != null) {
      HttpResponseException http = (HttpResponseException) t;
      HttpResponse response = http.getResponse();
      int status = response.getStatusCode();
      String requestId = response.getHeaderValue("x-ms-request-id");
      if (status >= 200 && status < 300) {
        return ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, firstLine(http.getMessage()), attempts);
      }
      String code = null;
      String message = null;
      if (http instanceof ManagementException && ((ManagementException) http).getValue() != null) {
        code = ((ManagementException) http).getValue().getCode();
        message = ((ManagementException) http).getValue().getMessage();
      }
      return ApiFailure.http(status, code != null ? code : "HTTP " + status,
          message != null ? message : firstLine(http.getMessage()), requestId, attempts)
          .withRetryAfter(RetryAfter.fromHeaders(response::getHeaderValue, Instant.now()));
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof TimeoutException || c instanceof java.net.http.HttpTimeoutException) {
        return ApiFailure.of(ApiFailure.Kind.TIMEOUT, c.getClass().getSimpleName(), attempts);
      }
      String name = c.getClass().getName();
      if (name.contains("Json") || name.contains("Deserializ") || name.contains("MismatchedInput")) {
        return ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, c.getClass().getSimpleName() + ": "
            + firstLine(c.getMessage()), attempts);
      }
    }
    return ApiFailure.of(ApiFailure.Kind.NO_RESPONSE, t.getClass().getSimpleName() + ": " + firstLine(t.getMessage()),
        attempts);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "no detail";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
