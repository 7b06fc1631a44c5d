package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.SimpleClusterResolver;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/** {@code tf-vectors/simple.json}: {@link SimpleClusterResolver} (K5, D6). Setters derive a changed copy. */
class SimpleConformanceTest {

  static final String FILE = "tf-vectors/simple.json";

  @TestFactory
  Stream<DynamicNode> simple() {
    return VectorRunner.run(FILE, SimpleConformanceTest::open);
  }

  /** A SimpleClusterResolver from a setup with {@code cluster_spec} (or {@code cluster_spec_value}) and kwargs. */
  static SimpleClusterResolver build(JsonNode setup) {
    ClusterSpec spec;
    if (setup.has("cluster_spec")) {
      spec = Specs.build(setup.get("cluster_spec"));
    } else {
      Object raw = Values.decode(setup.get("cluster_spec_value"));
      if (raw != null) {
        throw new Area.SkipStep("D3: " + raw + " where a ClusterSpec is required cannot be passed in Java");
      }
      spec = null;
    }
    SimpleClusterResolver.Builder builder = SimpleClusterResolver.builder(spec);
    JsonNode kwargs = setup.path("kwargs");
    for (Iterator<Map.Entry<String, JsonNode>> it = kwargs.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode value = e.getValue();
      switch (e.getKey()) {
        case "master":
          builder.master(Values.string(value));
          break;
        case "task_type":
          builder.taskType(Values.string(value));
          break;
        case "task_id":
          builder.taskId(Values.integer(value));
          break;
        case "environment":
          builder.environment(Values.string(value));
          break;
        case "rpc_layer":
          builder.rpcLayer(Values.string(value));
          break;
        case "num_accelerators":
          Map<String, Integer> accelerators = new LinkedHashMap<>();
          value.fields().forEachRemaining(a -> accelerators.put(a.getKey(), Values.integer(a.getValue())));
          builder.numAccelerators(accelerators);
          break;
        default:
          throw new IllegalStateException("Unknown SimpleClusterResolver kwarg '" + e.getKey() + "'");
      }
    }
    return builder.build();
  }

  static Area.Session open(Vector vector) {
    JsonNode setup = vector.setup();
    return new Area.Session() {
      private SimpleClusterResolver resolver;

      private SimpleClusterResolver resolver() {
        if (resolver == null) {
          resolver = build(setup);
        }
        return resolver;
      }

      @Override
      public Object run(Vector.Step step) {
        if (setup.has("logical_devices") && !setup.has("cluster_spec")) {
          throw new Area.SkipStep("no contract counterpart for logical_devices (TF's eager device listing)");
        }
        switch (step.op()) {
          case "construct":
            resolver();
            return null;
          case "set_task_type":
            resolver = resolver().toBuilder().taskType(Values.string(step.arg(0))).build();
            return null;
          case "set_task_id":
            resolver = resolver().toBuilder().taskId(Values.integer(step.arg(0))).build();
            return null;
          case "set_rpc_layer":
            resolver = resolver().toBuilder().rpcLayer(Values.string(step.arg(0))).build();
            return null;
          default:
            if (ResolverOps.handles(step.op())) {
              return ResolverOps.run(resolver(), step);
            }
            throw new Area.UnknownOp(step);
        }
      }
    };
  }
}
