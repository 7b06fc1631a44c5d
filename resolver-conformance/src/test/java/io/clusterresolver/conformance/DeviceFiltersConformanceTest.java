package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.proto.DeviceFilters;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code tf-vectors/devicefilters.json}: {@link DeviceFilters} built with TensorFlow's
 * {@code set_device_filters} calls, compared byte for byte with TensorFlow's
 * {@code tensorflow.ClusterDeviceFilters} (K9).
 */
class DeviceFiltersConformanceTest {

  static final String FILE = "tf-vectors/devicefilters.json";

  @TestFactory
  Stream<DynamicNode> deviceFilters() {
    return VectorRunner.run(FILE, DeviceFiltersConformanceTest::open);
  }

  static Area.Session open(Vector vector) {
    JsonNode calls = vector.setup().path("set_device_filters_calls");
    return step -> {
      switch (step.op()) {
        case "as_cluster_device_filters":
          return Values.protoResult(apply(calls).build().toBytes());
        case "build_twice":
          {
            // TF builds at every "BUILD" and at the end (twice when nothing is in between); filters set
            // in between (later calls, or the step's own call) must show in the later build: a cached
            // message that were not invalidated would repeat the first.
            List<byte[]> builds = new ArrayList<>();
            DeviceFilters.Builder builder = apply(calls, builds);
            if (builds.isEmpty()) {
              builds.add(builder.build().toBytes());
            }
            if (step.hasArgs()) {
              JsonNode between = step.arg(0).isArray() ? step.json().get("args") : Values.MAPPER.createArrayNode()
                  .add(step.json().get("args"));
              apply(between, builder, builds);
            }
            builds.add(builder.build().toBytes());
            List<Object> results = new ArrayList<>();
            builds.forEach(bytes -> results.add(Values.protoResult(bytes)));
            return results;
          }
        default:
          throw new Area.UnknownOp(step);
      }
    };
  }

  private static DeviceFilters.Builder apply(JsonNode calls) {
    return apply(calls, new ArrayList<>());
  }

  /** Replays the calls in order; at each {@code "BUILD"} the bytes built then are added to {@code builds}. */
  private static DeviceFilters.Builder apply(JsonNode calls, List<byte[]> builds) {
    DeviceFilters.Builder builder = DeviceFilters.builder();
    apply(calls, builder, builds);
    return builder;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void apply(JsonNode calls, DeviceFilters.Builder builder, List<byte[]> builds) {
    for (JsonNode call : calls) {
      if (call.isTextual() && call.asText().equals("BUILD")) {
        builds.add(builder.build().toBytes());
        continue;
      }
      Object job = Values.decode(call.get(0));
      if (!(job instanceof String)) {
        throw new IllegalArgumentException("Job name " + job + " must be a string");
      }
      Object filters = Values.decode(call.get(2));
      // Passed through as TF receives it: the builder itself rejects non-string filters.
      builder.setDeviceFilters((String) job, Values.integer(call.get(1)), (List) filters);
    }
  }
}
