package io.clusterresolver.conformance;

import io.clusterresolver.slurm.Hostlist;
import io.clusterresolver.slurm.TasksPerNode;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

/**
 * {@code tf-vectors/hostlist.json}: TensorFlow's host-list and tasks-per-node parsers against
 * {@link Hostlist#expand} and {@link TasksPerNode#expand} (K7). Where real Slurm disagrees with
 * TensorFlow the vectors carry the Java (Slurm) outcome, which is checked instead.
 */
class HostlistConformanceTest {

  static final String FILE = "tf-vectors/hostlist.json";

  @TestFactory
  Stream<DynamicNode> hostlist() {
    return VectorRunner.run(FILE, HostlistConformanceTest::open);
  }

  static Area.Session open(Vector vector) {
    for (Vector.Step step : vector.steps()) {
      if (step.op().equals("expand_tasks_per_node") && step.hasValue()
          && SlurmRules.REPEAT_ZERO.matcher(step.arg(0).asText()).find()) {
        // docs/tf-compatibility.md K7: TF's regex takes 4(x0) as no node at all; ours rejects it.
        Rules.expectError(step, "Repeat 0", "IllegalArgumentException", "(x0");
      }
    }
    return HostlistConformanceTest::run;
  }

  private static Object run(Vector.Step step) {
    switch (step.op()) {
      case "expand_hostlist":
        return Hostlist.expand(step.arg(0).asText());
      case "expand_tasks_per_node":
        return TasksPerNode.expand(step.arg(0).asText());
      default:
        throw new Area.UnknownOp(step);
    }
  }

  /**
   * D3 own check: the steps TensorFlow accepts only because Python's {@code int()} takes any
   * script's digits ({@code \u0663}) must be rejected, since Slurm writes ASCII digits only.
   */
  @TestFactory
  Stream<DynamicNode> hostlistDeviationRules() {
    String name = FILE + " (D3 own checks)";
    Tally tally = Tally.of(name);
    List<DynamicNode> tests = new ArrayList<>();
    if (ConformanceData.file(FILE).isEmpty()) {
      return Stream.empty();
    }
    for (JsonNode node : ConformanceData.readJson(FILE).path("vectors")) {
      Vector vector = new Vector(node);
      for (Vector.Step step : vector.steps()) {
        if (!"D3".equals(step.deviation()) || step.java() != null) {
          continue;
        }
        tests.add(DynamicTest.dynamicTest("rules " + vector.id(), () -> {
          try {
            if (step.op().equals("expand_tasks_per_node")) {
              TasksPerNode.expand(step.arg(0).asText());
            } else {
              Hostlist.expand(step.arg(0).asText());
            }
          } catch (IllegalArgumentException expected) {
            tally.passed();
            return;
          }
          tally.failed(vector.id(), "accepted a non-ASCII number");
          throw new AssertionFailedError(vector.id() + ": expected IllegalArgumentException (D3)");
        }));
      }
    }
    tests.add(DynamicTest.dynamicTest(name + " tally", tally::print));
    return tests.stream();
  }
}
