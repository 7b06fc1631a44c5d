package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterSpec;
import java.util.Map;

/** ClusterSpec setups ({@code from: dict | cluster_def | cluster_spec | value}), shared by the areas. */
final class Specs {

  private Specs() {}

  /** The spec a clusterspec setup describes; construction errors propagate. */
  @SuppressWarnings("unchecked")
  static ClusterSpec build(JsonNode setup) {
    String from = setup.path("from").asText();
    switch (from) {
      case "dict":
        return ClusterSpec.of((Map<String, ?>) Values.decode(setup.get("cluster")));
      case "cluster_def":
        return ClusterDefCodec.fromBytes(Values.hexToBytes(setup.path("cluster_def_hex").asText()));
      case "cluster_spec":
        return copy(build(setup.get("source")));
      case "value":
        Object value = Values.decode(setup.get("value"));
        if (!(value instanceof Map)) {
          throw new Area.SkipStep("D3: ClusterSpec.of takes a Map; " + value + " cannot be passed in Java");
        }
        return ClusterSpec.of((Map<String, ?>) value);
      default:
        throw new IllegalStateException("Unknown clusterspec setup 'from: " + from + "'");
    }
  }

  /** A spec built from another, task by task (TensorFlow's {@code ClusterSpec(cluster_spec)}). */
  static ClusterSpec copy(ClusterSpec source) {
    ClusterSpec.Builder copy = ClusterSpec.builder();
    for (String job : source.jobs()) {
      copy.addEmptyJob(job);
      for (int index : source.taskIndices(job)) {
        copy.addTask(job, index, source.taskAddress(job, index));
      }
    }
    return copy.build();
  }
}
