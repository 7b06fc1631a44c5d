package io.clusterresolver.tfconfig;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One reading of {@code TF_CONFIG}. Each field is checked only when it is asked for, as in
 * TensorFlow, so a bad {@code task.index} does not hide a good {@code cluster}.
 *
 * <p>Read with Jackson's streaming parser into plain values ({@link Map} for an object, in order, {@link List},
 * {@link String}, {@link Number}, {@link Boolean}, {@link JsonNull}) rather than databind's tree: the same parser
 * and the same answers, without the few hundred classes an {@code ObjectMapper} loads at every cold start.
 */
final class TfConfig {

  static final String VARIABLE = "TF_CONFIG";

  private static final JsonFactory JSON = new JsonFactory();
  /** D3: a sparse job's task index is a decimal integer, nothing Python's int() would also take. */
  private static final Pattern DECIMAL_INTEGER = Pattern.compile("-?[0-9]+");
  /**
   * The longest value read, in characters: a cluster of 10,000 tasks takes about 300 KB, so a longer
   * one is a mistake (or an attack), and parsing it would only fill the memory.
   */
  static final int MAX_LENGTH = 1024 * 1024;

  private static final TfConfig UNSET = new TfConfig(Map.of());

  /** JSON's {@code null}, which a {@link Map} value of {@code null} (no such key) cannot stand for. */
  private enum JsonNull { NULL }

  /** The top-level JSON object; empty when TF_CONFIG is unset, blank, or has no keys. */
  private final Map<String, Object> root;

  private TfConfig(Map<String, Object> root) {
    this.root = root;
  }

