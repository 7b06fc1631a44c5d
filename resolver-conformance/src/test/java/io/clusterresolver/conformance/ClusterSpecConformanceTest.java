package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterSpec;
import java.util.LinkedHashMap;
import java.util.Map;
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
       * D1/K2: a Java ClusterSpec keeps its jobs sorted, so its ClusterDef lists them sorted. TF
       * returns a ClusterDef it was given as is, so the expectation is TF's own bytes with the jobs
       * stably sorted by name: the same bytes wherever TF's input was already sorted.
       */
      @Override
      public JsonNode javaExpectation(Vector.Step step, JsonNode tfValue) {
        if (!"as_cluster_def".equals(step.op()) || !tfValue.has("hex")) {
          return tfValue;
        }
        return Values.protoResult(ClusterDefCodec.withJobsSorted(Values.hexToBytes(tfValue.get("hex").asText())));
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
            return Values.protoResult(ClusterDefCodec.toBytes(spec()));
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
