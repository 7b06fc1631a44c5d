package io.clusterresolver.azure;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.clusterresolver.cloud.NotTheApiException;
import java.io.IOException;

/**
 * What every successful Resource Manager list answer is: a JSON object with a {@code "value"} array
 * (and perhaps a {@code nextLink}). The SDK reads any other 200 (a proxy's welcome page, an object of
 * another API) as an empty page, so the raw body is checked before it gets there (issue 20, attack 7).
 */
final class ArmListAnswer {

  private ArmListAnswer() {}

  /**
   * @param endpoint where the answer came from, named in the error
   * @throws NotTheApiException when {@code body} is not a JSON object with a {@code "value"} array
   */
  static void require(byte[] body, String endpoint) {
    JsonToken value;
    try (JsonParser json = ArmJson.parser(body)) {
      value = valueOf(json);
    } catch (IOException | RuntimeException e) {
      throw new NotTheApiException(endpoint + " answered " + body.length + " bytes that are not a JSON object");
    }
    if (value != JsonToken.START_ARRAY) {
      throw new NotTheApiException(endpoint + " answered a JSON object " + (value == null ? "without a \"value\" list"
          : "whose \"value\" is not a list"));
    }
  }

  /** The first token of the top-level {@code "value"}, or {@code null} when the answer has none. */
  private static JsonToken valueOf(JsonParser json) throws IOException {
    if (json.nextToken() != JsonToken.START_OBJECT) {
      throw new IOException("not an object");
    }
    for (String field = json.nextFieldName(); field != null; field = json.nextFieldName()) {
      JsonToken first = json.nextToken();
      if ("value".equals(field)) {
        return first;
      }
      json.skipChildren();
    }
    return null;
  }
}
