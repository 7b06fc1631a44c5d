package io.clusterresolver.conformance;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code tf-vectors/slurm-real.json}: TensorFlow's Slurm resolver (defaults, and gpus_per_node=4) on environments captured from a real Slurm against
 * the {@code slurm} provider (K7, K8); the steps TF gets wrong (D7-D10) are checked against the
 * rules by {@link SlurmRules#ownChecks}.
 */
class SlurmRealConformanceTest {

  static final String FILE = "tf-vectors/slurm-real.json";

  @TestFactory
  Stream<DynamicNode> slurmReal() {
    return VectorRunner.run(FILE, SlurmRules::session);
  }

  @TestFactory
  Stream<DynamicNode> slurmRealDeviationRules() {
    return SlurmRules.ownChecks(FILE);
  }
}
