package io.clusterresolver.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterSpec;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Bytes checked against TensorFlow's own output (conformance/tf-vectors/clusterspec.json). */
class ClusterDefsTest {

  @Test
  void psWorkerBytesAreTensorFlowsWhateverTheInputOrder() {
    String tf =
        "0a200a027073120c080012087073303a32323232120c080112087073313a323232320a3e0a06776f726b6572"
            + "12100800120c776f726b6572303a3232323212100801120c776f726b6572313a3232323212100802120c"
            + "776f726b6572323a32323232";
    ClusterSpec spec =
        ClusterSpec.builder()
            .addJob("worker", List.of("worker0:2222", "worker1:2222", "worker2:2222"))
            .addJob("ps", List.of("ps0:2222", "ps1:2222"))
            .build();
    assertThat(Hex.of(ClusterDefs.toBytes(spec))).isEqualTo(tf);
  }

  @Test
  void sparseAndEmptyJobsMatchTensorFlow() {
    Map<Integer, String> sparse = new TreeMap<>(Map.of(5, "w5:1", 2, "w2:1"));
    assertThat(Hex.of(ClusterDefs.toBytes(ClusterSpec.of(Map.of("worker", sparse)))))
        .isEqualTo("0a1c0a06776f726b657212080802120477323a3112080805120477353a31");
    assertThat(Hex.of(ClusterDefs.toBytes(ClusterSpec.of(Map.of("worker", Map.of())))))
        .isEqualTo("0a080a06776f726b6572");
    assertThat(
            Hex.of(
                ClusterDefs.toBytes(
                    ClusterSpec.of(Map.of("ps", List.of("ps0:2222", "ps1:2222"), "worker", List.of())))))
        .isEqualTo(
            "0a200a027073120c080012087073303a32323232120c080112087073313a323232320a080a06776f726b6572");
    assertThat(ClusterDefs.toBytes(ClusterSpec.empty())).isEmpty();
  }

  @Test
  void fromClusterDefReadsWireOrderAndSparseKeys() throws Exception {
    ClusterDef def =
        ClusterDef.parseFrom(
            Hex.parse(
                "0a1c0a06776f726b657212080800120477303a3112080801120477313a310a0e0a02707312080800120470303a31"));
    ClusterSpec spec = ClusterDefs.fromClusterDef(def);
    assertThat(spec.jobs()).containsExactly("ps", "worker");
    assertThat(spec.jobTasks("worker")).containsExactly("w0:1", "w1:1");
    // Our output is canonical (sorted), whatever the input's job order was.
    assertThat(Hex.of(ClusterDefs.toBytes(spec)))
        .isEqualTo(
            "0a0e0a02707312080800120470303a310a1c0a06776f726b657212080800120477303a3112080801120477313a31");

    ClusterSpec sparse =
        ClusterDefs.fromClusterDef(
            ClusterDef.parseFrom(
                Hex.parse("0a1c0a06776f726b657212080801120477313a3112080807120477373a31")));
    assertThat(sparse.taskIndices("worker")).containsExactly(1, 7);
    assertThat(sparse.taskAddress("worker", 7)).isEqualTo("w7:1");
  }

  @Test
  void repeatedJobNameLastOneWins() {
    ClusterDef def =
        ClusterDef.newBuilder()
            .addJob(JobDef.newBuilder().setName("worker").putTasks(0, "old:1").putTasks(1, "old:2"))
            .addJob(JobDef.newBuilder().setName("ps").putTasks(0, "p:1"))
            .addJob(JobDef.newBuilder().setName("worker").putTasks(3, "new:1"))
            .build();
    ClusterSpec spec = ClusterDefs.fromClusterDef(def);
    assertThat(spec.taskIndices("worker")).containsExactly(3);
    assertThat(spec.taskAddress("worker", 3)).isEqualTo("new:1");
    assertThat(spec.numTasks("ps")).isEqualTo(1);
  }

  @Test
  void jobWithoutTasksSurvivesTheRoundTrip() {
    ClusterSpec spec = ClusterSpec.builder().addEmptyJob("chief").addJob("w", List.of("a:1")).build();
    assertThat(ClusterDefs.fromClusterDef(ClusterDefs.toClusterDef(spec))).isEqualTo(spec);
  }

  @Test
  void jobsAreSortedByCodePointNotUtf16Unit() {
    String supplementary = new String(Character.toChars(0x1F600)); // surrogates D83D..
    String privateUse = "\uE000"; // below U+1F600 by code point, above its surrogates by unit
    ClusterSpec spec =
        ClusterSpec.builder()
            .addJob(supplementary, List.of("a:1"))
            .addJob(privateUse, List.of("b:1"))
            .build();
    assertThat(ClusterDefs.toClusterDef(spec).getJobList())
        .extracting(JobDef::getName)
        .containsExactly(privateUse, supplementary);
  }
}
