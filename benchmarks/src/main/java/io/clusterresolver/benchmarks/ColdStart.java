package io.clusterresolver.benchmarks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

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
    for (int w = 0; w < warmup; w++) {
      runOnce(command);
    }
    double[] millis = new double[runs];
    for (int r = 0; r < runs; r++) {
      millis[r] = runOnce(command);
    }
    Arrays.sort(millis);
    double mean = Arrays.stream(millis).average().orElse(Double.NaN);
    System.out.printf(Locale.ROOT, "command: %s%n", String.join(" ", command));
    System.out.printf(Locale.ROOT,
        "runs: %d  min %.0f ms  median %.0f ms  mean %.0f ms  p90 %.0f ms  max %.0f ms%n",
        runs, millis[0], percentile(millis, 50), mean, percentile(millis, 90), millis[runs - 1]);
  }

  private static double runOnce(List<String> command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    long start = System.nanoTime();
    Process process = builder.start();
    process.getOutputStream().close();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("'" + String.join(" ", command) + "' did not finish within 60 s");
    }
    double millis = (System.nanoTime() - start) / 1e6;
    if (process.exitValue() != 0) {
      throw new IllegalStateException("'" + String.join(" ", command) + "' exited with " + process.exitValue());
    }
    return millis;
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
