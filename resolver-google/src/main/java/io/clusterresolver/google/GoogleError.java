package io.clusterresolver.google;

import com.google.api.client.http.HttpResponseException;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.Optional;

/**
 * The facts of Google's JSON error answer, {@code {"error": {"code", "message", "status", "errors":
 * [{"reason"}], "details"}}}: the message, the canonical status (like {@code NOT_FOUND}), the first
 * reason (Compute Engine's {@code rateLimitExceeded}) and the request id of a
 * {@code google.rpc.RequestInfo} detail. Any part may be missing ({@code null}): a proxy's error page
 * has none of them.
 *
 * @param message the error's message
 * @param status the canonical status name
 * @param reason the first of {@code errors[].reason}
 * @param requestId the request id to quote to support
 */
public record GoogleError(String message, String status, String reason, String requestId) {

  /** Google's JSON error in {@code body}, or empty when the body is anything else. Never throws. */
  public static Optional<GoogleError> parse(String body) {
    try {
      JsonObject error = JsonParser.parseString(body).getAsJsonObject().getAsJsonObject("error");
      if (error == null) {
        return Optional.empty();
      }
      String requestId = null;
      for (JsonElement detail : array(error, "details")) {
        if (detail.isJsonObject() && detail.getAsJsonObject().has("requestId")) {
          requestId = text(detail.getAsJsonObject(), "requestId");
        }
      }
      String reason = null;
      for (JsonElement item : array(error, "errors")) {
        reason = item.isJsonObject() ? text(item.getAsJsonObject(), "reason") : null;
        break;
      }
      return Optional.of(new GoogleError(text(error, "message"), text(error, "status"), reason, requestId));
    } catch (RuntimeException notGoogleJson) {
      return Optional.empty();
    }
  }

  /** Reads an error body: Google's JSON, else the body's first line (at most 200 characters) as the message. */
  public static GoogleError of(String body) {
    if (body == null || body.isBlank()) {
      return new GoogleError(null, null, null, null);
    }
    return parse(body).orElseGet(() -> {
      String firstLine = body.strip().lines().findFirst().orElse("");
      return new GoogleError(firstLine.length() > 200 ? firstLine.substring(0, 200) : firstLine, null, null, null);
    });
  }

  /** The HTTP error answer a gax REST call failed with, anywhere in the cause chain. */
  public static Optional<HttpResponseException> answer(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof HttpResponseException) {
        return Optional.of((HttpResponseException) t);
      }
    }
    return Optional.empty();
  }

  private static Iterable<JsonElement> array(JsonObject o, String field) {
    JsonElement e = o.get(field);
    return e != null && e.isJsonArray() ? e.getAsJsonArray() : java.util.List.of();
  }

  private static String text(JsonObject o, String field) {
    JsonElement e = o.get(field);
    return e != null && e.isJsonPrimitive() ? e.getAsString() : null;
  }
}
