package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

/**
 * {@code slurm-env/*.json}: real task environments captured on Slurm 22.05 (D7, D8, D10). For every
 * captured process, the {@code slurm} resolver built from that process's environment alone, with
 * default properties, must: be task {@code expected.task_id} of job {@code worker} at
 * {@code host:(8888 + port_offset)}; place every other process of the same step where that process
 * really ran; and give its task GPU ids taken from the ones the process sees (exactly those when
 * Slurm bound GPUs per task). A process that is no task (the salloc shell) sees the cluster but is
 * not in it. One case per process.
 */
class SlurmEnvConformanceTest {

  static final String PATTERN = "slurm-env/*.json";
  private static final int PORT_BASE = 8888;

  @TestFactory
  Stream<DynamicNode> slurmEnv() {
    List<DynamicNode> tests = new ArrayList<>();
    for (String file : ConformanceData.files(PATTERN)) {
      Tally tally = Tally.of(file);
      JsonNode capture = ConformanceData.readJson(file);
      List<JsonNode> processes = new ArrayList<>();
      capture.path("processes").forEach(processes::add);
      for (int i = 0; i < processes.size(); i++) {
        JsonNode process = processes.get(i);
        String id = file + " #" + i + " " + process.path("role").asText();
        tests.add(DynamicTest.dynamicTest(id, () -> {
          String problem;
          try {
            problem = problem(process, processes);
          } catch (RuntimeException e) {
            problem = "threw " + e;
          }
          if (problem != null) {
            tally.failed(id, problem);
            throw new AssertionFailedError(id + ": " + problem);
          }
          tally.passed();
        }));
      }
      tests.add(DynamicTest.dynamicTest(file + " tally", tally::print));
    }
    return tests.stream();
  }

  /** Why this process's resolver is wrong, or {@code null}. */
  static String problem(JsonNode process, List<JsonNode> all) {
    Map<String, String> env = env(process);
    ClusterResolver resolver = ClusterResolvers.create("slurm", Map.of(), env);
    JsonNode expected = process.path("expected");
    if (expected.isNull() || expected.isMissingNode()) {
      if (resolver.taskId().isPresent() || !resolver.master().isEmpty()) {
        return "a process that is no task found itself as task " + resolver.taskId();
      }
      return resolver.clusterSpec().numTasks("worker") > 0 ? null : "no cluster for a process of a job";
    }
    int taskId = expected.path("task_id").asInt();
    String own = address(expected);
    if (!resolver.taskType().equals(Optional.of("worker")) || !resolver.taskId().equals(OptionalInt.of(taskId))) {
      return "task " + resolver.taskType() + " " + resolver.taskId() + ", expected worker " + taskId;
    }
    if (!resolver.master().equals("grpc://" + own)) {
      return "master() " + resolver.master() + ", expected grpc://" + own;
    }
    ClusterSpec spec = resolver.clusterSpec();
    for (JsonNode other : all) {
      JsonNode o = other.path("expected");
      if (o.isObject() && sameStep(process, other)) {
        String address = spec.taskAddress("worker", o.path("task_id").asInt());
        if (!address.equals(address(o))) {
          return "rank " + o.path("task_id").asInt() + " at " + address + ", but it ran at " + address(o);
        }
      }
    }
    List<String> visible = new ArrayList<>();
    expected.path("visible_devices").forEach(d -> visible.add(d.asText()));
    List<String> devices = resolver.visibleDevices().orElse(null);
    if (devices == null || !visible.containsAll(devices)) {
      return "visibleDevices() " + devices + " are not among the visible " + visible;
    }
    boolean boundBySlurm = "task".equals(process.path("role").asText())
        && (env.containsKey("SLURM_GPUS_PER_TASK") || Integer.parseInt(env.getOrDefault("SLURM_GPUS_ON_NODE", "0"))
            > visible.size());
    if (boundBySlurm && !devices.equals(visible)) {
      return "Slurm bound " + visible + " to this task, but visibleDevices() is " + devices;
    }
    Map<String, Integer> accelerators = resolver.numAccelerators();
    Map<String, Integer> expectedAccelerators = devices.isEmpty() ? Map.of() : Map.of("GPU", devices.size());
    if (!accelerators.equals(expectedAccelerators)) {
      return "numAccelerators() " + accelerators + " for devices " + devices;
    }
    return null;
  }

  private static String address(JsonNode expected) {
    return expected.path("host").asText() + ":" + (PORT_BASE + expected.path("port_offset").asInt());
  }

  /** Same job and the same step; the batch script is a step of its own. */
  private static boolean sameStep(JsonNode a, JsonNode b) {
    Map<String, String> ea = env(a);
    Map<String, String> eb = env(b);
    return Objects.equals(ea.get("SLURM_JOB_ID"), eb.get("SLURM_JOB_ID"))
        && Objects.equals(ea.get("SLURM_STEP_ID"), eb.get("SLURM_STEP_ID"))
        && a.path("role").asText().equals(b.path("role").asText());
  }

  static Map<String, String> env(JsonNode process) {
    Map<String, String> env = new LinkedHashMap<>();
    process.path("env").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
    return env;
  }
}
