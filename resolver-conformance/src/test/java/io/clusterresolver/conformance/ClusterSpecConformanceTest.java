package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.ClusterDef;
import io.clusterresolver.proto.JobDef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/** {@code tf-vectors/clusterspec.json}: ClusterSpec construction, accessors, ClusterDef bytes, equality (K1-K3, D1-D3). */
class ClusterSpecConformanceTest {

  static final String FILE = "tf-vectors/clusterspec.json";

  @TestFactory
  Stream<DynamicNode> clusterspec() {
    return VectorRunner.run(FILE, ClusterSpecConformanceTest::open);
  }

  static Area.Session open(Vector vector) {
    JsonNode setup = vector.setup();
    return new Area.Session() {
      private ClusterSpec spec;

      private ClusterSpec spec() {
        if (spec == null) {
          spec = Specs.build(setup.has("left") ? setup.get("left") : setup);
        }
        return spec;
      }

      /** The right side of an equality vector: a spec, or a raw Python value. */
      private Object right() {
        return setup.has("right") ? Specs.build(setup.get("right")) : Values.decode(setup.get("right_value"));
      }

      /**
       * K2/D1: TensorFlow's bytes as given when its jobs are already in name order (the bytes must
       * be equal). A ClusterDef TF was given unsorted is returned by TF as is, while a Java spec lists
       * its jobs sorted (D1): then the parsed messages are compared, TF's jobs in name order.
       */
      @Override
      public JsonNode javaExpectation(Vector.Step step, JsonNode tfValue) {
        JsonNode k3 = lastJobOfEachName(tfValue);
        if (k3 != tfValue || !"as_cluster_def".equals(step.op()) || !tfValue.has("hex")) {
          return k3;
        }
        ClusterDef tf = ClusterDefCodec.parse(Values.hexToBytes(tfValue.get("hex").asText()));
        if (ClusterDefCodec.jobsAscending(tf)) {
          return tfValue;
        }
        List<JobDef> sorted = new ArrayList<>(tf.getJobList());
        sorted.sort(Comparator.comparing(JobDef::getName));
        return Values.MAPPER.valueToTree(ClusterDefCodec.parsed(sorted));
      }

      @Override
      public Object run(Vector.Step step) {
        switch (step.op()) {
          case "construct":
            spec();
            return null;
          case "jobs":
            return spec().jobs();
          case "num_tasks":
            return spec().numTasks(Values.string(step.arg(0)));
          case "task_indices":
            return spec().taskIndices(Values.string(step.arg(0)));
          case "task_address":
            return spec().taskAddress(Values.string(step.arg(0)), Values.integer(step.arg(1)));
          case "job_tasks":
            return spec().jobTasks(Values.string(step.arg(0)));
          case "as_dict":
            return spec().asMap();
          case "as_cluster_def":
            {
              byte[] bytes = ClusterDefCodec.toBytes(spec());
              if (step.hasValue() && step.value().has("hex") && unsortedDistinct(step.value().get("hex").asText())) {
                return ClusterDefCodec.parsed(ClusterDefCodec.parse(bytes).getJobList());
              }
              return Values.protoResult(bytes);
            }
          case "bool":
            return !spec().isEmpty();
          case "eq":
            return spec().equals(right());
          case "ne":
            return !spec().equals(right());
          case "eq_reversed":
            return right().equals(spec());
          case "repr":
            throw new Area.SkipStep("Python repr (no Java counterpart)");
          case "roundtrip":
            return roundtrip(spec());
          default:
            throw new Area.UnknownOp(step);
        }
      }
    };
  }

  /** Whether TF's ClusterDef lists distinct jobs out of name order (D1: compared as parsed messages). */
  private static boolean unsortedDistinct(String hex) {
    byte[] bytes = Values.hexToBytes(hex);
    return !ClusterDefCodec.jobsAscending(ClusterDefCodec.parse(bytes))
        && ClusterDefCodec.lastJobOfEachName(bytes).isEmpty();
  }

  /**
   * K3: every ClusterDef in TF's value (an {@code as_cluster_def} result, or the {@code cluster_def}
   * of a ClusterSpec result, nested ones included) that names a job twice becomes the bytes a Java
   * spec writes: the last job of each name. TF's message keeps both; a Java spec cannot. The same
   * node when nothing changes.
   */
  static JsonNode lastJobOfEachName(JsonNode value) {
    if (value.isObject() && value.path("hex").isTextual()) {
      Optional<byte[]> cut = ClusterDefCodec.lastJobOfEachName(Values.hexToBytes(value.get("hex").asText()));
      return cut.isPresent() ? Values.protoResult(cut.get()) : value;
    }
    if (value.isArray()) {
      ArrayNode copy = value.deepCopy();
      for (int i = 0; i < copy.size(); i++) {
        copy.set(i, lastJobOfEachName(copy.get(i)));
      }
      return copy.equals(value) ? value : copy;
    }
    if (value.isObject()) {
      ObjectNode copy = value.deepCopy();
      value.fieldNames().forEachRemaining(name -> copy.set(name, lastJobOfEachName(value.get(name))));
      return copy.equals(value) ? value : copy;
    }
    return value;
  }

  /** Rebuilt from asMap(), from the ClusterDef bytes, and from the spec itself. */
  private static Map<String, Object> roundtrip(ClusterSpec spec) {
    ClusterSpec fromAsMap = ClusterSpec.of(spec.asMap());
    ClusterSpec fromClusterDef = ClusterDefCodec.fromBytes(ClusterDefCodec.toBytes(spec));
    ClusterSpec fromSpec = Specs.copy(spec);
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("from_as_dict", fromAsMap);
    result.put("from_cluster_def", fromClusterDef);
    result.put("from_cluster_spec", fromSpec);
    result.put("equal_all", fromAsMap.equals(fromClusterDef) && fromClusterDef.equals(fromSpec));
    return result;
  }
}
