package io.clusterresolver.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bytes checked against TensorFlow's own output (conformance/tf-vectors/serverdef.json). */
class ServerDefsTest {

  @Test
  void namedJobWithOneTaskInfersTheIndex() {
    ClusterSpec cluster = ClusterSpec.of(Map.of("worker", List.of("a:1"), "ps", List.of("p:1")));
    ServerDef def = ServerDefs.fromCluster(cluster, "ps", null, null);
    assertThat(Hex.of(ProtoBytes.deterministic(def)))
        .isEqualTo(
            "0a220a0d0a027073120708001203703a310a110a06776f726b6572120708001203613a311202707"
                + "32a0467727063");
  }

  @Test
  void singleSparseTaskInfersJobAndIndex() {
    ClusterSpec cluster = ClusterSpec.of(Map.of("worker", Map.of(3, "w3:1")));
    assertThat(Hex.of(ProtoBytes.deterministic(ServerDefs.fromCluster(cluster, null, null, null))))
        .isEqualTo("0a140a120a06776f726b657212080803120477333a311206776f726b657218032a0467727063");
  }

  @Test
  void cannotInferAmongSeveralTasksOrJobs() {
    ClusterSpec twoTasks = ClusterSpec.of(Map.of("worker", List.of("a:1", "b:2")));
    assertThatThrownBy(() -> ServerDefs.fromCluster(twoTasks, null, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task index")
        .hasMessageContaining("worker");
    ClusterSpec empty = ClusterSpec.of(Map.of("worker", List.of()));
    assertThatThrownBy(() -> ServerDefs.fromCluster(empty, null, null, null))
        .isInstanceOf(IllegalArgumentException.class);
    ClusterSpec twoJobs = ClusterSpec.of(Map.of("worker", List.of("a:1"), "ps", List.of("p:1")));
    assertThatThrownBy(() -> ServerDefs.fromCluster(twoJobs, null, 0, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("job name");
  }

  @Test
  void baseServerDefIsKeptAndOverridden() throws Exception {
    String base = "0a1c0a1a0a06776f726b6572120708001203613a31120708011203623a321206776f726b657218012a0467727063";
    ServerDef def = ServerDef.parseFrom(Hex.parse(base));
    assertThat(Hex.of(ProtoBytes.deterministic(ServerDefs.withOverrides(def, null, null, null))))
        .isEqualTo(base);
    assertThat(Hex.of(ProtoBytes.deterministic(ServerDefs.withOverrides(def, null, 0, null))))
        .isEqualTo(
            "0a1c0a1a0a06776f726b6572120708001203613a31120708011203623a321206776f726b65722a0467727063");
  }

  @Test
  void deviceFiltersGoToFieldSeven() {
    ClusterSpec cluster = ClusterSpec.of(Map.of("worker", List.of("a:1")));
    DeviceFilters filters =
        DeviceFilters.builder().setDeviceFilters("worker", 0, List.of("/job:ps")).build();
    ServerDef def = ServerDefs.withDeviceFilters(ServerDefs.fromCluster(cluster, null, null, null), filters);
    assertThat(DeviceFilters.fromProto(def.getClusterDeviceFilters())).isEqualTo(filters);
    // Field 7, length-delimited (tag 0x3a), follows the protocol and holds TensorFlow's bytes.
    String filtersHex = Hex.of(filters.toBytes());
    assertThat(Hex.of(ProtoBytes.deterministic(def)))
        .endsWith("2a0467727063" + "3a" + String.format("%02x", filtersHex.length() / 2) + filtersHex);
  }
}
