package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.proto.DeviceFilters;
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
            // Both results, compared with TF's pair: a builder that changes state on build fails.
            DeviceFilters.Builder builder = apply(calls);
            byte[] first = builder.build().toBytes();
            byte[] second = builder.build().toBytes();
            return List.of(Values.protoResult(first), Values.protoResult(second));
          }
        default:
          throw new Area.UnknownOp(step);
      }
    };
  }

  /** Replays the calls in order; {@code "BUILD"} builds in between (TF caches, then invalidates). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static DeviceFilters.Builder apply(JsonNode calls) {
    DeviceFilters.Builder builder = DeviceFilters.builder();
    for (JsonNode call : calls) {
      if (call.isTextual() && call.asText().equals("BUILD")) {
        builder.build();
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
    return builder;
  }
}
