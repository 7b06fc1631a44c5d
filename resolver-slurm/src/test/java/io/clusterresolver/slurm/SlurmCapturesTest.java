package io.clusterresolver.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Replays every process captured on a real Slurm 22.05 (src/test/resources/slurm-env, a copy of
 * the shared conformance captures): the resolver built from one process's environment alone must
 * place that process and every other process of its step exactly where Slurm ran them (D7), and
 * give the task the GPUs it can see (D8).
 */
class SlurmCapturesTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> SCENARIOS = List.of(
      "salloc-N2-n4-srun", "sbatch-N2-gpus-per-task1-srun", "sbatch-N2-two-steps", "sbatch-N4-tpn2-srun",
      "sbatch-hetjob-srun", "srun-N1-n1", "srun-N1-n2-c2", "srun-N1-n4", "srun-N2-n2-gpus3",
      "srun-N2-n4-gpus-per-task1", "srun-N2-tpn2-gpus-per-node4", "srun-N3-n7", "srun-N4-n5-cyclic",
      "srun-N4-tpn2-c2", "srun-N4-tpn3", "srun-n10", "srun-w-node1_node3_node4", "srun-w-node2_4-n4");

  static Stream<String> scenarios() {
    return SCENARIOS.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void everyProcessPlacesItsWholeStepWhereSlurmRanIt(String scenario) throws IOException {
    JsonNode capture = load(scenario);
    List<JsonNode> processes = new ArrayList<>();
    capture.get("processes").forEach(processes::add);
    int checked = 0;
    for (JsonNode process : processes) {
      JsonNode expected = process.get("expected");
      Map<String, String> env = env(process);
      ClusterResolver resolver = ClusterResolvers.create("slurm", Map.of(), env);
      if (expected == null || expected.isNull()) {
        // Not a task (the salloc shell): the cluster is still known, this process is not in it.
        assertThat(resolver.clusterSpec().numTasks("worker")).isPositive();
        assertThat(resolver.taskId()).isEmpty();
        assertThat(resolver.master()).isEmpty();
        continue;
      }
      int taskId = expected.get("task_id").asInt();
      String ownAddress = expected.get("host").asText() + ":" + (8888 + expected.get("port_offset").asInt());
      assertThat(resolver.taskType()).contains("worker");
      assertThat(resolver.taskId()).hasValue(taskId);
      assertThat(resolver.master()).isEqualTo("grpc://" + ownAddress);
      ClusterSpec spec = resolver.clusterSpec();
      for (JsonNode other : processes) {
        if (sameStep(process, other) && other.get("expected") != null && !other.get("expected").isNull()) {
          JsonNode o = other.get("expected");
          assertThat(spec.taskAddress("worker", o.get("task_id").asInt()))
              .as("%s: rank %s seen from rank %s", scenario, o.get("task_id"), taskId)
              .isEqualTo(o.get("host").asText() + ":" + (8888 + o.get("port_offset").asInt()));
        }
      }
      List<String> visible = new ArrayList<>();
      expected.get("visible_devices").forEach(d -> visible.add(d.asText()));
      List<String> own = resolver.visibleDevices().orElseThrow();
      assertThat(visible).as("%s rank %d: own devices are visible", scenario, taskId).containsAll(own);
      boolean boundPerTask = "task".equals(process.get("role").asText()) && env.containsKey("SLURM_GPUS_PER_TASK");
      if (boundPerTask) {
        assertThat(own).isEqualTo(visible);
      }
      if (visible.isEmpty()) {
        assertThat(resolver.numAccelerators()).isEmpty(); // D8: CPU-only allocations work
      } else {
        assertThat(resolver.numAccelerators()).containsEntry("GPU", own.size());
      }
      checked++;
    }
    assertThat(checked).isPositive();
  }

  /** Same job and the same step (the batch script is a step of its own). */
  private static boolean sameStep(JsonNode a, JsonNode b) {
    Map<String, String> ea = env(a);
    Map<String, String> eb = env(b);
    return Objects.equals(ea.get("SLURM_JOB_ID"), eb.get("SLURM_JOB_ID"))
        && Objects.equals(ea.get("SLURM_STEP_ID"), eb.get("SLURM_STEP_ID"))
        && a.get("role").asText().equals(b.get("role").asText());
  }

  static Map<String, String> env(JsonNode process) {
    Map<String, String> env = new LinkedHashMap<>();
    process.get("env").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
    return env;
  }

  static JsonNode load(String scenario) throws IOException {
    try (InputStream in = SlurmCapturesTest.class.getResourceAsStream("/slurm-env/" + scenario + ".json")) {
      return JSON.readTree(Objects.requireNonNull(in, scenario));
    }
  }
}
