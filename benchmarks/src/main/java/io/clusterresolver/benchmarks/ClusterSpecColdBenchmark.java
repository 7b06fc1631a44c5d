package io.clusterresolver.benchmarks;

import io.clusterresolver.ClusterSpec;
import java.util.ArrayList;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The first {@code ClusterSpec.of} of 100 000 tasks in a fresh JVM: class loading and interpreted
 * code included, as a launcher that builds the spec once pays it. Nothing touches ClusterSpec
 * before the measured call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 10, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class ClusterSpecColdBenchmark {

  private Map<String, Object> jobs;

  @Setup(Level.Trial)
  public void setUp() {
    List<String> workers = new ArrayList<>(99_999);
    for (int i = 0; i < 99_999; i++) {
      workers.add("10." + (i >>> 16 & 255) + "." + (i >>> 8 & 255) + "." + (i & 255) + ":2222");
    }
    jobs = Map.of("chief", List.of("10.255.255.255:2222"), "worker", workers);
  }

  @Benchmark
  public ClusterSpec firstOfMapInFreshJvm() {
    return ClusterSpec.of(jobs);
  }
}