  /**
   * Parses a {@code TF_CONFIG} value. Unset or blank means no configuration (D4).
   *
   * @throws IllegalArgumentException for invalid JSON, naming the position of the error, or a value
   *     longer than {@link #MAX_LENGTH}
   */
  @SuppressWarnings("unchecked")
  static TfConfig parse(String value) {
    if (value == null || value.isBlank()) {
      return UNSET;
    }
    if (value.length() > MAX_LENGTH) {
      throw new ConfigurationException(VARIABLE + " is " + value.length() + " characters long, over the limit of 1 MiB ("
          + MAX_LENGTH + " characters); set " + VARIABLE + " to the cluster and task only");
    }
    Object root;
    try (JsonParser parser = JSON.createParser(value)) {
      root = read(parser, parser.nextToken());
      JsonToken trailing = parser.nextToken();
      if (trailing != null) {
        throw notJson(parser.currentTokenLocation(), "Trailing token (of type " + trailing + ") found after value");
      }
    } catch (JsonProcessingException e) {
      throw notJson(e.getLocation(), withoutJacksonAdvice(withoutSourceLocation(
          e.getOriginalMessage().lines().findFirst().orElse(""))));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + VARIABLE, e); // a String is never unreadable
    }
    if (root instanceof List) {
      return UNSET; // TensorFlow looks keys up with `in`, which finds none in a list
    }
    if (!(root instanceof Map)) {
      throw new ConfigurationException(VARIABLE + " must be a JSON object, not " + describe(root));
    }
    return new TfConfig((Map<String, Object>) root);
  }

  private static ConfigurationException notJson(JsonLocation at, String problem) {
    String where = at == null ? ""
        : " at line " + at.getLineNr() + ", column " + at.getColumnNr()
            + (at.getCharOffset() >= 0 ? " (character " + at.getCharOffset() + ")" : "");
    return new ConfigurationException(VARIABLE + " is not valid JSON" + where + ": " + problem
        + ". Set " + VARIABLE + " to a JSON object such as "
        + "{\"cluster\": {\"worker\": [\"host:port\"]}, \"task\": {\"type\": \"worker\", \"index\": 0}}");
  }

  /** The value that starts at {@code token}, read to its end. */
  private static Object read(JsonParser parser, JsonToken token) throws IOException {
    switch (token) {
      case START_OBJECT: {
        Map<String, Object> object = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          object.put(name, read(parser, parser.nextToken())); // a repeated key: the last value, first place
        }
        return object;
      }
      case START_ARRAY: {
        List<Object> array = new ArrayList<>();
        for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY; element = parser.nextToken()) {
          array.add(read(parser, element));
        }
        return array;
      }
      case VALUE_STRING:
        return parser.getText();
      case VALUE_NUMBER_INT:
        return parser.getNumberValue(); // Integer, Long or BigInteger: the smallest that holds it
      case VALUE_NUMBER_FLOAT:
        return parser.getDoubleValue();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return JsonNull.NULL;
      default:
        throw new IllegalStateException("JSON text has no " + token); // the parser reports every malformed text
    }
  }

  /** Whether the key is present (even with a null value). */
  boolean has(String key) {
    return root.containsKey(key);
  }

  /**
   * The cluster; empty when there is no {@code cluster} key.
   *
   * @throws IllegalArgumentException when {@code cluster} is not an object of jobs, naming the job
   */
  ClusterSpec cluster() {
    if (!root.containsKey("cluster")) {
      return ClusterSpec.empty();
    }
    Object cluster = root.get("cluster");
    if (!(cluster instanceof Map)) {
      throw new ConfigurationException(VARIABLE + " \"cluster\" must be an object mapping job names to "
          + "lists of addresses (or objects from task index to address), not " + describe(cluster));
    }
    ClusterSpec.Builder spec = ClusterSpec.builder();
    for (Map.Entry<?, ?> job : ((Map<?, ?>) cluster).entrySet()) {
      String name = (String) job.getKey();
      Object tasks = job.getValue();
      spec.addEmptyJob(name);
      if (tasks instanceof List) {
        List<?> addresses = (List<?>) tasks;
        for (int i = 0; i < addresses.size(); i++) {
          spec.addTask(name, i, address(name, String.valueOf(i), addresses.get(i)));
        }
      } else if (tasks instanceof Map) {
        for (Map.Entry<?, ?> task : ((Map<?, ?>) tasks).entrySet()) {
          String index = (String) task.getKey();
          spec.addTask(name, taskIndexKey(name, index), address(name, index, task.getValue()));
        }
      } else {
        throw new ConfigurationException(VARIABLE + " job '" + name + "' must be a list of addresses or an "
            + "object from task index to address, not " + describe(tasks));
      }
    }
    return spec.build();
  }

  private static int taskIndexKey(String job, String key) {
    if (DECIMAL_INTEGER.matcher(key).matches()) {
      try {
        return Integer.parseInt(key);
      } catch (NumberFormatException e) {
        // out of int range: reported below
      }
    }
    throw new ConfigurationException(VARIABLE + " job '" + job + "' has task index '" + key
        + "': task indices must be decimal integers");
  }

  private static String address(String job, String index, Object address) {
    if (!(address instanceof String)) {
      throw new ConfigurationException(VARIABLE + " task " + index + " of job '" + job
          + "' must be a \"host:port\" string, not " + describe(address));
    }
    return (String) address;
  }

  /** {@code task.type}, or {@code null} when absent. */
  String taskType() {
    Object type = task().get("type");
    if (type == null || type == JsonNull.NULL) {
      return null;
    }
    if (!(type instanceof String)) {
      throw new ConfigurationException(VARIABLE + " \"task\".\"type\" must be a job name string, not "
          + describe(type));
    }
    return (String) type;
  }

  /** {@code task.index}, or {@code null} when absent. */
  Integer taskIndex() {
    Object index = task().get("index");
    if (index == null || index == JsonNull.NULL) {
      return null;
    }
    if (!(index instanceof Integer)) { // the parser makes a Long or BigInteger only past int's range
      throw new ConfigurationException(VARIABLE + " \"task\".\"index\" must be an integer, not "
          + describe(index));
    }
    return (Integer) index;
  }

  private Map<?, ?> task() {
    if (!root.containsKey("task")) {
      return Map.of();
    }
    Object task = root.get("task");
    if (!(task instanceof Map)) {
      throw new ConfigurationException(VARIABLE + " \"task\" must be an object with \"type\" and \"index\", not "
          + describe(task));
    }
    return (Map<?, ?>) task;
  }

  /** {@code rpc_layer}, or {@code null} when absent. */
  String rpcLayer() {
    return optionalText("rpc_layer");
  }

  /** {@code session_master}, or {@code null} when absent. */
  String sessionMaster() {
    return optionalText("session_master");
  }

  private String optionalText(String key) {
    Object value = root.get(key);
    if (value == null || value == JsonNull.NULL) {
      return null;
    }
    if (!(value instanceof String)) {
      throw new ConfigurationException(VARIABLE + " \"" + key + "\" must be a string, not " + describe(value));
    }
    return (String) value;
  }

  /** A value for a message: its JSON type and its compact JSON text, cut to 60 characters. */
  private static String describe(Object value) {
    if (value == JsonNull.NULL) {
      return "null";
    }
    StringWriter text = new StringWriter();
    try (JsonGenerator json = JSON.createGenerator(text)) {
      write(json, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    String written = text.toString();
    String shown = written.length() > 60 ? written.substring(0, 57) + "..." : written;
    return typeName(value) + " " + shown;
  }

  private static String typeName(Object value) {
    if (value instanceof Map) {
      return "object";
    }
    if (value instanceof List) {
      return "array";
    }
    if (value instanceof String) {
      return "string";
    }
    return value instanceof Number ? "number" : "boolean";
  }

  private static void write(JsonGenerator json, Object value) throws IOException {
    if (value instanceof Map) {
      json.writeStartObject();
      for (Map.Entry<?, ?> field : ((Map<?, ?>) value).entrySet()) {
        json.writeFieldName((String) field.getKey());
        write(json, field.getValue());
      }
      json.writeEndObject();
    } else if (value instanceof List) {
      json.writeStartArray();
      for (Object element : (List<?>) value) {
        write(json, element);
      }
      json.writeEndArray();
    } else if (value instanceof String) {
      json.writeString((String) value);
    } else if (value instanceof Integer) {
      json.writeNumber((Integer) value);
    } else if (value instanceof Long) {
      json.writeNumber((Long) value);
    } else if (value instanceof BigInteger) {
      json.writeNumber((BigInteger) value);
    } else if (value instanceof Double) {
      json.writeNumber((Double) value);
    } else if (value instanceof Boolean) {
      json.writeBoolean((Boolean) value);
    } else {
      json.writeNull();
    }
  }

  /**
   * Jackson's message without the parser settings it names as a fix ("enable
   * `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS`", "from `StreamReadConstraints…`"), which a user
   * setting TF_CONFIG cannot change.
   */
  private static String withoutJacksonAdvice(String message) {
    return message.replaceAll(":? ?enable `[^`]*` to allow", "")
        .replaceAll(",? from `StreamReadConstraints[^`]*`", "")
        .trim();
  }

  /**
   * Jackson's message without its "(start marker at [Source: ...; line: L, column: C])" part: the
   * position is already given, and the source is hidden anyway.
   */
  private static String withoutSourceLocation(String message) {
    return message.replaceAll("\\s*\\(start marker at \\[Source: .*?; line: \\d+, column: \\d+\\]\\)", "");
  }
}
