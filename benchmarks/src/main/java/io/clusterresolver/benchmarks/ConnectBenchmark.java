package io.clusterresolver.benchmarks;

import io.clusterresolver.ClusterSpec;
import io.clusterresolver.runtime.Cluster;
import io.clusterresolver.runtime.ClusterConnection;
import io.clusterresolver.runtime.ConnectOptions;
import io.clusterresolver.runtime.TaskServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code Cluster.connect} to 1, 16 and 64 task servers on loopback (goal: 64 tasks in at most 3x
 * the time of 1). One connect is: start the local {@code localhost} task's server, contact every
 * task in parallel (status, then context creation), collect the visible devices. Closing is not
 * measured. The task servers run in the same JVM (and so share its 2 cores with the client).
 * {@code reuseChannels=false} opens a fresh HTTP/2 connection to every task on every connect (what
 * the first connect of a process pays); {@code true} is the default, where a reconnect reuses the
 * process's open channels.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ConnectBenchmark {

  @Param({"1", "16", "64"})
  public int tasks;

  /** true: reconnects reuse the process's open channels (the default); false: fresh connections. */
  @Param({"true", "false"})
  public boolean reuseChannels;

  private final List<TaskServer> servers = new ArrayList<>();
  private ClusterSpec cluster;
  private ClusterConnection connection;

  @Setup(Level.Trial)
  public void startServers() {
    List<String> addresses = new ArrayList<>();
    for (int port : unusedPorts(tasks)) {
      addresses.add("127.0.0.1:" + port);
    }
    cluster = ClusterSpec.builder().addJob("worker", addresses).build();
    for (int i = 0; i < tasks; i++) {
      servers.add(TaskServer.builder(cluster, "worker", i).function("echo", in -> in).start());
    }
  }

  @Benchmark
  public ClusterConnection connect() {
    connection = Cluster.connect(cluster, ConnectOptions.builder().reuseChannels(reuseChannels).build());
    return connection;
  }

  @TearDown(Level.Invocation)
  public void closeConnection() {
    if (connection != null) {
      connection.close();
      connection = null;
    }
  }

  @TearDown(Level.Trial)
  public void stopServers() {
    servers.forEach(TaskServer::close);
  }

  /** Distinct unused loopback ports: all sockets stay open until every port is picked. */
  static List<Integer> unusedPorts(int n) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      List<Integer> ports = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        sockets.add(socket);
        ports.add(socket.getLocalPort());
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      for (ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // Nothing to do: the port is free either way.
        }
      }
    }
  }
}
