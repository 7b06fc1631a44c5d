package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
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

  /** kwargs as {@code clusterresolver.<provider>.<name>} properties; a null kwarg sets nothing. */
  static Map<String, String> properties(String provider, JsonNode kwargs) {
    return ProviderSession.properties(kwargs, (properties, kwarg, value) -> setProperty(properties, provider, kwarg, value));
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
    return new ProviderSession(PROVIDER, vector.setup(),
        (properties, kwarg, value) -> setProperty(properties, PROVIDER, kwarg, value));
  }
}
