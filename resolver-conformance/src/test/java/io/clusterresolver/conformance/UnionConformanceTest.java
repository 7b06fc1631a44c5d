package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.UnionClusterResolver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
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
    return build(setup, environment, overrides(setup.path("kwargs")));
  }

  /** The kwargs task_type, task_id and rpc_layer (a missing or null one is not set). */
  static Map<String, JsonNode> overrides(JsonNode kwargs) {
    Map<String, JsonNode> overrides = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = kwargs.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!OVERRIDES.contains(e.getKey())) {
        throw new IllegalStateException("Unknown UnionClusterResolver kwarg '" + e.getKey() + "'");
      }
      overrides.put(e.getKey(), e.getValue());
    }
    return overrides;
  }

  /** The kwargs TF's UnionClusterResolver does not know (it raises ValueError('Unexpected kwargs provided')). */
  private static List<String> unknownKeywords(JsonNode kwargs) {
    List<String> unknown = new ArrayList<>();
    kwargs.fieldNames().forEachRemaining(name -> {
      if (!OVERRIDES.contains(name)) {
        unknown.add(name);
      }
    });
    return unknown;
  }

  /**
   * docs/tf-compatibility.md, K6 "Keywords": a union's keywords are the builder's typed methods, so a
   * keyword TF does not know has no method and the mistake does not compile. Checked by looking the
   * keyword's method up on {@link UnionClusterResolver.Builder} as a call by name would.
   *
   * @throws NoSuchMethodException naming the keyword, when the builder has no such method (the rule)
   */
  static Object callByName(String keyword) throws NoSuchMethodException {
    StringBuilder method = new StringBuilder();
    for (String part : keyword.split("_")) {
      method.append(method.length() == 0 ? part : part.isEmpty() ? "" : Character.toUpperCase(part.charAt(0))
          + part.substring(1));
    }
    for (java.lang.reflect.Method m : UnionClusterResolver.Builder.class.getMethods()) {
      if (m.getName().equals(method.toString())) {
        return "UnionClusterResolver.Builder has a method " + m + " for keyword " + keyword
            + ": map it in UnionConformanceTest";
      }
    }
    throw new NoSuchMethodException("UnionClusterResolver.Builder." + method + "(…) for TF's keyword " + keyword);
  }

  private static final List<String> OVERRIDES = List.of("task_type", "task_id", "rpc_layer");

  static UnionClusterResolver build(JsonNode setup, Map<String, String> environment, Map<String, JsonNode> overrides) {
    UnionClusterResolver.Builder union = UnionClusterResolver.builder();
    for (JsonNode member : setup.path("resolvers")) {
      union.add(member(member, environment));
    }
    for (Map.Entry<String, JsonNode> e : overrides.entrySet()) {
      JsonNode value = e.getValue();
      switch (e.getKey()) {
        case "task_type":
          union.taskType(value == null || value.isNull() ? null : Values.string(value));
          break;
        case "task_id":
          union.taskId(value == null || value.isNull() ? null : Values.integer(value));
          break;
        default:
          union.rpcLayer(value == null || value.isNull() ? null : Values.string(value));
          break;
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
    List<String> unknown = unknownKeywords(setup.path("kwargs"));
    if (!unknown.isEmpty()) {
      // TF raises ValueError at construction; ours has no such keyword to pass (K6 "Keywords").
      for (Vector.Step step : vector.steps()) {
        Rules.expectError(step, "K6-keywords", "NoSuchMethodException", unknown.get(0));
      }
      return step -> {
        for (String keyword : unknown) {
          callByName(keyword);
        }
        return null;
      };
    }
    return new Area.Session() {
      private UnionClusterResolver resolver;
      private Map<String, JsonNode> overrides;

      private UnionClusterResolver resolver() {
        if (overrides == null) {
          overrides = overrides(setup.path("kwargs"));
        }
        if (resolver == null) {
          resolver = build(setup, environment, overrides);
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
        switch (step.op()) {
          case "set_task_type":
          case "set_task_id":
          case "set_rpc_layer":
            // TF's setters change one attribute of the same resolver: build it again with it.
            resolver();
            overrides.put(step.op().substring("set_".length()), step.arg(0));
            resolver = null;
            return null;
          default:
            break;
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
