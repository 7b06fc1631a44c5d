package io.clusterresolver.google;

import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Reads a Google REST answer as it streams in, the way protobuf's JSON parser reads it into a message: a
 * {@code null} member is the field's default, members a reader does not ask for are skipped (the API adds
 * fields), a value of the wrong shape is an error. A provider reads only the fields a resolve needs, into
 * its own small records, instead of building the SDK's whole message with {@code JsonFormat} (issue 23).
 */
public final class GoogleJson {

  private GoogleJson() {}

  /** Reads one value. */
  @FunctionalInterface
  public interface Value<T> {
    /** Reads the next value. */
    T read(JsonReader in) throws IOException;
  }

  /**
   * Begins an object and names its first member, so that a reader walks it with arrow {@code switch}es into a
   * small holder of its fields:
   *
   * <pre>{@code
   * for (String field = GoogleJson.firstField(in); field != null; field = GoogleJson.nextField(in)) {
   *   switch (field) {
   *     case "name" -> fields.name = GoogleJson.string(in);
   *     default -> in.skipValue();
   *   }
   * }
   * }</pre>
   *
   * @return the first member's name, or {@code null} when the object has none or is {@code null} (its end read)
   */
  public static String firstField(JsonReader in) throws IOException {
    if (in.peek() == JsonToken.NULL) {
      in.nextNull();
      return null;
    }
    in.beginObject();
    return nextField(in);
  }

  /**
   * The next member's name, its value next in {@code in} (each value must be read or skipped); members whose
   * value is {@code null} (the field's default) are passed over.
   *
   * @return the name, or {@code null} at the object's end (which it reads)
   */
  public static String nextField(JsonReader in) throws IOException {
    while (in.hasNext()) {
      String name = in.nextName();
      if (in.peek() != JsonToken.NULL) {
        return name;
      }
      in.nextNull();
    }
    in.endObject();
    return null;
  }

  /**
   * The one member {@code name} of an object, read by {@code value}; the other members are skipped.
   *
   * @return the member's value, or {@code otherwise} when the object does not have it (or it is {@code null})
   */
  public static <T> T member(JsonReader in, String name, Value<T> value, T otherwise) throws IOException {
    T read = otherwise;
    for (String field = firstField(in); field != null; field = nextField(in)) {
      if (field.equals(name)) {
        read = value.read(in);
      } else {
        in.skipValue();
      }
    }
    return read;
  }

  /** A string field ({@code ""} when {@code null}; a number is read as its text, as protobuf does). */
  public static String string(JsonReader in) throws IOException {
    if (in.peek() == JsonToken.NULL) {
      in.nextNull();
      return "";
    }
    requireScalar(in, "a string");
    return in.nextString();
  }

  /** An {@code int32} field: a number or a string of one. */
  public static int int32(JsonReader in) throws IOException {
    if (in.peek() == JsonToken.NULL) {
      in.nextNull();
      return 0;
    }
    return in.nextInt();
  }

  /** A {@code uint64} field: a string of decimal digits (as protobuf writes it) or a number. */
  public static long uint64(JsonReader in) throws IOException {
    if (in.peek() == JsonToken.NULL) {
      in.nextNull();
      return 0;
    }
    requireScalar(in, "an unsigned 64-bit integer");
    String text = in.nextString();
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw new IOException("'" + text + "' is not an unsigned 64-bit integer at " + in.getPath(), e);
    }
  }

  /** A repeated field ({@code null} reads as an empty list). */
  public static <T> List<T> list(JsonReader in, Value<T> item) throws IOException {
    List<T> items = new ArrayList<>();
    if (in.peek() == JsonToken.NULL) {
      in.nextNull();
      return items;
    }
    in.beginArray();
    while (in.hasNext()) {
      items.add(item.read(in));
    }
    in.endArray();
    return items;
  }

  /** A {@code map<string, V>} field, in the answer's order ({@code null} reads as an empty map). */
  public static <V> Map<String, V> map(JsonReader in, Value<V> value) throws IOException {
    Map<String, V> map = new LinkedHashMap<>();
    for (String name = firstField(in); name != null; name = nextField(in)) {
      map.put(name, value.read(in));
    }
    return map;
  }

  /**
   * An enum field as its number: the answer may give the number ({@code $alt=json;enum-encoding=int}) or the
   * value's name, which {@code byName} turns into the number (-1 for a name this version does not know).
   */
  public static int enumNumber(JsonReader in, ToIntFunction<String> byName) throws IOException {
    if (in.peek() == JsonToken.NULL) {
      in.nextNull();
      return 0;
    }
    if (in.peek() == JsonToken.NUMBER) {
      return in.nextInt();
    }
    requireScalar(in, "an enum value");
    return byName.applyAsInt(in.nextString());
  }

  private static void requireScalar(JsonReader in, String what) throws IOException {
    JsonToken next = in.peek();
    if (next != JsonToken.STRING && next != JsonToken.NUMBER) {
      throw new IOException("expected " + what + " but was " + next + " at " + in.getPath());
    }
  }
}
