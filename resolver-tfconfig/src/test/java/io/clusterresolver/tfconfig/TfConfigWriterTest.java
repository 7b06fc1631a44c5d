package io.clusterresolver.tfconfig;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class TfConfigWriterTest {

  private static final ClusterSpec SPEC = ClusterSpec.builder()
      .addJob("worker", List.of("w0:1", "w1:1"))
      .addTask("ps", 3, "p3:1")
      .addEmptyJob("evaluator")
      .build();

  @Test
  void writesDenseJobsAsArraysAndOthersAsObjects() {
    assertThat(TfConfigWriter.write(SPEC, "worker", 1, "grpc")).isEqualTo(
        "{\"cluster\":{\"evaluator\":{},\"ps\":{\"3\":\"p3:1\"},\"worker\":[\"w0:1\",\"w1:1\"]},"
            + "\"task\":{\"type\":\"worker\",\"index\":1},\"rpc_layer\":\"grpc\"}");
  }

  @Test
  void leavesOutWhatIsNotGiven() {
    assertThat(TfConfigWriter.write(ClusterSpec.empty(), null, null, null)).isEqualTo("{\"cluster\":{}}");
    assertThat(TfConfigWriter.write(ClusterSpec.empty(), null, 3, null)).isEqualTo("{\"cluster\":{}}");
    assertThat(TfConfigWriter.write(ClusterSpec.empty(), "chief", null, null))
        .isEqualTo("{\"cluster\":{},\"task\":{\"type\":\"chief\"}}");
  }

  @Test
  void escapesJsonSpecialCharacters() {
    ClusterSpec odd = ClusterSpec.of(Map.of("wö\"rker", List.of("h\\1:2")));
    String json = TfConfigWriter.write(odd, "wö\"rker", 0, null);
    assertThat(json).contains("\"wö\\\"rker\"").contains("\"h\\\\1:2\"");
    ClusterResolver back = ClusterResolvers.create("tfconfig", Map.of(), Map.of("TF_CONFIG", json));
    assertThat(back.clusterSpec()).isEqualTo(odd);
  }

  @Test
  void whatIsWrittenReadsBackAsTheSameClusterAndTask() {
    String json = TfConfigWriter.write(SPEC, "ps", 3, "grpc");
    ClusterResolver back = ClusterResolvers.create("tfconfig", Map.of(), Map.of("TF_CONFIG", json));
    assertThat(back.clusterSpec()).isEqualTo(SPEC);
    assertThat(back.clusterSpec().asMap()).isEqualTo(SPEC.asMap());
    assertThat(back.taskType()).contains("ps");
    assertThat(back.taskId()).isEqualTo(OptionalInt.of(3));
    assertThat(back.master()).isEqualTo("grpc://p3:1");
  }
}
