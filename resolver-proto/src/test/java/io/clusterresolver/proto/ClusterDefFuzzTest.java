package io.clusterresolver.proto;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.clusterresolver.ClusterSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Fuzz test (Jazzer) of ClusterDef parsing: any bytes as a {@code ClusterDef}. Documented failures
 * only ({@code InvalidProtocolBufferException}, {@code IllegalArgumentException}); an accepted
 * message's bytes equal protobuf-java's own deterministic serialization, and hold every job's last
 * {@code JobDef} as parsed (K3). Seeds in
 * {@code src/test/resources/io/clusterresolver/proto/ClusterDefFuzzTestInputs/}; docs/reliability.md.
 */
class ClusterDefFuzzTest {

  @FuzzTest(maxDuration = "3m")
  void clusterDef(byte[] input) throws IOException {
    ClusterDef def;
    try {
      def = ClusterDef.parseFrom(input);
    } catch (InvalidProtocolBufferException notAClusterDef) {
      return;
    }
    ClusterSpec spec;
    try {
      spec = ClusterDefs.fromClusterDef(def);
    } catch (IllegalArgumentException documented) {
      assertThat(documented.getMessage()).isNotBlank();
      return;
    }
    byte[] ours = ClusterDefs.toBytes(spec);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(buffer);
    out.useDeterministicSerialization();
    ClusterDefs.toClusterDef(spec).writeTo(out);
    out.flush();
    assertThat(ours).as("protobuf-java's deterministic bytes").isEqualTo(buffer.toByteArray());

    Map<String, Map<Integer, String>> expected = new TreeMap<>();
    for (JobDef job : def.getJobList()) {
      expected.put(job.getName(), new TreeMap<>(job.getTasksMap()));
    }
    Map<String, Map<Integer, String>> actual = new TreeMap<>();
    for (JobDef job : ClusterDef.parseFrom(ours).getJobList()) {
      actual.put(job.getName(), new TreeMap<>(job.getTasksMap()));
    }
    assertThat(actual).isEqualTo(expected);
  }
}
