package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code tf-vectors/tfconfig.json}: the {@code tfconfig} provider created with
 * {@code ClusterResolvers.create("tfconfig", properties, environment)} (K4, D3, D4). The
 * environment map stays live: {@code set_env} changes it and the resolver reads it again.
 * Setters have no contract counterpart: the resolver is created again with the changed property.
 */
class TfConfigConformanceTest {

  static final String FILE = "tf-vectors/tfconfig.json";
  static final String PROVIDER = "tfconfig";

  @TestFactory
  Stream<DynamicNode> tfconfig() {
    return VectorRunner.run(FILE, TfConfigConformanceTest::open);
  }

  /** {@code setup.env} as a mutable map (TF_CONFIG and friends). */
  static Map<String, String> environment(JsonNode env) {
    Map<String, String> environment = new HashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = env.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isNull()) {
        environment.put(e.getKey(), e.getValue().asText());
      }
    }
    return environment;
  }

  /** kwargs as {@code clusterresolver.<provider>.<name>} properties; a null kwarg sets nothing. */
  static Map<String, String> properties(String provider, JsonNode kwargs) {
    Map<String, String> properties = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = kwargs.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      setProperty(properties, provider, e.getKey(), e.getValue());
    }
    return properties;
  }

  static void setProperty(Map<String, String> properties, String provider, String kwarg, JsonNode value) {
    String key = "clusterresolver." + provider + "." + kwarg.replace('_', '-');
    if (value == null || value.isNull()) {
      properties.remove(key);
    } else if (value.isValueNode()) {
      if (kwarg.equals("task_id") && !value.isIntegralNumber()) {
        throw new Area.SkipStep("D3: task id " + value + " is not an integer");
      }
      properties.put(key, value.asText());
    } else {
      throw new Area.SkipStep("D3: kwarg " + kwarg + "=" + value + " has no property form");
    }
  }

  static Area.Session open(Vector vector) {
    JsonNode setup = vector.setup();
    Map<String, String> environment = environment(setup.path("env"));
    Map<String, String> properties = new LinkedHashMap<>();
    return new Area.Session() {
      private ClusterResolver resolver;
      private boolean configured;

      private ClusterResolver resolver() {
        if (!configured) {
          properties.putAll(properties(PROVIDER, setup.path("kwargs")));
          configured = true;
        }
        if (resolver == null) {
          resolver = ClusterResolvers.create(PROVIDER, properties, environment);
        }
        return resolver;
      }

      @Override
      public Object run(Vector.Step step) {
        switch (step.op()) {
          case "set_task_type":
          case "set_task_id":
          case "set_rpc_layer":
            resolver();
            setProperty(properties, PROVIDER, step.op().substring("set_".length()), step.arg(0));
            resolver = null; // created again with the changed property
            return null;
          case "set_env":
            environment.put(step.arg(0).asText(), step.arg(1).asText());
            return null;
          case "unset_env":
            environment.remove(step.arg(0).asText());
            return null;
          case "num_accelerators":
            if (setup.has("logical_devices")) {
              throw new Area.SkipStep("no contract counterpart for logical_devices (TF's eager device listing)");
            }
            return ResolverOps.run(resolver(), step);
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
