package io.clusterresolver.benchmarks;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code ClusterResolvers.detect()} off-cloud (goal: under 200 ms), with every provider module on
 * the classpath. {@link #firstDetectInFreshJvm} is what a short-lived process pays: one call in a
 * new JVM (class loading, ServiceLoader, every availability check including metadata probes);
 * {@link #detectWarm} is the steady state of a long-running process.
 */
public class DetectBenchmark {

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Fork(10)
  @Warmup(iterations = 0)
  @Measurement(iterations = 1)
  public ClusterResolver firstDetectInFreshJvm() {
    return ClusterResolvers.detect();
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Fork(1)
  @Warmup(iterations = 3, time = 2)
  @Measurement(iterations = 5, time = 2)
  public ClusterResolver detectWarm() {
    return ClusterResolvers.detect();
  }
}
