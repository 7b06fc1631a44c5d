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

  /** Reads one member of an object. */
  @FunctionalInterface
  public interface Member {
    /**
     * Reads the value of member {@code name} when it is one this reader wants.
     *
     * @return whether the value was read (otherwise it is skipped)
     */
    boolean read(String name, JsonReader in) throws IOException;
  }

  /** Reads one value. */
  @FunctionalInterface
  public interface Value<T> {
    /** Reads the next value. */
    T read(JsonReader in) throws IOException;
  }

  /** Reads an object member by member ({@code null} reads as an empty object). */
  public static void object(JsonReader in, Member member) throws IOException {
    if (in.peek() == JsonToken.NULL) {
      in.nextNull();
      return;
    }
    in.beginObject();
    while (in.hasNext()) {
      String name = in.nextName();
      if (in.peek() == JsonToken.NULL) {
        in.nextNull();
      } else if (!member.read(name, in)) {
        in.skipValue();
      }
    }
    in.endObject();
  }

  /**
   * The one member {@code name} of an object, read by {@code value}; the other members are skipped.
   *
   * @return the member's value, or {@code otherwise} when the object does not have it (or it is {@code null})
   */
  public static <T> T member(JsonReader in, String name, Value<T> value, T otherwise) throws IOException {
    List<T> read = new ArrayList<>(1);
    object(in, (field, r) -> field.equals(name) && read.add(value.read(r)));
    return read.isEmpty() ? otherwise : read.get(read.size() - 1);
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
    object(in, (name, reader) -> {
      map.put(name, value.read(reader));
      return true;
    });
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
