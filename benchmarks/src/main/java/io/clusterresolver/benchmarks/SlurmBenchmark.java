package io.clusterresolver.benchmarks;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.slurm.Hostlist;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Slurm at scale (goal: each well under 100 ms): expanding and compressing 100 000 host names, and
 * resolving the cluster of a 10 000-node x 8-task step (80 000 tasks) from its environment, as
 * every one of its processes does at start-up.
 *
 * <p>Host lists: {@code contiguous} is {@code rack[000-099]-node[0000-0999]}; {@code fragmented}
 * drops every third node (150 racks), so the compressed form has about 50 000 ranges. The resolver re-reads
 * the environment and rebuilds the cluster on every {@code clusterSpec()} call, so that is measured.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SlurmBenchmark {

  @Param({"contiguous", "fragmented"})
  public String hostlist;

  @Param({"block", "cyclic"})
  public String distribution;

  private String compressed;
  private List<String> hosts;
  private List<String> shuffled;
  private ClusterResolver resolver;

  @Setup(Level.Trial)
  public void setUp() {
    hosts = new ArrayList<>();
    int n = 0;
    while (hosts.size() < 100_000) {
      if (!"fragmented".equals(hostlist) || n % 3 != 2) {
        hosts.add(String.format("rack%03d-node%04d", n / 1000, n % 1000));
      }
      n++;
    }
    compressed = Hostlist.compress(hosts);
    if (!Hostlist.expand(compressed).equals(hosts)) {
      throw new IllegalStateException("compress/expand round trip failed");
    }
    shuffled = new ArrayList<>(hosts);
    Collections.shuffle(shuffled, new Random(1));

    Map<String, String> env = Map.of(
        "SLURM_JOB_ID", "1",
        "SLURM_STEP_ID", "0",
        "SLURM_STEP_NODELIST", "node[00001-10000]",
        "SLURM_STEP_TASKS_PER_NODE", "8(x10000)",
        "SLURM_STEP_NUM_TASKS", "80000",
        "SLURM_DISTRIBUTION", distribution,
        "SLURM_PROCID", "54321");
    resolver = ClusterResolvers.create("slurm", Map.of("clusterresolver.slurm.jobs", "ps:16,worker:*"), env);
    if (resolver.clusterSpec().totalTasks() != 80_000) {
      throw new IllegalStateException("expected 80 000 tasks");
    }
  }

  /** {@code scontrol show hostnames}: 100 000 names from their compressed form. */
  @Benchmark
  public List<String> expand100k() {
    return Hostlist.expand(compressed);
  }

  /** {@code scontrol show hostlist}: 100 000 names in order. */
  @Benchmark
  public String compress100k() {
    return Hostlist.compress(hosts);
  }

  /** {@code scontrol show hostlistsorted}: 100 000 names in random order. */
  @Benchmark
  public String compressSorted100k() {
    return Hostlist.compressSorted(shuffled);
  }

  /** The whole 80 000-task cluster from the environment (node list, tasks per node, placement). */
  @Benchmark
  public ClusterSpec resolve10kNodesX8Tasks() {
    return resolver.clusterSpec();
  }

  /** This process's own address: what a task needs at start-up. */
  @Benchmark
  public String master10kNodesX8Tasks() {
    return resolver.master();
  }
}
