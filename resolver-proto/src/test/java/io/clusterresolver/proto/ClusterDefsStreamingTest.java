package io.clusterresolver.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterSpec;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterDefs#toBytes} writes the wire format itself; protobuf-java's own deterministic
 * serializer of the built message is the independent oracle.
 */
class ClusterDefsStreamingTest {

  @Test
  void bytesEqualProtobufJavasDeterministicSerializationOfRandomSpecs() {
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      ClusterSpec.Builder builder = ClusterSpec.builder();
      int jobs = random.nextInt(4);
      for (int j = 0; j < jobs; j++) {
        String job = j == 0 && random.nextBoolean() ? "" : "job" + random.nextInt(5) + (random.nextBoolean() ? "é" : "");
        builder.addEmptyJob(job);
        int tasks = random.nextInt(6);
        for (int t = 0; t < tasks; t++) {
          int index = random.nextInt(20) == 0 ? Integer.MAX_VALUE - random.nextInt(3)
              : random.nextInt(10) == 0 ? -random.nextInt(1000) - 1 : random.nextInt(3) == 0 ? random.nextInt(100000) : t;
          String address = random.nextInt(10) == 0 ? "" : "h" + random.nextInt(1000) + ":" + (1 + random.nextInt(65535));
          try {
            builder.addTask(job, index, address);
          } catch (IllegalArgumentException duplicate) {
            // an index given twice: skip it
          }
        }
      }
      ClusterSpec spec;
      try {
        spec = builder.build();
      } catch (IllegalArgumentException invalid) {
        continue;
      }
      assertThat(ClusterDefs.toBytes(spec)).as("spec %s", spec)
          .isEqualTo(ProtoBytes.deterministic(ClusterDefs.toClusterDef(spec)));
    }
  }

  @Test
  void aLargeDenseSpecMatchesToo() {
    ClusterSpec.Builder builder = ClusterSpec.builder();
    for (int i = 0; i < 5000; i++) {
      builder.addTask(i % 3 == 0 ? "ps" : "worker", i, "10.0." + (i >> 8 & 255) + "." + (i & 255) + ":8888");
    }
    ClusterSpec spec = builder.build();
    assertThat(ClusterDefs.toBytes(spec)).isEqualTo(ProtoBytes.deterministic(ClusterDefs.toClusterDef(spec)));
  }
}
