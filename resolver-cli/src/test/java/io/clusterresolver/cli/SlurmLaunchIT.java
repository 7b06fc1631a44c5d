package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clusterresolver.cli.LocalSlurmCluster.Command;
import io.clusterresolver.cli.LocalSlurmCluster.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Launches the real thing on a local four-node Slurm: every task of an {@code srun} (and an
 * {@code sbatch} script and its step) runs {@code cluster-resolver resolve --provider slurm
 * --format json}, and all of them must print the same cluster, each finding itself at
 * {@code SLURMD_NODENAME:(8888 + SLURM_LOCALID)} as task {@code SLURM_PROCID} of job {@code worker}.
 */
class SlurmLaunchIT {

  @RegisterExtension
  static final LocalSlurmCluster SLURM = new LocalSlurmCluster();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long LAUNCH_TIMEOUT_SECONDS = 240;
  private static final Pattern CUDA = Pattern.compile("CUDA_VISIBLE_DEVICES=['\"]?([^'\"\\s]*)");

  private static Path taskScript;
  private Path outDir;

  @BeforeAll
  static void writeTaskScript() throws IOException {
    Path jar = Paths.get(System.getProperty("cli.jar", "target/cluster-resolver.jar")).toAbsolutePath();
    assertThat(jar).as("run 'mvn package' first").exists();
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    taskScript = SLURM.stateDir().resolve("task.sh");
    // Each process records what Slurm told it, then what the command resolved. Small JVM flags: up
    // to eight JVMs start at once on a small machine.
    Files.writeString(taskScript, String.join("\n",
        "#!/bin/bash",
        "out=\"$1/${2}-${SLURM_PROCID:-none}\"",
        "printf '%s %s %s %s\\n' \"${SLURMD_NODENAME:-?}\" \"${SLURM_LOCALID:-?}\" \"${SLURM_PROCID:-?}\""
            + " \"${CUDA_VISIBLE_DEVICES-unset}\" > \"$out.facts\"",
        "run() { '" + java + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xmx96m -jar '" + jar + "' \"$@\"; }",
        "run resolve --provider slurm --format json > \"$out.json\" 2> \"$out.err\"",
        "echo $? > \"$out.code\"",
        "if [ \"${WITH_ENV:-}\" = 1 ]; then run resolve --provider slurm --format env > \"$out.env\" 2>> \"$out.err\"; fi",
        ""), StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(taskScript, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private Path outDir(TestInfo info) throws IOException {
    outDir = Files.createDirectories(SLURM.stateDir().resolve("out-" + info.getTestMethod().orElseThrow().getName()));
    return outDir;
  }

  private Map<String, String> env(boolean withEnvFormat) {
    Map<String, String> env = new HashMap<>();
    env.put("SLURM_CONF", SLURM.slurmConf().toString());
    if (withEnvFormat) {
      env.put("WITH_ENV", "1");
    }
    return env;
  }

  private Result srun(Map<String, String> env, String... options) throws Exception {
    List<String> command = new ArrayList<>(List.of("srun", "--time=5", "--kill-on-bad-exit=1"));
    command.addAll(List.of(options));
    command.addAll(List.of(taskScript.toString(), outDir.toString(), "task"));
    Result result = Command.run(command, env, LAUNCH_TIMEOUT_SECONDS);
    assertThat(result.code).as("%s%n%s", command, result).isZero();
    return result;
  }

  /** What one process was told by Slurm and what it resolved. */
  private static final class Task {
    final String node;
    final int localId;
    final int procId;
    final String cudaVisibleDevices;
    final JsonNode resolved;
    final String envFormat;

    Task(Path dir, String role, int rank) throws IOException {
      String prefix = role + "-" + rank;
      String[] facts = Files.readString(dir.resolve(prefix + ".facts")).trim().split(" ");
      node = facts[0];
      localId = Integer.parseInt(facts[1]);
      procId = Integer.parseInt(facts[2]);
      cudaVisibleDevices = facts.length > 3 ? facts[3] : "";
      String code = Files.readString(dir.resolve(prefix + ".code")).trim();
      assertThat(code).as("%s exit code; stderr: %s", prefix, Files.readString(dir.resolve(prefix + ".err")))
          .isEqualTo("0");
      resolved = JSON.readTree(dir.resolve(prefix + ".json").toFile());
      Path env = dir.resolve(prefix + ".env");
      envFormat = Files.exists(env) ? Files.readString(env) : null;
    }

    String ownAddress() {
      return node + ":" + (8888 + localId);
    }
  }

  private static List<Task> tasks(Path dir, String role, int count) throws IOException {
    List<Task> tasks = new ArrayList<>();
    for (int rank = 0; rank < count; rank++) {
      tasks.add(new Task(dir, role, rank));
    }
    return tasks;
  }

  /** Every task prints the same cluster and finds itself in it where Slurm runs it. */
  private static JsonNode assertOneClusterAndEachFindsItself(List<Task> tasks) {
    JsonNode cluster = tasks.get(0).resolved.get("cluster");
    assertThat(cluster.get("worker")).hasSize(tasks.size());
    for (Task task : tasks) {
      assertThat(task.resolved.get("cluster")).as("cluster seen by rank %d", task.procId).isEqualTo(cluster);
      assertThat(task.resolved.at("/task/type").asText()).isEqualTo("worker");
      assertThat(task.resolved.at("/task/index").asInt()).isEqualTo(task.procId);
      assertThat(cluster.get("worker").get(task.procId).asText())
          .as("rank %d runs on %s with SLURM_LOCALID %d", task.procId, task.node, task.localId)
          .isEqualTo(task.ownAddress());
      assertThat(task.resolved.get("rpc_layer").asText()).isEqualTo("grpc");
    }
    return cluster;
  }

  @Test
  void srunFourNodesEightTasks(TestInfo info) throws Exception {
    outDir(info);
    srun(env(false), "-N4", "-n8");
    JsonNode cluster = assertOneClusterAndEachFindsItself(tasks(outDir, "task", 8));
    List<String> hosts = new ArrayList<>();
    cluster.get("worker").forEach(address -> hosts.add(address.asText().split(":")[0]));
    assertThat(hosts).containsOnly("node1", "node2", "node3", "node4").isSorted(); // block: node order
  }

  @Test
  void srunUnevenFourNodesFiveTasks(TestInfo info) throws Exception {
    outDir(info);
    srun(env(false), "-N4", "-n5");
    JsonNode cluster = assertOneClusterAndEachFindsItself(tasks(outDir, "task", 5));
    assertThat(cluster.get("worker").get(1).asText()).isEqualTo("node1:8889"); // 2,1(x3)
  }

  @Test
  void srunCyclicDistribution(TestInfo info) throws Exception {
    outDir(info);
    srun(env(false), "-N4", "-n8", "--distribution=cyclic");
    List<Task> tasks = tasks(outDir, "task", 8);
    JsonNode cluster = assertOneClusterAndEachFindsItself(tasks);
    assertThat(cluster.get("worker").get(1).asText()).isEqualTo("node2:8888"); // round-robin, not block
    assertThat(cluster.get("worker").get(4).asText()).isEqualTo("node1:8889");
  }

  @Test
  void srunGpusPerTaskGivesEachTaskItsOwnGpu(TestInfo info) throws Exception {
    outDir(info);
    srun(env(true), "-N2", "-n4", "--gpus-per-task=1");
    List<Task> tasks = tasks(outDir, "task", 4);
    assertOneClusterAndEachFindsItself(tasks);
    for (Task task : tasks) {
      assertThat(task.cudaVisibleDevices).as("Slurm gave rank %d one GPU", task.procId).matches("\\d+");
      assertThat(task.resolved.at("/accelerators/GPU").asInt()).isEqualTo(1);
      Matcher exported = CUDA.matcher(task.envFormat);
      assertThat(exported.find()).as("--format env of rank %d: %s", task.procId, task.envFormat).isTrue();
      assertThat(exported.group(1)).isEqualTo(task.cudaVisibleDevices);
    }
  }

  @Test
  void sbatchScriptAndItsStep(TestInfo info) throws Exception {
    outDir(info);
    Path job = outDir.resolve("job.sh");
    Files.writeString(job, String.join("\n",
        "#!/bin/bash",
        "#SBATCH -N2",
        "#SBATCH -n4",
        "#SBATCH -o " + outDir.resolve("slurm-%j.out"),
        "#SBATCH --time=5",
        taskScript + " " + outDir + " batch",
        "srun --kill-on-bad-exit=1 " + taskScript + " " + outDir + " task",
        ""), StandardCharsets.UTF_8);
    Result submitted = Command.run(List.of("sbatch", "--wait", "--parsable", job.toString()), env(false),
        LAUNCH_TIMEOUT_SECONDS);
    assertThat(submitted.code).as("sbatch: %s", submitted).isZero();
    List<Task> step = tasks(outDir, "task", 4);
    JsonNode cluster = assertOneClusterAndEachFindsItself(step);
    // D10: the batch script itself, outside any step, sees the same cluster from the job's variables.
    Task batch = new Task(outDir, "batch", 0);
    assertThat(batch.resolved.get("cluster")).isEqualTo(cluster);
    assertThat(batch.resolved.at("/task/index").asInt()).isZero();
    assertThat(cluster.get("worker").get(0).asText()).isEqualTo(batch.ownAddress());
  }
}
