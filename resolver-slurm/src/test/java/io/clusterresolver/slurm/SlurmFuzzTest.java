package io.clusterresolver.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.TaskAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Fuzz tests (Jazzer) of what the slurm provider reads: host lists, tasks-per-node lists, and a
 * whole step environment with the provider's properties. The only documented failures are
 * {@code IllegalArgumentException} (its {@code ConfigurationException}) and
 * {@code ClusterResolverException}; anything else (an IndexOutOfBoundsException, a hang, an
 * OutOfMemoryError) is a finding. In {@code mvn verify} the seed corpus under
 * {@code src/test/resources/io/clusterresolver/slurm/SlurmFuzzTestInputs/} runs as regression tests;
 * {@code JAZZER_FUZZ=1} fuzzes (docs/reliability.md).
 */
class SlurmFuzzTest {

  /** Host names compress can write back: a prefix without separators or brackets, then digits. */
  private static final Pattern PLAIN_HOST = Pattern.compile("[A-Za-z][A-Za-z.-]{0,8}[0-9]{1,6}");

  @FuzzTest(maxDuration = "3m")
  void hostlist(FuzzedDataProvider data) {
    String input = data.consumeRemainingAsString();
    List<String> hosts;
    try {
      hosts = Hostlist.expand(input);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage().startsWith("Invalid host list") || e.getMessage().startsWith("Host list"))
          .as("the message names the list: %s", e.getMessage()).isTrue();
      return;
    }
    assertThat(hosts.size()).isLessThanOrEqualTo(Hostlist.MAX_HOSTS);
    // Round trip where the names are plain: compress writes a list that expands to the same hosts.
    if (!hosts.isEmpty() && hosts.size() <= 2000 && hosts.stream().allMatch(h -> PLAIN_HOST.matcher(h).matches())) {
      assertThat(Hostlist.expand(Hostlist.compress(hosts))).as("compress(%s)", hosts).isEqualTo(hosts);
    }
  }

  @FuzzTest(maxDuration = "3m")
  void tasksPerNode(FuzzedDataProvider data) {
    String input = data.consumeRemainingAsString();
    List<Integer> counts;
    try {
      counts = TasksPerNode.expand(input);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).contains(input.length() > 40 ? input.substring(0, 40) : input);
      return;
    }
    assertThat(counts).isNotEmpty().allMatch(c -> c >= 0);
    assertThat(counts.size()).isLessThanOrEqualTo(TasksPerNode.MAX_NODES);
    // The oracle: the list written item by item without repeats reads back the same.
    StringBuilder plain = new StringBuilder();
    for (int c : counts.subList(0, Math.min(counts.size(), 500))) {
      plain.append(plain.length() == 0 ? "" : ",").append(c);
    }
    assertThat(TasksPerNode.expand(plain.toString())).isEqualTo(counts.subList(0, Math.min(counts.size(), 500)));
  }

  @FuzzTest(maxDuration = "3m")
  void stepEnvironment(FuzzedDataProvider data) {
    Map<String, String> env = new HashMap<>();
    env.put("SLURM_JOB_ID", "7");
    boolean inStep = data.consumeBoolean();
    if (inStep) {
      env.put("SLURM_STEP_ID", "0");
      env.put("SLURM_STEP_NODELIST", data.consumeString(40));
      env.put("SLURM_STEP_TASKS_PER_NODE", data.consumeString(24));
    } else {
      env.put("SLURM_JOB_NODELIST", data.consumeString(40));
      env.put("SLURM_TASKS_PER_NODE", data.consumeString(24));
    }
    String[] optional = {"SLURM_PROCID", "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS", "SLURM_DISTRIBUTION",
        "SLURM_DIST_PLANESIZE", "CUDA_VISIBLE_DEVICES", "SLURM_GPUS_ON_NODE", "SLURM_GPUS_PER_TASK",
        "SLURMD_NODENAME", "SLURM_LOCALID", "SLURM_HET_SIZE", "SLURM_JOB_NODELIST_HET_GROUP_0",
        "SLURM_TASKS_PER_NODE_HET_GROUP_0"};
    for (String variable : optional) {
      if (data.consumeBoolean()) {
        env.put(variable, data.consumeString(16));
      }
    }
    Map<String, String> properties = new HashMap<>();
    String[] keys = {"jobs", "port-base", "tasks-per-node", "gpus-per-node", "gpus-per-task", "task-id"};
    for (String key : keys) {
      if (data.consumeBoolean()) {
        properties.put("clusterresolver.slurm." + key, data.consumeString(16));
      }
    }
    Resolution resolution;
    try {
      resolution = ClusterResolvers.create("slurm", properties, env).resolve();
    } catch (IllegalArgumentException | ClusterResolverException documented) {
      assertThat(documented.getMessage()).isNotBlank();
      return;
    }
    ClusterSpec spec = resolution.clusterSpec();
    for (String job : spec.jobs()) {
      for (int index : spec.taskIndices(job)) {
        String address = spec.taskAddress(job, index);
        assertThat(TaskAddress.parse(address).toString()).as("a valid host:port").isEqualTo(address);
      }
    }
  }
}
