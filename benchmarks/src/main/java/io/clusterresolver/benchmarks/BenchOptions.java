package io.clusterresolver.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/** A benchmark's command line ({@code --key value} pairs) and the machine line every benchmark prints first. */
final class BenchOptions {

  private final Map<String, String> values;

  private BenchOptions(Map<String, String> values) {
    this.values = values;
  }

  /** {@code --key value} pairs; a trailing key without a value is ignored. */
  static BenchOptions parse(String[] args) {
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      values.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    return new BenchOptions(values);
  }

  boolean has(String key) {
    return values.containsKey(key);
  }

  /** The value, or {@code null} when not given. */
  String get(String key) {
    return values.get(key);
  }

  String get(String key, String defaultValue) {
    return values.getOrDefault(key, defaultValue);
  }

  int integer(String key, int defaultValue) {
    String value = values.get(key);
    return value == null ? defaultValue : Integer.parseInt(value);
  }

  /** A comma-separated list of whole numbers, such as {@code --sizes 10,1000,10000}. */
  int[] integers(String key, String defaultValue) {
    return Arrays.stream(get(key, defaultValue).split(",")).mapToInt(Integer::parseInt).toArray();
  }

  /** The sweep every scale benchmark runs: cluster {@code --sizes}, {@code --latency-ms} per API call, {@code --reps} per size. */
  record Sweep(int[] sizes, int latencyMs, int reps) {

    /** Prints the machine and the latency per {@code call}, then the table's header and separator rows. */
    void printHeading(String call, String header, String separator) {
      System.out.printf(Locale.ROOT, "%s; latency %d ms per %s%n", machine(), latencyMs, call);
      System.out.println(header);
      System.out.println(separator);
    }
  }

  /** The sweep, each setting defaulting to the given one. */
  Sweep sweep(String sizes, int latencyMs, int reps) {
    return new Sweep(integers("sizes", sizes), integer("latency-ms", latencyMs), integer("reps", reps));
  }

  /** Keeps the providers' INFO lines out of the table a benchmark prints. */
  static void quietLogs() {
    Logger.getLogger("").setLevel(Level.WARNING);
  }

  /** {@code machine: 2 cores, Java 17.0.x, load average 1.2}: what a figure was measured on. */
  static String machine() {
    return String.format(Locale.ROOT, "machine: %d cores, Java %s, load average %.1f",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }
}
