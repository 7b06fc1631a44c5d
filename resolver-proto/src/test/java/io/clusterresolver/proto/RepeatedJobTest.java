package io.clusterresolver.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 9, defect 13: a ClusterDef that names a job twice (docs/tf-compatibility.md K3, "A ClusterDef
 * that names a job twice"). The input is TensorFlow's own bytes from the conformance vector
 * {@code clusterspec/def-duplicate-job}: {@code worker {0: a:1}} then {@code worker {1: b:1}}.
 */
class RepeatedJobTest {

  private static final String FIRST_JOB = "0a110a06776f726b6572120708001203613a31";
  private static final String LAST_JOB = "0a110a06776f726b6572120708011203623a31";

  @Test
  void theViewsKeepTheLastJobAsTensorFlowsDictDoes() throws Exception {
    ClusterSpec spec = ClusterDefs.fromClusterDef(ClusterDef.parseFrom(Hex.parse(FIRST_JOB + LAST_JOB)));
    // TF: task_indices('worker') == [1], task_address('worker', 1) == 'b:1' (the vector's values)
    assertThat(spec.taskIndices("worker")).containsExactly(1);
    assertThat(spec.taskAddress("worker", 1)).isEqualTo("b:1");
    assertThat(spec.asMap()).isEqualTo(Map.of("worker", Map.of(1, "b:1")));
  }

  @Test
  void theBytesAreThoseOfTheLastJobAsGivenNotBothJobs() throws Exception {
    ClusterSpec spec = ClusterDefs.fromClusterDef(ClusterDef.parseFrom(Hex.parse(FIRST_JOB + LAST_JOB)));
    // The expectation is TensorFlow's own bytes of the last JobDef, cut from its input: what
    // TF's copy ClusterSpec(ClusterSpec(def)) holds (vector clusterspec/copy-of-duplicate-def).
    assertThat(Hex.of(ClusterDefs.toBytes(spec))).isEqualTo(LAST_JOB);
    // and the message protobuf-java builds for the same spec agrees
    ClusterDef parsedBack = ClusterDef.parseFrom(ClusterDefs.toBytes(spec));
    assertThat(parsedBack.getJobCount()).isEqualTo(1);
    assertThat(parsedBack.getJob(0).getTasksMap()).isEqualTo(Map.of(1, "b:1"));
  }
}
