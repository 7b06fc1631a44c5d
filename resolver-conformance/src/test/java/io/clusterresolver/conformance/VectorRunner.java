package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.clusterresolver.ClusterResolverException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Runs a {@code tf-cluster-resolver-vectors/1} file: one dynamic test per vector, its steps in
 * order on one object, then one test that prints the file's tally.
 *
 * <p>Per step: {@code not_run} is skipped with its reason; a {@code deviation} (the step's, or the
 * vector's) without a {@code java} expectation is skipped with the rule as reason; otherwise the
 * expectation is {@code java} when present, else TF's {@code value}, or for TF's {@code error} the
 * {@code expect_java_error} exception class. A step the area has no counterpart for is skipped with
 * the area's reason; an op it does not know is a failure. Where TF's value carries an input's
 * incidental form that a kept rule fixes (a ClusterDef's job order), the area derives the Java
 * expectation from TF's value ({@link Area.Session#javaExpectation}): checked, never skipped. A
 * vector fails when any step fails, is skipped when every step is skipped, and passes otherwise.
 */
public final class VectorRunner {

  /** The schema this runner implements. */
  public static final String SCHEMA = "tf-cluster-resolver-vectors/1";

  private VectorRunner() {}

  /** The dynamic tests of one file of the conformance directory. */
  public static Stream<DynamicNode> run(String file, Area area) {
    Tally tally = Tally.of(file);
    if (ConformanceData.file(file).isEmpty()) {
      return Stream.of(DynamicTest.dynamicTest(file + " (absent)", () -> {
        throw new AssertionFailedError(file + " is not in " + ConformanceData.directory()
            + ": an area's data that is missing fails, it is never skipped");
      }));
    }
    JsonNode root = ConformanceData.readJson(file);
    List<Vector> vectors = new ArrayList<>();
    root.path("vectors").forEach(v -> vectors.add(new Vector(v)));
    List<DynamicNode> tests = new ArrayList<>();
    tests.add(DynamicTest.dynamicTest(file + " header", () -> checkHeader(file, root, vectors)));
    for (Vector vector : vectors) {
      tests.add(DynamicTest.dynamicTest(vector.id(), () -> runVector(tally, area, vector)));
    }
    tests.add(DynamicTest.dynamicTest(file + " tally", tally::print));
    return tests.stream();
  }

  private static void checkHeader(String file, JsonNode root, List<Vector> vectors) {
    List<String> problems = new ArrayList<>();
    if (!SCHEMA.equals(root.path("schema").asText())) {
      problems.add("schema is '" + root.path("schema").asText() + "', this runner reads " + SCHEMA);
    }
    if (root.path("count").asInt(-1) != vectors.size()) {
      problems.add("count says " + root.path("count") + " but the file has " + vectors.size() + " vectors");
    }
    int steps = vectors.stream().mapToInt(v -> v.steps().size()).sum();
    if (root.path("step_count").asInt(-1) != steps) {
      problems.add("step_count says " + root.path("step_count") + " but the file has " + steps + " steps");
    }
    if (!problems.isEmpty()) {
      throw new AssertionFailedError(file + ": " + String.join("; ", problems));
    }
  }

  static void runVector(Tally tally, Area area, Vector vector) {
    Area.Session session = area.open(vector);
    String unsupported = session.unsupported();
    if (unsupported != null) {
      tally.skipped(unsupported);
      throw new TestAbortedException(unsupported);
    }
    List<String> failures = new ArrayList<>();
    Set<String> skipReasons = new LinkedHashSet<>();
    int ran = 0;
    for (int i = 0; i < vector.steps().size(); i++) {
      Vector.Step step = vector.steps().get(i);
      Optional<String> outcome;
      try {
        outcome = runStep(session, vector, step);
      } catch (Area.SkipStep skip) {
        skipReasons.add(skip.getMessage());
        continue;
      }
      ran++;
      outcome.ifPresent(why -> failures.add("step " + step + ": " + why));
    }
    if (!failures.isEmpty()) {
      String why = String.join("\n    ", failures);
      tally.failed(vector.id(), why);
      throw new AssertionFailedError(vector.id() + "\n    " + why);
    }
    if (ran == 0) {
      String reason = String.join("; ", skipReasons);
      tally.skipped(reason);
      throw new TestAbortedException(reason);
    }
    skipReasons.forEach(tally::skippedStep);
    tally.passed();
  }

  /** Empty when the step meets its expectation, else why not; {@link Area.SkipStep} when skipped. */
  private static Optional<String> runStep(Area.Session session, Vector vector, Vector.Step step) {
    if (step.notRun() != null) {
      throw new Area.SkipStep("not_run: " + step.notRun());
    }
    String deviation = step.deviation() != null ? step.deviation() : vector.deviation();
    JsonNode java = step.java();
    if (deviation != null && java == null) {
      throw new Area.SkipStep(Rules.describe(deviation));
    }
    JsonNode expectedValue;
    String expectedError;
    // A rule of ours may say which fact the message must name (a property key, a variable).
    String mention = java != null && java.has("mentions") ? java.get("mentions").asText() : null;
    if (java != null) {
      expectedValue = java.get("value");
      expectedError = java.has("error") ? java.get("error").asText() : null;
    } else if (step.hasValue()) {
      expectedValue = session.javaExpectation(step, step.value());
      expectedError = null;
    } else if (step.error() != null) {
      expectedValue = null;
      expectedError = session.expectJavaError(step);
      if (expectedError == null) {
        return Optional.of("TF raised " + step.error() + " but the step has no expect_java_error");
      }
    } else {
      return Optional.of("the step has no outcome (value, error or not_run)");
    }
    if (expectedError == null && expectedValue != null && hasPortPastRange(expectedValue)) {
      // Our own rule (docs/tf-compatibility.md, "Ports"): TF writes host:65536 and beyond, which no
      // task can listen on; the Java contract rejects the configuration instead.
      expectedValue = null;
      expectedError = "ConfigurationException";
    }
    if ("environment".equals(step.op()) && expectedValue != null && expectedValue.isNull()) {
      expectedValue = TextNode.valueOf(""); // README: TF's None environment is the contract's default ""
    }
    Object result;
    try {
      result = session.run(step);
    } catch (Area.SkipStep | Area.UnknownOp e) {
      if (e instanceof Area.UnknownOp) {
        return Optional.of(e.getMessage());
      }
      throw e;
    } catch (Throwable t) {
      if (expectedError != null) {
        if (!matchesError(expectedError, t)) {
          return Optional.of("expected " + expectedError + " but got " + describe(t));
        }
        return mention == null || String.valueOf(t.getMessage()).contains(mention) ? Optional.empty()
            : Optional.of("expected " + expectedError + " naming '" + mention + "' but got " + describe(t));
      }
      return Optional.of("expected " + Values.abbreviate(expectedValue) + " but got " + describe(t));
    }
    if (expectedError != null) {
      return Optional.of("expected " + expectedError + " but got the value "
          + Values.abbreviate(Values.encode(result)));
    }
    return Values.difference(expectedValue, Values.encode(result));
  }

  private static final java.util.regex.Pattern HOST_PORT = java.util.regex.Pattern.compile(".+:(\\d{5,})");

  /** Whether TF's value holds a {@code host:port} whose port is past 65535. */
  static boolean hasPortPastRange(JsonNode value) {
    if (value.isTextual()) {
      java.util.regex.Matcher m = HOST_PORT.matcher(value.asText());
      return m.matches() && m.group(1).length() < 10 && Long.parseLong(m.group(1)) > 65535;
    }
    for (JsonNode child : value) {
      if (hasPortPastRange(child)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matchesError(String expected, Throwable actual) {
    switch (expected) {
      case "IllegalArgumentException":
        return actual instanceof IllegalArgumentException;
      case "ClusterResolverException":
        return actual instanceof ClusterResolverException;
      default:
        return actual.getClass().getSimpleName().equals(expected);
    }
  }

  private static String describe(Throwable t) {
    StackTraceElement[] trace = t.getStackTrace();
    return t.getClass().getName() + ": " + t.getMessage()
        + (trace.length > 0 ? " (at " + trace[0] + ")" : "");
  }
}
