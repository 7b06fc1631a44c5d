package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.Resolution;
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

  /**
   * Runs the op through TensorFlow's getter and, where a {@link Resolution} holds the same fact,
   * through {@link ClusterResolver#resolve()} as well: both must give TensorFlow's answer.
   */
  static Object run(ClusterResolver resolver, Vector.Step step) {
    Object viaGetter = runGetter(resolver, step);
    if (!step.hasArgs() && fromResolution(EMPTY, step.op()) != NOT_IN_A_RESOLUTION) {
      Resolution resolution;
      try {
        resolution = resolver.resolve();
      } catch (IllegalArgumentException | io.clusterresolver.ClusterResolverException wholeAnswerFails) {
        // TensorFlow's getters read only what they need (a task type from a TF_CONFIG whose
        // cluster is malformed); a whole answer needs every part, so it may fail where they do not.
        return viaGetter;
      }
      Object viaResolve = fromResolution(resolution, step.op());
      if (viaResolve != NOT_IN_A_RESOLUTION && !viaResolve.equals(viaGetter)) {
        throw new AssertionError("resolve() says " + viaResolve + " for " + step.op() + " but the getter says "
            + viaGetter);
      }
    }
    return viaGetter;
  }

  private static final Object NOT_IN_A_RESOLUTION = new Object();
  private static final Resolution EMPTY = Resolution.builder(io.clusterresolver.ClusterSpec.empty()).build();

  private static Object fromResolution(Resolution r, String op) {
    switch (op) {
      case "cluster_spec":
        return r.clusterSpec();
      case "task_type":
        return r.taskType();
      case "task_id":
        return r.taskId();
      case "rpc_layer":
        return r.rpcLayer();
      case "environment":
        return r.environment();
      case "num_accelerators":
        return r.accelerators();
      case "get_task_info":
        OptionalInt id = r.taskId();
        return Arrays.asList(r.taskType().orElse(null), id.isPresent() ? id.getAsInt() : null);
      default:
        return NOT_IN_A_RESOLUTION;
    }
  }

  private static Object runGetter(ClusterResolver resolver, Vector.Step step) {
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
            Values.string(first(step.arg(2), step.kwarg("rpc_layer"))));
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
