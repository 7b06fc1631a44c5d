package io.clusterresolver.conformance;

/**
 * How one area's vectors run against the Java contract. {@link VectorRunner} handles everything
 * common (expectations, deviations, comparison, counting); an area only builds its object from a
 * vector's setup and runs ops on it.
 */
@FunctionalInterface
public interface Area {

  /**
   * Starts a vector. Must not throw for a bad setup: setups that fail to construct fail in the
   * step that constructs (usually {@code construct}, else the first step).
   */
  Session open(Vector vector);

  /** The object one vector's steps run on, in order. */
  interface Session {
    /**
     * Runs one step and returns its result: a Jackson node, a {@code ClusterSpec}, an
     * {@code Optional}/{@code OptionalInt}, or plain Java values ({@code Map}, {@code List},
     * {@code String}, numbers, booleans, {@code null}).
     *
     * @throws SkipStep when the step has no Java counterpart (with the reason)
     * @throws UnknownOp when the op is not known: a failure, never a skip
     */
    Object run(Vector.Step step) throws Exception;

    /**
     * Why none of this vector's steps can run in this build (checked before anything else, so the
     * reason is reported even for steps that also carry a deviation), or {@code null}.
     */
    default String unsupported() {
      return null;
    }

    /**
     * The Java expectation for a step whose TF value is untagged, derived from TF's value by a kept
     * rule where TF's output carries an input's incidental form (for example a ClusterDef's job
     * order, which D1/K2 fix). By default TF's value itself.
     */
    default com.fasterxml.jackson.databind.JsonNode javaExpectation(
        Vector.Step step, com.fasterxml.jackson.databind.JsonNode tfValue) {
      return tfValue;
    }

    /**
     * The Java exception expected for TF's error: the step's {@code expect_java_error}. The cloud
     * areas carry none; their sessions map TF's exception type with the data README's error table.
     */
    default String expectJavaError(Vector.Step step) {
      return step.expectJavaError();
    }
  }

  /** A step with no counterpart in the Java contract; the reason is reported. */
  final class SkipStep extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SkipStep(String reason) {
      super(reason, null, false, false);
    }
  }

  /** An op the area does not know. */
  final class UnknownOp extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnknownOp(Vector.Step step) {
      super("unknown op '" + step.op() + "'", null, false, false);
    }
  }
}
