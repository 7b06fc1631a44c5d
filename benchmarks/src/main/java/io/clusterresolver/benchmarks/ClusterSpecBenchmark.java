package io.clusterresolver.benchmarks;

import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.ClusterDefs;
import io.clusterresolver.proto.ProtoBytes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * ClusterSpec at scale: building one of 100 000 tasks (goal: under 50 ms), {@code asMap}, and
 * {@code taskAddress} lookups. The cluster has a chief, 1 000 parameter servers and the rest
 * workers, with one sparse job; addresses are distinct {@code 10.x.y.z:port} strings made up front
 * so string building is not measured.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ClusterSpecBenchmark {

  @Param({"100000"})
  public int tasks;

  private List<String> workerAddresses;
  private List<String> psAddresses;
  private Map<Integer, String> sparseEvaluators;
  private Map<String, Object> asMapInput;
  private ClusterSpec spec;
  private int[] lookupIndices;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    int ps = 1_000;
    int evaluators = 100;
    int workers = tasks - 1 - ps - evaluators;
    workerAddresses = addresses(0, workers);
    psAddresses = addresses(workers, ps);
    sparseEvaluators = new LinkedHashMap<>();
    for (int i = 0; i < evaluators; i++) {
      sparseEvaluators.put(i * 2, address(workers + ps + i)); // every other index: a sparse job
    }
    asMapInput = new LinkedHashMap<>();
    asMapInput.put("chief", List.of(address(tasks)));
    asMapInput.put("ps", psAddresses);
    asMapInput.put("worker", workerAddresses);
    asMapInput.put("evaluator", sparseEvaluators);
    spec = ClusterSpec.of(asMapInput);
    if (spec.totalTasks() != tasks) {
      throw new IllegalStateException("expected " + tasks + " tasks, built " + spec.totalTasks());
    }
    lookupIndices = new int[4096];
    java.util.SplittableRandom random = new java.util.SplittableRandom(42);
    for (int i = 0; i < lookupIndices.length; i++) {
      lookupIndices[i] = random.nextInt(workers);
    }
  }

  private static List<String> addresses(int from, int count) {
    List<String> list = new ArrayList<>(count);
    for (int i = from; i < from + count; i++) {
      list.add(address(i));
    }
    return list;
  }

  private static String address(int i) {
    return "10." + (i >>> 16 & 255) + "." + (i >>> 8 & 255) + "." + (i & 255) + ":" + (2222 + i % 7);
  }

  /** {@code ClusterSpec.of(map)} of 100 000 tasks in four jobs (one sparse). */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public ClusterSpec ofMap() {
    return ClusterSpec.of(asMapInput);
  }

  /** The builder, task by task: 100 000 {@code addTask} calls. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public ClusterSpec builderAddTask() {
    ClusterSpec.Builder builder = ClusterSpec.builder();
    builder.addTask("chief", 0, (String) ((List<?>) asMapInput.get("chief")).get(0));
    for (int i = 0; i < psAddresses.size(); i++) {
      builder.addTask("ps", i, psAddresses.get(i));
    }
    for (int i = 0; i < workerAddresses.size(); i++) {
      builder.addTask("worker", i, workerAddresses.get(i));
    }
    sparseEvaluators.forEach((index, address) -> builder.addTask("evaluator", index, address));
    return builder.build();
  }

  /** TensorFlow's {@code as_dict} of the 100 000-task spec. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public Map<String, Object> asMap() {
    return spec.asMap();
  }

  /** One {@code taskAddress(job, index)} lookup at a random index of the 98 899-task job. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public String taskAddress() {
    int index = lookupIndices[next++ & (lookupIndices.length - 1)];
    return spec.taskAddress("worker", index);
  }

  /** A lookup in the sparse job. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public String taskAddressSparse() {
    return spec.taskAddress("evaluator", (next++ & 63) * 2);
  }

  /** TensorFlow's deterministic ClusterDef bytes of the spec, written straight from it. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public byte[] toClusterDefBytes() {
    return ClusterDefs.toBytes(spec);
  }

  /** The same bytes through the generated message and protobuf-java's deterministic writer (before). */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public byte[] toClusterDefMessageBytes() {
    return ProtoBytes.deterministic(ClusterDefs.toClusterDef(spec));
  }
}
