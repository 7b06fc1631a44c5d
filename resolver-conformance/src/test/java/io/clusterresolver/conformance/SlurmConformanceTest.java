package io.clusterresolver.conformance;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code tf-vectors/slurm.json}: TensorFlow's Slurm resolver on synthetic environments against
 * the {@code slurm} provider (K7, K8); the steps TF gets wrong (D7-D10) are checked against the
 * rules by {@link SlurmRules#ownChecks}.
 */
class SlurmConformanceTest {

  static final String FILE = "tf-vectors/slurm.json";

  @TestFactory
  Stream<DynamicNode> slurm() {
    return VectorRunner.run(FILE, SlurmRules::session);
  }

  @TestFactory
  Stream<DynamicNode> slurmDeviationRules() {
    return SlurmRules.ownChecks(FILE);
  }
}
