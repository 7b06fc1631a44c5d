package io.clusterresolver.benchmarks;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Wall time of a command started cold, as a user or a launcher script starts it: a new process per
 * run, from {@code fork} to exit, standard output discarded. Used for the cold {@code resolve} of
 * the {@code cluster-resolver} command (goal: under 0.6 s with the {@code local} provider).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.ColdStart \
 *     [--runs 20] [--warmup 3] -- ./cluster-resolver resolve
 * </pre>
 *
 * Warm-up runs fill the page cache (and let the wrapper script build its class-data archive); they
 * are not counted. A run that exits non-zero aborts the measurement, since its time means nothing.
 *
 * <p>Besides wall time it reports the CPU time (user + system) of each run, read on Linux from this
 * process's {@code /proc/self/stat} children times (10 ms resolution): on a shared, busy machine
 * wall time mostly measures the other processes, while CPU time stays close to what an idle machine
 * would show as wall time.
 */
public final class ColdStart {

  private ColdStart() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    int runs = 20;
    int warmup = 3;
    int i = 0;
    for (; i < args.length && !args[i].equals("--"); i++) {
      switch (args[i]) {
        case "--runs":
          runs = Integer.parseInt(args[++i]);
          break;
        case "--warmup":
          warmup = Integer.parseInt(args[++i]);
          break;
        default:
          usage("unknown option " + args[i]);
      }
    }
    if (i >= args.length - 1) {
      usage("no command after --");
    }
    List<String> command = List.of(Arrays.copyOfRange(args, i + 1, args.length));
    String loadAverage = loadAverage();
    for (int w = 0; w < warmup; w++) {
      runOnce(command);
    }
    double[] millis = new double[runs];
    double[] cpuMillis = new double[runs];
    for (int r = 0; r < runs; r++) {
      long cpuBefore = childrenCpuMillis();
      millis[r] = runOnce(command);
      cpuMillis[r] = childrenCpuMillis() - cpuBefore;
    }
    Arrays.sort(millis);
    Arrays.sort(cpuMillis);
    double mean = Arrays.stream(millis).average().orElse(Double.NaN);
    System.out.printf(Locale.ROOT, "command: %s%n", String.join(" ", command));
    System.out.printf(Locale.ROOT,
        "runs: %d  min %.0f ms  median %.0f ms  mean %.0f ms  p90 %.0f ms  max %.0f ms%n",
        runs, millis[0], percentile(millis, 50), mean, percentile(millis, 90), millis[runs - 1]);
    if (cpuMillis[runs - 1] > 0) {
      System.out.printf(Locale.ROOT, "cpu (user+sys): min %.0f ms  median %.0f ms  p90 %.0f ms%n",
          cpuMillis[0], percentile(cpuMillis, 50), percentile(cpuMillis, 90));
    }
    System.out.printf(Locale.ROOT, "load average before/after: %s / %s%n", loadAverage, loadAverage());
  }

  /** User + system CPU time of this process's waited-for children, in ms; 0 when unknown. */
  static long childrenCpuMillis() {
    try {
      String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat"));
      // Fields after the command name (which may contain spaces) start after the last ')'.
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      long ticks = Long.parseLong(fields[13]) + Long.parseLong(fields[14]); // cutime, cstime
      return ticks * 10; // USER_HZ is 100 on Linux
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  private static String loadAverage() {
    try {
      String[] parts = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static double runOnce(List<String> command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    return ChildProcess.wallMillis(builder, String.join(" ", command), Duration.ofSeconds(60));
  }

  /** Nearest-rank percentile of sorted values. */
  private static double percentile(double[] sorted, int p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static void usage(String problem) {
    System.err.println("ColdStart: " + problem);
    System.err.println("usage: ColdStart [--runs N] [--warmup N] -- COMMAND [ARGS...]");
    System.exit(2);
  }
}
