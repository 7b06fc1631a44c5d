package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clusterresolver.ClusterSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The vectors' value encoding: decoding inputs ({@code $dict}, {@code $tuple}, {@code $bytes_hex})
 * into Java values, encoding Java results the way the vectors record TF's, and comparing the two
 * (maps by content, arrays in order, numbers by value, protobuf results by {@code hex} only).
 */
public final class Values {

  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Values() {}

  /** A Python tuple from a vector: kept apart from lists, since Java has no counterpart. */
  public static final class Tuple {
    public final List<Object> items;

    Tuple(List<Object> items) {
      this.items = items;
    }

    @Override
    public String toString() {
      return "tuple" + items;
    }
  }

  /**
   * A vector input as a Java value: objects as {@code LinkedHashMap<String, Object>},
   * {@code $dict} as {@code LinkedHashMap<Object, Object>} (order kept), arrays as lists,
   * {@code $tuple} as {@link Tuple}, {@code $bytes_hex} as {@code byte[]}, integers as
   * {@code Integer} (or {@code Long} beyond int), other numbers as {@code Double}.
   */
  public static Object decode(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isObject()) {
      if (node.size() == 1 && node.has("$dict")) {
        Map<Object, Object> dict = new LinkedHashMap<>();
        for (JsonNode pair : node.get("$dict")) {
          dict.put(decode(pair.get(0)), decode(pair.get(1)));
        }
        return dict;
      }
      if (node.size() == 1 && node.has("$tuple")) {
        return new Tuple(decodeList(node.get("$tuple")));
      }
      if (node.size() == 1 && node.has("$bytes_hex")) {
        return hexToBytes(node.get("$bytes_hex").asText());
      }
      Map<String, Object> map = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        map.put(e.getKey(), decode(e.getValue()));
      }
      return map;
    }
    if (node.isArray()) {
      return decodeList(node);
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToInt() ? (Object) node.intValue() : (Object) node.longValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    return node.asText();
  }

  private static List<Object> decodeList(JsonNode array) {
    List<Object> list = new ArrayList<>();
    array.forEach(item -> list.add(decode(item)));
    return list;
  }

  /** An argument that must be a string or null. */
  public static String string(JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode() ? null : node.asText();
  }

  /** An argument that must be an int or null; anything else is reported as a D3 input. */
  public static Integer integer(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (!node.isIntegralNumber() || !node.canConvertToInt()) {
      throw new Area.SkipStep("D3: argument " + node + " is not a Java int");
    }
    return node.intValue();
  }

  /** A Java result in the vectors' output encoding. */
  public static JsonNode encode(Object value) {
    if (value instanceof JsonNode) {
      return (JsonNode) value;
    }
    if (value instanceof ClusterSpec) {
      return specResult((ClusterSpec) value);
    }
    if (value instanceof Optional) {
      return encode(((Optional<?>) value).orElse(null));
    }
    if (value instanceof OptionalInt) {
      OptionalInt i = (OptionalInt) value;
      return i.isPresent() ? NODES.numberNode(i.getAsInt()) : NODES.nullNode();
    }
    if (value instanceof byte[]) {
      ObjectNode bytes = NODES.objectNode();
      bytes.put("$bytes_hex", bytesToHex((byte[]) value));
      return bytes;
    }
    if (value instanceof List) {
      ArrayNode array = NODES.arrayNode();
      ((List<?>) value).forEach(item -> array.add(encode(item)));
      return array;
    }
    if (value instanceof Map) {
      ObjectNode object = NODES.objectNode();
      ((Map<?, ?>) value).forEach((k, v) -> object.set(String.valueOf(k), encode(v)));
      return object;
    }
    return MAPPER.valueToTree(value);
  }

  /** A ClusterSpec result: {@code {"jobs", "as_dict", "cluster_def": {"hex"}}}. */
  public static ObjectNode specResult(ClusterSpec spec) {
    ObjectNode result = NODES.objectNode();
    result.set("jobs", encode(spec.jobs()));
    result.set("as_dict", encode(spec.asMap()));
    result.set("cluster_def", protoResult(ClusterDefCodec.toBytes(spec)));
    return result;
  }

  /** A protobuf result: {@code {"hex"}} (TF's {@code text} is for reading and not compared). */
  public static ObjectNode protoResult(byte[] bytes) {
    ObjectNode result = NODES.objectNode();
    result.put("hex", bytesToHex(bytes));
    return result;
  }

  /**
   * D1 on TF's value: a ClusterSpec result ({@code {jobs, as_dict, cluster_def}}) with its {@code jobs}
   * in code-point order, as {@code jobs()} gives them (TF keeps its dict's order; its ClusterDef bytes
   * are already sorted). Anything else is returned as is.
   */
  static JsonNode withJobsSorted(JsonNode value) {
    if (!value.isObject() || !value.path("jobs").isArray() || !value.has("as_dict")) {
      return value;
    }
    List<String> jobs = new ArrayList<>();
    value.get("jobs").forEach(j -> jobs.add(j.asText()));
    jobs.sort(ClusterSpec.jobOrder());
    ObjectNode sorted = ((ObjectNode) value).deepCopy();
    ArrayNode array = sorted.putArray("jobs");
    jobs.forEach(array::add);
    return sorted;
  }

  /**
   * Where {@code actual} differs from {@code expected}, as a JSON path with both values; empty
   * when they agree.
   */
  public static Optional<String> difference(JsonNode expected, JsonNode actual) {
    return difference("$", expected, actual);
  }

  private static Optional<String> difference(String path, JsonNode expected, JsonNode actual) {
    if (actual == null) {
      actual = NODES.missingNode();
    }
    if (expected.isObject() && expected.has("hex") && expected.has("text") && expected.size() == 2) {
      return difference(path + ".hex", expected.get("hex"), actual.path("hex"));
    }
    if (expected.isNumber() && actual.isNumber()) {
      return expected.decimalValue().compareTo(actual.decimalValue()) == 0
          ? Optional.empty() : mismatch(path, expected, actual);
    }
    if (expected.getNodeType() != actual.getNodeType()) {
      return mismatch(path, expected, actual);
    }
    if (expected.isObject()) {
      List<String> expectedKeys = new ArrayList<>();
      expected.fieldNames().forEachRemaining(expectedKeys::add);
      List<String> actualKeys = new ArrayList<>();
      actual.fieldNames().forEachRemaining(actualKeys::add);
      if (!new java.util.HashSet<>(expectedKeys).equals(new java.util.HashSet<>(actualKeys))) {
        return mismatch(path, expected, actual);
      }
      for (String key : expectedKeys) {
        Optional<String> d = difference(path + "." + key, expected.get(key), actual.get(key));
        if (d.isPresent()) {
          return d;
        }
      }
      return Optional.empty();
    }
    if (expected.isArray()) {
      if (expected.size() != actual.size()) {
        return mismatch(path, expected, actual);
      }
      for (int i = 0; i < expected.size(); i++) {
        Optional<String> d = difference(path + "[" + i + "]", expected.get(i), actual.get(i));
        if (d.isPresent()) {
          return d;
        }
      }
      return Optional.empty();
    }
    return expected.equals(actual) ? Optional.empty() : mismatch(path, expected, actual);
  }

  private static Optional<String> mismatch(String path, JsonNode expected, JsonNode actual) {
    return Optional.of("at " + path + ": expected " + abbreviate(expected) + " but was " + abbreviate(actual));
  }

  static String abbreviate(Object value) {
    String text = String.valueOf(value);
    return text.length() > 400 ? text.substring(0, 400) + "…" : text;
  }

  public static byte[] hexToBytes(String hex) {
    byte[] bytes = new byte[hex.length() / 2];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return bytes;
  }

  public static String bytesToHex(byte[] bytes) {
    StringBuilder hex = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return hex.toString();
  }
}
