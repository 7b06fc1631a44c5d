package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterResolver;
import java.util.Arrays;
import java.util.OptionalInt;

/** The ops every resolver area shares: {@code cluster_spec}, {@code master}, attributes, accelerators. */
final class ResolverOps {

  private ResolverOps() {}

  /** Whether the op is one of these. */
  static boolean handles(String op) {
    switch (op) {
      case "cluster_spec":
      case "master":
      case "task_type":
      case "task_id":
      case "rpc_layer":
      case "environment":
      case "num_accelerators":
      case "get_task_info":
        return true;
      default:
        return false;
    }
  }

  static Object run(ClusterResolver resolver, Vector.Step step) {
    switch (step.op()) {
      case "cluster_spec":
        return resolver.clusterSpec();
      case "master":
        if (!step.hasArgs()) {
          return resolver.master();
        }
        return resolver.master(
            Values.string(first(step.arg(0), step.kwarg("task_type"))),
            Values.integer(first(step.arg(1), step.kwarg("task_id"))),
            Values.string(step.kwarg("rpc_layer")));
      case "task_type":
        return resolver.taskType();
      case "task_id":
        return resolver.taskId();
      case "rpc_layer":
        return resolver.rpcLayer();
      case "environment":
        return resolver.environment();
      case "num_accelerators":
        if (!step.hasArgs()) {
          return resolver.numAccelerators();
        }
        return resolver.numAccelerators(
            Values.string(first(step.arg(0), step.kwarg("task_type"))),
            Values.integer(first(step.arg(1), step.kwarg("task_id"))));
      case "get_task_info":
        OptionalInt id = resolver.taskId();
        return Arrays.asList(resolver.taskType().orElse(null), id.isPresent() ? id.getAsInt() : null);
      default:
        throw new Area.UnknownOp(step);
    }
  }

  private static JsonNode first(JsonNode positional, JsonNode keyword) {
    return positional.isMissingNode() ? keyword : positional;
  }
}
