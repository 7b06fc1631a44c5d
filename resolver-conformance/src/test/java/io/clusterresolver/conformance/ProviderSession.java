package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A vector's steps run on one provider made by
 * {@code ClusterResolvers.create(provider, properties, environment)}, as conformance/README.md maps
 * the resolver areas: {@code setup.env} is the environment map, which stays live ({@code set_env} and
 * {@code unset_env} change it and the resolver reads it again); {@code setup.kwargs} become
 * properties. The contract has no setters, so {@code set_task_type}, {@code set_task_id} and
 * {@code set_rpc_layer} create the resolver again with the changed property.
 */
class ProviderSession implements Area.Session {

  /** How one kwarg (or a setter's argument) becomes a property; may throw {@link Area.SkipStep}. */
  interface Kwargs {
    void set(Map<String, String> properties, String kwarg, JsonNode value);
  }

  private final String provider;
  private final JsonNode setup;
  private final Kwargs kwargs;
  private final Map<String, String> environment;
  private Map<String, String> properties;
  private ClusterResolver resolver;

  ProviderSession(String provider, JsonNode setup, Kwargs kwargs) {
    this.provider = provider;
    this.setup = setup;
    this.kwargs = kwargs;
    this.environment = environment(setup.path("env"));
  }

  /** A JSON object of variables as a mutable map; a {@code null} value is an unset variable. */
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

  /** Every kwarg of a JSON object as a property. */
  static Map<String, String> properties(JsonNode kwargsNode, Kwargs kwargs) {
    Map<String, String> properties = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = kwargsNode.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      kwargs.set(properties, e.getKey(), e.getValue());
    }
    return properties;
  }

  /** The resolver, created on first use (so a kwarg without Java form skips the step that needs it). */
  ClusterResolver resolver() {
    if (properties == null) {
      properties = properties(setup.path("kwargs"), kwargs);
    }
    if (resolver == null) {
      resolver = ClusterResolvers.create(provider, properties, environment);
    }
    return resolver;
  }

  @Override
  public Object run(Vector.Step step) {
    switch (step.op()) {
      case "construct":
        resolver = null;
        resolver();
        return null;
      case "set_task_type":
      case "set_task_id":
      case "set_rpc_layer":
        resolver();
        kwargs.set(properties, step.op().substring("set_".length()), step.arg(0));
        resolver = null;
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
}
