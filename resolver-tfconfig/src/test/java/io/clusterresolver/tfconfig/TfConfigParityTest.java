package io.clusterresolver.tfconfig;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TfConfig} reads TF_CONFIG with Jackson's streaming parser; databind's {@code readTree} (what it read
 * with before) is the independent reading it is checked against: for every text of the corpus (the fuzz
 * seeds, the conformance vectors' TF_CONFIG values and edge cases of JSON), the same fields, the same
 * values, and the same described values and positions in the same messages.
 */
class TfConfigParityTest {

  private static final ObjectMapper DATABIND =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  static Stream<String> corpus() throws IOException {
    List<String> texts = new ArrayList<>(List.of(
        "{\"cluster\": {\"worker\": [\"a:1\", \"b:1\"]}, \"task\": {\"type\": \"worker\", \"index\": 1}}",
        "{\"cluster\": {\"w\": {\"1\": \"a:1\", \"3\": \"b:1\", \"1\": \"c:1\"}}, \"rpc_layer\": \"grpc\"}",
        "{\"cluster\": {\"w\": [1, 1.5, -0.0, 1e400, 12345678901234567890, true, null, {\"k\": \"\\u0001\\\"é/\"}]}}",
        "{\"cluster\": {\"w\": [\"a:1\"]}, \"task\": {\"type\": 3, \"index\": 3000000000}}",
        "{\"task\": {\"index\": 2.0}}", "{\"task\": {\"index\": -0}}", "{\"task\": {\"index\": 99999999999999999999}}",
        "{\"task\": {\"type\": null, \"index\": null}, \"rpc_layer\": null, \"session_master\": [\"x\"]}",
        "{\"task\": null}", "{\"task\": [1]}", "{\"cluster\": \"" + "x".repeat(80) + "\"}", "{\"cluster\": null}",
        "{\"cluster\": {\"w\": \"a:1\"}}", "{\"cluster\": {\"w\": {\"01\": \"a:1\", \"-2\": \"b:1\"}}}",
        "{\"session_master\": false, \"rpc_layer\": {\"a\": [true]}}", "{\"a\": 1, \"a\": {\"b\": 2}}",
        "[]", "[1, 2]", "42", "\"text\"", "true", "null", "-1.0E-3",
        "{} {}", "{} 1", "{}\n  [", "{} ]", "{\"cluster\": {}} trailing", "{not json", "{\"cluster\": {",
        "{\"a\": NaN}", "{\"a\": 01}", "{\"a\": 'x'}", "{\"a\": 1,}", "{/* c */}", "\uFEFF{}", "{\"a\": \"\t\"}",
        "{\n\"cluster\":\n  {\"w\": [\"a:1\",\n \"b:1\" x]}}", "[".repeat(1001) + "]".repeat(1001),
        "{\"a\": " + "9".repeat(1001) + "}", "{\"a\": \"\\ud800\"}", "{\"a\": \"\\x\"}"));
    Path seeds = Path.of("src/test/resources/io/clusterresolver/tfconfig/TfConfigFuzzTestInputs/tfConfig");
    try (Stream<Path> files = Files.list(seeds)) {
      files.sorted().forEach(file -> texts.add(read(file)));
    }
    // The conformance module's copy of TensorFlow's vectors (/work/shared/conformance/tf-vectors).
    JsonNode vectors = DATABIND.readTree(
        read(Path.of("../resolver-conformance/src/test/resources/conformance/tf-vectors/tfconfig.json")));
    for (JsonNode vector : vectors.path("vectors")) {
      JsonNode value = vector.path("setup").path("env").path("TF_CONFIG");
      if (value.isTextual()) {
        texts.add(value.textValue());
      }
    }
    return texts.stream().distinct();
  }

  private static String read(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.UTF_8); // a fuzz seed may be any bytes
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @ParameterizedTest
  @MethodSource("corpus")
  void readsAsDatabindReadsIt(String text) {
    List<String> expected = Reference.outcomes(text);
    TfConfig config;
    try {
      config = TfConfig.parse(text);
    } catch (IllegalArgumentException e) {
      assertThat(List.of("parse: " + e.getMessage())).isEqualTo(expected);
      return;
    }
    List<String> actual = new ArrayList<>();
    actual.add("parse: ok");
    actual.add("has cluster: " + config.has("cluster"));
    actual.add(outcome("cluster", () -> config.cluster().asMap()));
    actual.add(outcome("task type", config::taskType));
    actual.add(outcome("task index", config::taskIndex));
    actual.add(outcome("rpc layer", config::rpcLayer));
    actual.add(outcome("session master", config::sessionMaster));
    assertThat(actual).isEqualTo(expected);
  }

  private static String outcome(String field, Supplier<?> value) {
    try {
      return field + ": " + value.get();
    } catch (IllegalArgumentException e) {
      return field + ": " + e.getMessage();
    }
  }

  /** The fields as databind's tree gives them, with the messages TfConfig words around them. */
  private static final class Reference {

    static List<String> outcomes(String text) {
      String v = TfConfig.VARIABLE;
      if (text.isBlank()) {
        return List.of("parse: ok", "has cluster: false", "cluster: {}", "task type: null", "task index: null",
            "rpc layer: null", "session master: null");
      }
      JsonNode root;
      try {
        root = DATABIND.readTree(text);
      } catch (JsonProcessingException e) {
        String message = e.getOriginalMessage().lines().findFirst().orElse("")
            // databind's own check of trailing text names a setting of its own, not one a user has
            .replaceFirst(" \\(bound as `[^`]*`\\): not allowed as per `[^`]*`", "")
            .replaceAll(":? ?enable `[^`]*` to allow", "")
            .replaceAll(",? from `StreamReadConstraints[^`]*`", "")
            .replaceAll("\\s*\\(start marker at \\[Source: .*?; line: \\d+, column: \\d+\\]\\)", "").trim();
        var at = e.getLocation();
        String where = at == null ? "" // a limit of StreamReadConstraints has no position
            : " at line " + at.getLineNr() + ", column " + at.getColumnNr()
                + (at.getCharOffset() >= 0 ? " (character " + at.getCharOffset() + ")" : "");
        return List.of("parse: " + v + " is not valid JSON" + where + ": " + message + ". Set " + v + " to a JSON object such as {\"cluster\": {\"worker\": [\"host:port\"]},"
            + " \"task\": {\"type\": \"worker\", \"index\": 0}}");
      }
      if (root.isArray()) {
        return outcomes("");
      }
      if (!root.isObject()) {
        return List.of("parse: " + v + " must be a JSON object, not " + describe(root));
      }
      List<String> outcomes = new ArrayList<>();
      outcomes.add("parse: ok");
      outcomes.add("has cluster: " + root.has("cluster"));
      outcomes.add("cluster: " + cluster(root));
      JsonNode task = root.has("task") ? root.get("task") : DATABIND.createObjectNode();
      String taskProblem = task.isObject() ? null
          : v + " \"task\" must be an object with \"type\" and \"index\", not " + describe(task);
      JsonNode type = task.get("type");
      outcomes.add("task type: " + (taskProblem != null ? taskProblem
          : type == null || type.isNull() ? null
          : type.isTextual() ? type.textValue()
          : v + " \"task\".\"type\" must be a job name string, not " + describe(type)));
      JsonNode index = task.get("index");
      outcomes.add("task index: " + (taskProblem != null ? taskProblem
          : index == null || index.isNull() ? null
          : index.isIntegralNumber() && index.canConvertToInt() ? index.intValue()
          : v + " \"task\".\"index\" must be an integer, not " + describe(index)));
      outcomes.add("rpc layer: " + text(root, "rpc_layer"));
      outcomes.add("session master: " + text(root, "session_master"));
      return outcomes;
    }

    private static Object cluster(JsonNode root) {
      String v = TfConfig.VARIABLE;
      JsonNode cluster = root.get("cluster");
      if (cluster == null) {
        return "{}";
      }
      if (!cluster.isObject()) {
        return v + " \"cluster\" must be an object mapping job names to lists of addresses (or objects from task"
            + " index to address), not " + describe(cluster);
      }
      var spec = io.clusterresolver.ClusterSpec.builder();
      for (var jobs = cluster.fields(); jobs.hasNext(); ) {
        var job = jobs.next();
        String name = job.getKey();
        spec.addEmptyJob(name);
        List<java.util.Map.Entry<String, JsonNode>> tasks = new ArrayList<>();
        if (job.getValue().isArray()) {
          for (int i = 0; i < job.getValue().size(); i++) {
            tasks.add(java.util.Map.entry(String.valueOf(i), job.getValue().get(i)));
          }
        } else if (job.getValue().isObject()) {
          job.getValue().fields().forEachRemaining(tasks::add);
        } else {
          return v + " job '" + name + "' must be a list of addresses or an object from task index to address, not "
              + describe(job.getValue());
        }
        for (var task : tasks) {
          boolean decimal = task.getKey().matches("-?[0-9]+");
          Integer index = null;
          try {
            index = decimal ? Integer.valueOf(task.getKey()) : null;
          } catch (NumberFormatException e) {
            // out of int's range: not a task index
          }
          if (index == null) {
            return v + " job '" + name + "' has task index '" + task.getKey() + "': task indices must be decimal"
                + " integers";
          }
          if (!task.getValue().isTextual()) {
            return v + " task " + task.getKey() + " of job '" + name + "' must be a \"host:port\" string, not "
                + describe(task.getValue());
          }
          try {
            spec.addTask(name, index, task.getValue().textValue());
          } catch (IllegalArgumentException e) {
            return e.getMessage();
          }
        }
      }
      try {
        return spec.build().asMap();
      } catch (IllegalArgumentException e) {
        return e.getMessage();
      }
    }

    private static String text(JsonNode root, String key) {
      JsonNode value = root.get(key);
      if (value == null || value.isNull()) {
        return null;
      }
      return value.isTextual() ? value.textValue()
          : TfConfig.VARIABLE + " \"" + key + "\" must be a string, not " + describe(value);
    }

    private static String describe(JsonNode node) {
      if (node.isNull()) {
        return "null";
      }
      String text = node.toString();
      return node.getNodeType().name().toLowerCase(Locale.ROOT) + " "
          + (text.length() > 60 ? text.substring(0, 57) + "..." : text);
    }
  }
}
