package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.ProtoBytes;
import io.clusterresolver.proto.ServerDef;
import io.clusterresolver.proto.ServerDefs;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code tf-vectors/serverdef.json}: {@link ServerDefs} against TensorFlow's
 * {@code _make_server_def} (K9): job and task inference, protocol default, a ServerDef base
 * overridden as given; byte for byte.
 */
class ServerDefConformanceTest {

  static final String FILE = "tf-vectors/serverdef.json";

  @TestFactory
  Stream<DynamicNode> serverDef() {
    return VectorRunner.run(FILE, ServerDefConformanceTest::open);
  }

  static Area.Session open(Vector vector) {
    JsonNode setup = vector.setup();
    return step -> {
      if (!step.op().equals("make_server_def")) {
        throw new Area.UnknownOp(step);
      }
      String jobName = Values.string(setup.get("job_name"));
      Integer taskIndex = Values.integer(setup.get("task_index"));
      String protocol = Values.string(setup.get("protocol"));
      ServerDef def;
      if (setup.has("server_def_hex")) {
        ServerDef base = ServerDef.parseFrom(Values.hexToBytes(setup.get("server_def_hex").asText()));
        def = ServerDefs.withOverrides(base, jobName, taskIndex, protocol);
      } else {
        def = ServerDefs.fromCluster(cluster(setup.get("cluster")), jobName, taskIndex, protocol);
      }
      return Values.protoResult(ProtoBytes.deterministic(def));
    };
  }

  @SuppressWarnings("unchecked")
  private static ClusterSpec cluster(JsonNode node) {
    Object value = Values.decode(node);
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException(
          "Could not convert " + value + " to a ServerDef or a ClusterSpec");
    }
    return ClusterSpec.of((Map<String, ?>) value);
  }
}
