package io.clusterresolver.google;

import com.google.api.client.http.HttpHeaders;
import com.google.api.client.http.HttpResponseException;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.MalformedAnswerException;
import io.clusterresolver.cloud.RetryAfter;
import java.time.Instant;

/**
 * Reads a failed REST call ({@link GoogleCalls}) for the kit's {@code CloudApi}, the same way for every Google API:
 * the HTTP error answer anywhere in the cause chain (its status, Google's JSON error or the first line of a page that
 * is not, {@code Retry-After}), an answer that could not be read, or no answer at all (a timeout among them).
 */
public final class GoogleFailure {

  private GoogleFailure() {}

  /**
   * The facts of {@code e}. An HTTP error's code is Compute Engine's first {@code errors[].reason} (like
   * {@code rateLimitExceeded}), else the canonical status (like {@code UNAUTHENTICATED}); its request id is the {@code RequestInfo} detail's, else the {@code x-request-id} header's.
   */
  public static ApiFailure read(RuntimeException e) {
    if (e instanceof GoogleRest.CredentialsUnavailable) {
      return ApiFailure.of(ApiFailure.Kind.CREDENTIALS, e.getMessage(), 1);
    }
    HttpResponseException http = GoogleError.answer(e).orElse(null);
    if (http != null) {
      GoogleError error = GoogleError.of(http.getContent());
      HttpHeaders headers = http.getHeaders() == null ? new HttpHeaders() : http.getHeaders();
      String code = error.reason() != null ? error.reason() : error.status();
      String message = error.message() != null ? error.message() : http.getStatusMessage();
      String requestId = error.requestId() != null ? error.requestId() : headers.getFirstHeaderStringValue("x-request-id");
      return ApiFailure.http(http.getStatusCode(), code, message, requestId, 1)
          .withRetryAfter(RetryAfter.parse(headers.getFirstHeaderStringValue("Retry-After"), Instant.now()));
    }
    Throwable parse = null;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (isParseError(t)) {
        parse = t; // the innermost one says what was wrong with the answer
      }
    }
    if (parse != null) {
      return ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, describe(parse), 1);
    }
    return ApiFailure.withoutAnswer(e);
  }

  /** Whether the API answered that the resource does not exist (HTTP 404). */
  public static boolean notFound(Throwable e) {
    return GoogleError.answer(e).map(answer -> answer.getStatusCode() == 404).orElse(false);
  }

  /** protobuf's, gson's and gax's parse errors, and an answer cut short; matched by name, none is loaded for it. */
  private static boolean isParseError(Throwable t) {
    String name = t.getClass().getName();
    return t instanceof MalformedAnswerException || name.contains("InvalidProtocolBuffer")
        || name.contains("RestSerialization") || name.contains("Json") || t instanceof java.io.EOFException;
  }

  private static String describe(Throwable t) {
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }
}
