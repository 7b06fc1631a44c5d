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
 * really ran; and give its task exactly the GPU ids and count {@link #expectedDevices} derives
 * from the capture alone (an empty answer fails where the process had GPUs). A process that is no task (the salloc shell) sees the cluster but is
 * not in it. One case per process.
 */
class SlurmEnvConformanceTest {

  static final String PATTERN = "slurm-env/*.json";
  private static final int PORT_BASE = 8888;

  @TestFactory
  Stream<DynamicNode> slurmEnv() {
    List<DynamicNode> tests = new ArrayList<>();
    if (ConformanceData.files(PATTERN).isEmpty()) {
      return Stream.of(DynamicTest.dynamicTest(PATTERN + " (absent)", () -> {
        throw new AssertionFailedError("no " + PATTERN + " in " + ConformanceData.directory());
      }));
    }
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
    List<String> expectedDevices = expectedDevices(process, all);
    Optional<List<String>> devices = resolver.visibleDevices();
    if (!devices.equals(Optional.of(expectedDevices))) {
      return "visibleDevices() " + devices + ", expected " + expectedDevices;
    }
    Map<String, Integer> expectedAccelerators =
        expectedDevices.isEmpty() ? Map.of() : Map.of("GPU", expectedDevices.size());
    if (!resolver.numAccelerators().equals(expectedAccelerators)) {
      return "numAccelerators() " + resolver.numAccelerators() + ", expected " + expectedAccelerators;
    }
    return null;
  }

  /**
   * D8 from the capture alone, sharing nothing with resolver-slurm: the ids the process saw
   * ({@code expected.visible_devices}); all of them when Slurm bound GPUs per task (a task of a step
   * with {@code SLURM_GPUS_PER_TASK}, or seeing fewer than {@code SLURM_GPUS_ON_NODE}); otherwise
   * its share: the ids over the processes captured on its host in its step (for the batch script,
   * the step it starts), the slice at its local id ({@code port_offset}).
   */
  static List<String> expectedDevices(JsonNode process, List<JsonNode> all) {
    JsonNode expected = process.path("expected");
    List<String> visible = new ArrayList<>();
    expected.path("visible_devices").forEach(d -> visible.add(d.asText()));
    Map<String, String> env = env(process);
    boolean task = "task".equals(process.path("role").asText());
    if (task && (env.containsKey("SLURM_GPUS_PER_TASK")
        || Integer.parseInt(env.getOrDefault("SLURM_GPUS_ON_NODE", "0")) > visible.size())) {
      return visible;
    }
    String host = expected.path("host").asText();
    long onHost = all.stream()
        .filter(other -> task ? sameStep(process, other) : firstStepOf(process, other))
        .filter(other -> other.path("expected").path("host").asText().equals(host))
        .count();
    int perTask = onHost == 0 ? 0 : (int) (visible.size() / onHost);
    int from = Math.min(visible.size(), expected.path("port_offset").asInt() * perTask);
    return visible.subList(from, Math.min(visible.size(), from + perTask));
  }

  /** A task of the first step the batch script {@code batch} starts (D10: it sees that cluster). */
  private static boolean firstStepOf(JsonNode batch, JsonNode other) {
    return "task".equals(other.path("role").asText())
        && Objects.equals(env(batch).get("SLURM_JOB_ID"), env(other).get("SLURM_JOB_ID"))
        && "0".equals(env(other).get("SLURM_STEP_ID"));
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
