package io.clusterresolver.tpu;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * The facts of Google's JSON error answer, {@code {"error": {"code", "message", "status", "details"}}}:
 * the message, the status (like {@code NOT_FOUND}) and the request id of a
 * {@code google.rpc.RequestInfo} detail. Any part may be missing ({@code null}): a proxy's error page
 * has none of them.
 *
 * @param message the error's message
 * @param status the canonical status name
 * @param requestId the request id to quote to support
 */
record GoogleError(String message, String status, String requestId) {

  /** Reads an error body; never throws. */
  static GoogleError of(String body) {
    if (body == null || body.isBlank()) {
      return new GoogleError(null, null, null);
    }
    try {
      JsonObject error = JsonParser.parseString(body).getAsJsonObject().getAsJsonObject("error");
      String requestId = null;
      if (error.has("details") && error.get("details").isJsonArray()) {
        for (JsonElement detail : error.getAsJsonArray("details")) {
          if (detail.isJsonObject() && detail.getAsJsonObject().has("requestId")) {
            requestId = detail.getAsJsonObject().get("requestId").getAsString();
          }
        }
      }
      return new GoogleError(text(error, "message"), text(error, "status"), requestId);
    } catch (RuntimeException e) {
      String firstLine = body.strip().lines().findFirst().orElse("");
      return new GoogleError(firstLine.length() > 200 ? firstLine.substring(0, 200) : firstLine, null, null);
    }
  }

  private static String text(JsonObject o, String field) {
    JsonElement e = o.get(field);
    return e != null && e.isJsonPrimitive() ? e.getAsString() : null;
  }
}
