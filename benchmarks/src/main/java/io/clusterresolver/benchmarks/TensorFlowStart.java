package io.clusterresolver.benchmarks;

import io.clusterresolver.ClusterSpec;
import io.clusterresolver.tensorflow.TensorFlowCluster;
import io.clusterresolver.tensorflow.TensorFlowConnection;
import io.clusterresolver.tensorflow.TensorHandle;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.tensorflow.EagerSession;
import org.tensorflow.proto.DataType;

/**
 * Real TensorFlow on a resolved cluster: (1) wall time from starting {@code cluster-resolver
 * tf-server} processes (all N at once, TF_CONFIG) to each one's "tensorflow server" line; (2) in this
 * JVM, {@code TensorFlowCluster.connect} to the N servers and the first remote op's result (AddV2 on
 * the last task, read back here), and a second connect (the update path) with its first op.
 *
 * <pre>
 * java -cp "benchmarks/target/classes:DIST/lib/*:DIST/tensorflow/*" \
 *     io.clusterresolver.benchmarks.TensorFlowStart DIST 2 8
 * </pre>
 */
public final class TensorFlowStart {
  private TensorFlowStart() {}

  public static void main(String[] args) throws Exception {
    Path dist = Path.of(args[0]);
    // TensorFlow's natives load once per JVM (about 1-3 s): paid here, before anything is timed.
    long loadStart = System.nanoTime();
    try (EagerSession warm = EagerSession.create()) {
      System.out.printf(Locale.ROOT, "client: TensorFlow natives loaded in %.0f ms%n", ms(loadStart));
    }
    for (String n : Arrays.copyOfRange(args, 1, args.length)) {
      run(dist, Integer.parseInt(n));
    }
  }

  private static void run(Path dist, int tasks) throws Exception {
    List<String> addresses = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      try (ServerSocket s = new ServerSocket(0)) {
        addresses.add("localhost:" + s.getLocalPort());
      }
    }
    String cluster = "{\"worker\":[\"" + String.join("\",\"", addresses) + "\"]}";
    List<Process> processes = new ArrayList<>();
    long start = System.nanoTime();
    try {
      for (int i = 0; i < tasks; i++) {
        ProcessBuilder pb = new ProcessBuilder(dist.resolve("bin/cluster-resolver").toString(),
            "tf-server", "--provider", "tfconfig").redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("TF_CONFIG",
            "{\"cluster\":" + cluster + ",\"task\":{\"type\":\"worker\",\"index\":" + i + "}}");
        processes.add(pb.start());
      }
      // One reader per process: each time is when that server's line arrived, not when it was read.
      double[] served = new double[tasks];
      List<Thread> readers = new ArrayList<>();
      for (int i = 0; i < tasks; i++) {
        int task = i;
        Thread reader = new Thread(() -> {
          try (BufferedReader out = new BufferedReader(new InputStreamReader(
              processes.get(task).getInputStream(), StandardCharsets.UTF_8))) {
            String line = out.readLine();
            served[task] = line != null && line.startsWith("tensorflow server") ? ms(start) : Double.NaN;
          } catch (IOException e) {
            served[task] = Double.NaN;
          }
        });
        reader.start();
        readers.add(reader);
      }
      for (Thread reader : readers) {
        reader.join(TimeUnit.MINUTES.toMillis(5));
      }
      if (Arrays.stream(served).anyMatch(t -> Double.isNaN(t) || t == 0)) {
        throw new IllegalStateException("A tf-server did not serve: " + Arrays.toString(served));
      }
      Arrays.sort(served);
      System.out.printf(Locale.ROOT, "%d tasks: process start -> serving: first %.0f ms, median %.0f ms, last %.0f ms%n",
          tasks, served[0], served[tasks / 2], served[tasks - 1]);

      ClusterSpec spec = ClusterSpec.of(Map.of("worker", addresses));
      String last = "/job:worker/replica:0/task:" + (tasks - 1) + "/device:CPU:0";
      try (EagerSession session = EagerSession.create()) {
        for (String round : List.of("connect", "connect again (update)")) {
          long t0 = System.nanoTime();
          TensorFlowConnection connection = TensorFlowCluster.connect(session, spec);
          double connected = ms(t0);
          float value;
          try (TensorHandle a = TensorHandle.scalar(40);
              TensorHandle b = TensorHandle.scalar(2);
              TensorHandle sum = connection.op("AddV2").device(last).input(a).input(b)
                  .attr("T", DataType.DT_FLOAT).execute()) {
            value = sum.floats()[0];
          }
          if (value != 42f) {
            throw new IllegalStateException("40 + 2 gave " + value);
          }
          System.out.printf(Locale.ROOT,
              "%d tasks: %s %.0f ms, first remote op result after %.0f ms (on %s)%n",
              tasks, round, connected, ms(t0), last);
        }
      }
    } finally {
      for (Process p : processes) {
        p.destroy();
        p.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  private static double ms(long since) {
    return (System.nanoTime() - since) / 1e6;
  }
}
