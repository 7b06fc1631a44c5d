package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.UnionClusterResolver;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code tf-vectors/union.json}: {@link UnionClusterResolver} over Simple, TF_CONFIG and nested
 * union members (K6, D5). Members of kind {@code gce} are the gce provider against a simulated Compute
 * Engine project each ({@link GceConformanceTest#member}).
 */
class UnionConformanceTest {

  static final String FILE = "tf-vectors/union.json";

  @TestFactory
  Stream<DynamicNode> union() {
    return VectorRunner.run(FILE, UnionConformanceTest::open);
  }

  @org.junit.jupiter.api.AfterAll
  static void stopGceMembers() {
    GceConformanceTest.closeMembers();
  }

  static UnionClusterResolver build(JsonNode setup, Map<String, String> environment) {
    UnionClusterResolver.Builder union = UnionClusterResolver.builder();
    for (JsonNode member : setup.path("resolvers")) {
      union.add(member(member, environment));
    }
    JsonNode kwargs = setup.path("kwargs");
    for (Iterator<Map.Entry<String, JsonNode>> it = kwargs.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      switch (e.getKey()) {
        case "task_type":
          union.taskType(Values.string(e.getValue()));
          break;
        case "task_id":
          union.taskId(Values.integer(e.getValue()));
          break;
        case "rpc_layer":
          union.rpcLayer(Values.string(e.getValue()));
          break;
        default:
          throw new IllegalStateException("Unknown UnionClusterResolver kwarg '" + e.getKey() + "'");
      }
    }
    return union.build();
  }

  private static ClusterResolver member(JsonNode member, Map<String, String> environment) {
    String kind = member.path("kind").asText();
    switch (kind) {
      case "simple":
        return SimpleConformanceTest.build(member);
      case "tfconfig":
        Map<String, String> env = member.has("env") ? ProviderSession.environment(member.get("env")) : environment;
        return ClusterResolvers.create(TfConfigConformanceTest.PROVIDER,
            TfConfigConformanceTest.properties(TfConfigConformanceTest.PROVIDER, member.path("kwargs")), env);
      case "union":
        return build(member, environment);
      case "gce":
        return GceConformanceTest.member(member);
      case "not-a-resolver":
        throw new Area.SkipStep("D3: a non-resolver member cannot be passed in Java");
      default:
        throw new IllegalStateException("Unknown union member kind '" + kind + "'");
    }
  }

  static Area.Session open(Vector vector) {
    JsonNode setup = vector.setup();
    Map<String, String> environment = ProviderSession.environment(setup.path("env"));
    return new Area.Session() {
      private UnionClusterResolver resolver;

      private UnionClusterResolver resolver() {
        if (resolver == null) {
          resolver = build(setup, environment);
        }
        return resolver;
      }

      @Override
      public Object run(Vector.Step step) {
        if ("construct".equals(step.op())) {
          UnionClusterResolver union = resolver();
          // A construct value lists attributes of the new resolver (TF's overrides).
          Map<String, Object> attributes = new LinkedHashMap<>();
          if (step.hasValue() && step.value().isObject()) {
            OptionalInt id = union.taskId();
            attributes.put("task_type", union.taskType().orElse(null));
            attributes.put("task_id", id.isPresent() ? id.getAsInt() : null);
            attributes.put("rpc_layer", union.rpcLayer().orElse(null));
            attributes.keySet().retainAll(iterable(step.value().fieldNames()));
            return attributes;
          }
          return null;
        }
        if (ResolverOps.handles(step.op())) {
          return ResolverOps.run(resolver(), step);
        }
        throw new Area.UnknownOp(step);
      }
    };
  }

  private static java.util.Set<String> iterable(Iterator<String> names) {
    java.util.Set<String> set = new java.util.HashSet<>();
    names.forEachRemaining(set::add);
    return set;
  }
}
