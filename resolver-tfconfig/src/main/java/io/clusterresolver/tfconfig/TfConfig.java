package io.clusterresolver.tfconfig;

import io.clusterresolver.ConfigurationException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.clusterresolver.ClusterSpec;
import java.util.Iterator;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One reading of {@code TF_CONFIG}. Each field is checked only when it is asked for, as in
 * TensorFlow, so a bad {@code task.index} does not hide a good {@code cluster}.
 */
final class TfConfig {

  static final String VARIABLE = "TF_CONFIG";

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  /** D3: a sparse job's task index is a decimal integer, nothing Python's int() would also take. */
  private static final Pattern DECIMAL_INTEGER = Pattern.compile("-?[0-9]+");
  /**
   * The longest value read, in characters: a cluster of 10,000 tasks takes about 300 KB, so a longer
   * one is a mistake (or an attack), and parsing it would only fill the memory.
   */
  static final int MAX_LENGTH = 1024 * 1024;

  private static final TfConfig UNSET = new TfConfig(MissingNode.getInstance());

  /** The top-level JSON object; a missing node when TF_CONFIG is unset, blank, or has no keys. */
  private final JsonNode root;

  private TfConfig(JsonNode root) {
    this.root = root;
  }

  /**
   * Parses a {@code TF_CONFIG} value. Unset or blank means no configuration (D4).
   *
   * @throws IllegalArgumentException for invalid JSON, naming the position of the error, or a value
   *     longer than {@link #MAX_LENGTH}
   */
  static TfConfig parse(String value) {
    if (value == null || value.isBlank()) {
      return UNSET;
    }
    if (value.length() > MAX_LENGTH) {
      throw new ConfigurationException(VARIABLE + " is " + value.length() + " characters long, over the limit of 1 MiB ("
          + MAX_LENGTH + " characters); set " + VARIABLE + " to the cluster and task only");
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(value);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? ""
          : " at line " + at.getLineNr() + ", column " + at.getColumnNr()
              + (at.getCharOffset() >= 0 ? " (character " + at.getCharOffset() + ")" : "");
      throw new ConfigurationException(VARIABLE + " is not valid JSON" + where + ": "
          + withoutJacksonAdvice(withoutSourceLocation(e.getOriginalMessage().lines().findFirst().orElse("")))
          + ". Set " + VARIABLE + " to a JSON object such as "
          + "{\"cluster\": {\"worker\": [\"host:port\"]}, \"task\": {\"type\": \"worker\", \"index\": 0}}");
    }
    if (root.isArray()) {
      return UNSET; // TensorFlow looks keys up with `in`, which finds none in a list
    }
    if (!root.isObject()) {
      throw new ConfigurationException(VARIABLE + " must be a JSON object, not " + describe(root));
    }
    return new TfConfig(root);
  }

  /** Whether the key is present (even with a null value). */
  boolean has(String key) {
    return root.has(key);
  }

  /**
   * The cluster; empty when there is no {@code cluster} key.
   *
   * @throws IllegalArgumentException when {@code cluster} is not an object of jobs, naming the job
   */
  ClusterSpec cluster() {
    if (!root.has("cluster")) {
      return ClusterSpec.empty();
    }
    JsonNode cluster = root.get("cluster");
    if (!cluster.isObject()) {
      throw new ConfigurationException(VARIABLE + " \"cluster\" must be an object mapping job names to "
          + "lists of addresses (or objects from task index to address), not " + describe(cluster));
    }
    ClusterSpec.Builder spec = ClusterSpec.builder();
    for (Iterator<Map.Entry<String, JsonNode>> jobs = cluster.fields(); jobs.hasNext(); ) {
      Map.Entry<String, JsonNode> job = jobs.next();
      String name = job.getKey();
      JsonNode tasks = job.getValue();
      spec.addEmptyJob(name);
      if (tasks.isArray()) {
        for (int i = 0; i < tasks.size(); i++) {
          spec.addTask(name, i, address(name, String.valueOf(i), tasks.get(i)));
        }
      } else if (tasks.isObject()) {
        for (Iterator<Map.Entry<String, JsonNode>> it = tasks.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> task = it.next();
          spec.addTask(name, taskIndexKey(name, task.getKey()), address(name, task.getKey(), task.getValue()));
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

  private static String address(String job, String index, JsonNode address) {
    if (!address.isTextual()) {
      throw new ConfigurationException(VARIABLE + " task " + index + " of job '" + job
          + "' must be a \"host:port\" string, not " + describe(address));
    }
    return address.textValue();
  }

  /** {@code task.type}, or {@code null} when absent. */
  String taskType() {
    JsonNode type = task().get("type");
    if (type == null || type.isNull()) {
      return null;
    }
    if (!type.isTextual()) {
      throw new ConfigurationException(VARIABLE + " \"task\".\"type\" must be a job name string, not "
          + describe(type));
    }
    return type.textValue();
  }

  /** {@code task.index}, or {@code null} when absent. */
  Integer taskIndex() {
    JsonNode index = task().get("index");
    if (index == null || index.isNull()) {
      return null;
    }
    if (!index.isIntegralNumber() || !index.canConvertToInt()) {
      throw new ConfigurationException(VARIABLE + " \"task\".\"index\" must be an integer, not "
          + describe(index));
    }
    return index.intValue();
  }

  private JsonNode task() {
    if (!root.has("task")) {
      return MissingNode.getInstance();
    }
    JsonNode task = root.get("task");
    if (!task.isObject()) {
      throw new ConfigurationException(VARIABLE + " \"task\" must be an object with \"type\" and \"index\", not "
          + describe(task));
    }
    return task;
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
    JsonNode value = root.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new ConfigurationException(VARIABLE + " \"" + key + "\" must be a string, not " + describe(value));
    }
    return value.textValue();
  }

  private static String describe(JsonNode node) {
    if (node.isNull()) {
      return "null";
    }
    String text = node.toString();
    String shown = text.length() > 60 ? text.substring(0, 57) + "..." : text;
    return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " " + shown;
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
