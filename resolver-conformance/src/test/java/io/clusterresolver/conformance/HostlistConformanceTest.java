package io.clusterresolver.conformance;

import io.clusterresolver.slurm.Hostlist;
import io.clusterresolver.slurm.TasksPerNode;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code tf-vectors/hostlist.json}: TensorFlow's host-list and tasks-per-node parsers against
 * {@link Hostlist#expand} and {@link TasksPerNode#expand} (K7). Where real Slurm disagrees with
 * TensorFlow the vectors carry the Java (Slurm) outcome, which is checked instead.
 */
class HostlistConformanceTest {

  static final String FILE = "tf-vectors/hostlist.json";

  @TestFactory
  Stream<DynamicNode> hostlist() {
    return VectorRunner.run(FILE, vector -> step -> {
      switch (step.op()) {
        case "expand_hostlist":
          return Hostlist.expand(step.arg(0).asText());
        case "expand_tasks_per_node":
          return TasksPerNode.expand(step.arg(0).asText());
        default:
          throw new Area.UnknownOp(step);
      }
    });
  }
}
