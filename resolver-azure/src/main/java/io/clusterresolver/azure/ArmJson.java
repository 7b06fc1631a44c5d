package io.clusterresolver.azure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Resource Manager answer read with jackson-core's streaming {@link JsonParser}, the parser azure-json wraps (its
 * own shaded copy), each value read as azure-json's {@code JsonReader} reads it: a string by {@code
 * getValueAsString}, a map of strings and a list as {@code readMap} and {@code readArray} read them, a nullable
 * boolean as {@code getNullable(getBoolean)}. Why not azure-json itself: its reader adds a call and a token mapping to
 * every token, walks {@code skipChildren} token by token through them, and is found through {@code ServiceLoader};
 * the cold first reading of a 1,000-VM resolve's 2.8 MB of pages took 113–123 ms of a thread's CPU through it, 71–72
 * ms directly (10 ms either way once compiled; docs/benchmarks.md, ninth round). jackson-core is on the class path
 * anyway: the command writes its answer with it.
 */
final class ArmJson {

  /**
   * Thread-safe once built; canonicalises field names, so each name of a page is one {@code String}. {@code NaN} and
   * {@code Infinity} are read, as azure-json's reader reads them by default ({@code JsonOptions}).
   */
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  private ArmJson() {}

  /** Reads one value at the parser's current token. */
  @FunctionalInterface
  interface Reader<T> {
    T read(JsonParser json) throws IOException;
  }

  /** A parser of {@code body}, before its first token. */
  static JsonParser parser(byte[] body) throws IOException {
    return FACTORY.createParser(body);
  }

  /**
   * Whether the parser is at an object whose fields follow ({@code false} at a JSON {@code null}); anything else is
   * an error, as in the generated models' {@code readObject}.
   */
  static boolean object(JsonParser json) throws IOException {
    return at(json, JsonToken.START_OBJECT);
  }

  /** Whether the parser is at an array whose items follow ({@code false} at a JSON {@code null}). */
  static boolean array(JsonParser json) throws IOException {
    return at(json, JsonToken.START_ARRAY);
  }

  private static boolean at(JsonParser json, JsonToken start) throws IOException {
    JsonToken token = json.currentToken();
    if (token == null) {
      token = json.nextToken();
    }
    if (token == JsonToken.VALUE_NULL) {
      return false;
    }
    if (token != start) {
      throw new IllegalStateException("Unexpected token " + token + " where ARM's answer has a"
          + (start == JsonToken.START_OBJECT ? "n object" : "n array"));
    }
    return true;
  }

  /** The next field's name with the parser at its value, or {@code null} at the end of the object. */
  static String field(JsonParser json) throws IOException {
    String name = json.nextFieldName();
    if (name != null) {
      json.nextToken();
    }
    return name;
  }

  /** The value the parser is at as azure-json's {@code getString} gives it: a scalar's text, else {@code null}. */
  static String string(JsonParser json) throws IOException {
    return json.getValueAsString();
  }

  /** The boolean the parser is at, {@code null} for a JSON {@code null}; any other value is an error. */
  static Boolean nullableBoolean(JsonParser json) throws IOException {
    return json.currentToken() == JsonToken.VALUE_NULL ? null : json.getBooleanValue();
  }

  /** The object the parser is at as a map of its fields' {@link #string} values, in order; {@code null} for null. */
  static Map<String, String> strings(JsonParser json) throws IOException {
    JsonToken token = json.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token != JsonToken.START_OBJECT) {
      throw new IllegalStateException("Unexpected token to begin map deserialization: " + token);
    }
    Map<String, String> map = new LinkedHashMap<>();
    while (json.nextToken() != JsonToken.END_OBJECT) {
      String name = json.currentName();
      json.nextToken();
      map.put(name, string(json));
    }
    return map;
  }

  /** The array the parser is at, each item read by {@code item}, {@code null} items left out; {@code null} for null. */
  static <T> List<T> list(JsonParser json, Reader<T> item) throws IOException {
    if (!array(json)) {
      return null;
    }
    List<T> items = new ArrayList<>(2);
    while (json.nextToken() != JsonToken.END_ARRAY) {
      T read = item.read(json);
      if (read != null) {
        items.add(read);
      }
    }
    return items;
  }

  /**
   * The list field {@code name} of the object the parser is at (read to its end), each item read by {@code item};
   * empty when the object, the field or its value is absent or {@code null}.
   */
  static <T> List<T> listField(JsonParser json, String name, Reader<T> item) throws IOException {
    List<T> items = null;
    if (object(json)) {
      for (String field = field(json); field != null; field = field(json)) {
        if (name.equals(field)) {
          items = list(json, item);
        } else {
          json.skipChildren();
        }
      }
    }
    return items == null ? new ArrayList<>(0) : items;
  }

  /** The string field {@code name} of the object the parser is at (read to its end), or {@code null}. */
  static String stringField(JsonParser json, String name) throws IOException {
    String value = null;
    if (!object(json)) {
      return null;
    }
    for (String field = field(json); field != null; field = field(json)) {
      if (name.equals(field)) {
        value = string(json);
      } else {
        json.skipChildren();
      }
    }
    return value;
  }
}
