package io.clusterresolver.benchmarks;

import io.clusterresolver.ClusterSpec;
import io.clusterresolver.runtime.Cluster;
import io.clusterresolver.runtime.ClusterConnection;
import io.clusterresolver.runtime.RemoteValue;
import io.clusterresolver.runtime.TaskServer;
import java.util.List;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Round trips per second on loopback: {@code run(device, "echo", 16 bytes)} (the result stays on
 * the task), and {@code run} followed by {@code fetch} of the result. One task server in the same
 * JVM. Each iteration reconnects, so the values an iteration leaves on the server are freed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RunBenchmark {
  private static final String DEVICE = "/job:worker/replica:0/task:0/device:CPU:0";
  private static final byte[] INPUT = new byte[16];

  private TaskServer server;
  private ClusterSpec cluster;
  private ClusterConnection connection;

  @Setup(Level.Trial)
  public void startServer() {
    cluster = ClusterSpec.builder()
        .addJob("worker", List.of("127.0.0.1:" + ConnectBenchmark.unusedPorts(1).get(0))).build();
    server = TaskServer.builder(cluster, "worker", 0).function("echo", in -> in).start();
  }

  @Setup(Level.Iteration)
  public void connect() {
    connection = Cluster.connect(cluster);
  }

  @Benchmark
  @Threads(1)
  public RemoteValue run() {
    return connection.run(DEVICE, "echo", INPUT);
  }

  @Benchmark
  @Threads(4)
  public RemoteValue runFourThreads() {
    return connection.run(DEVICE, "echo", INPUT);
  }

  @Benchmark
  @Threads(1)
  public byte[] runAndFetch() {
    return connection.fetch(connection.run(DEVICE, "echo", INPUT));
  }

  @TearDown(Level.Iteration)
  public void disconnect() {
    connection.close();
  }

  @TearDown(Level.Trial)
  public void stopServer() {
    server.close();
  }
}
