package io.clusterresolver.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cold {@code resolve} of every cloud provider, whole-process, through the distribution's launcher,
 * against the simulated fleets of {@link CloudWorlds} served from this JVM; with {@code --peers}, the
 * peers side by side on the same fleets and JVM options: Hazelcast's GCP and Azure discovery and the
 * raw SDK's first call ({@link PeerFirstCall}).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.CloudColdStart \
 *     --home resolver-cli/target/cluster-resolver-0.4.0-SNAPSHOT [--providers gce,azure,tpu,kubernetes,aws] \
 *     [--runs 7] [--warmup 2] [--peers] [--java-home /usr/lib/jvm/temurin-25-jdk-amd64]
 * </pre>
 *
 * Each row is a new process per run, timed from {@code fork} to exit by this harness (wall), and by
 * {@code /usr/bin/time} for the CPU time (user + system) and the peak resident set (maximum RSS). A
 * run that exits non-zero, or that finds another number of members than the world holds (ours), aborts
 * the row. Warm-up runs are not counted; they fill the page cache, let the launcher write its class-data
 * archive, and warm the simulation's own JVM.
 */
public final class CloudColdStart {

  /** An address in the command's JSON answer: {@code "10.0.0.1:8888"} or {@code "[2600::7]:8888"}. */
  private static final Pattern ADDRESS = Pattern.compile("\"[^\"\\s]+:\\d+\"");

  private CloudColdStart() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].startsWith("--") && i + 1 < args.length) {
        options.put(args[i].substring(2), args[++i]);
      } else {
        throw new IllegalArgumentException("unknown argument " + args[i] + "; see the class comment");
      }
    }
    Path home = Path.of(options.getOrDefault("home", "resolver-cli/target/cluster-resolver-0.4.0-SNAPSHOT"));
    List<String> providers = List.of(options.getOrDefault("providers", String.join(",", CloudWorlds.PROVIDERS))
        .split(","));
    int runs = Integer.parseInt(options.getOrDefault("runs", "7"));
    int warmup = Integer.parseInt(options.getOrDefault("warmup", "2"));
    String javaHome = options.get("java-home");
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);

    Path dir = Files.createTempDirectory("cloud-cold-start");
    try (CloudWorlds worlds = new CloudWorlds(dir)) {
      for (String provider : providers) {
        worlds.start(provider);
      }
      System.out.printf(Locale.ROOT, "Java %s for the commands, %d cores, load average %s; runs %d after %d warm-ups%n",
          javaHome == null ? "on the PATH" : javaHome, Runtime.getRuntime().availableProcessors(), loadAverage(),
          runs, warmup);
      System.out.println("| provider | command | members found (of) | wall median (min) | CPU user+sys median | peak RSS median | load |");
      System.out.println("|---|---|---|---|---|---|---|");
      for (String provider : providers) {
        Map<String, String> env = new LinkedHashMap<>();
        if (!worlds.jvmOptions(provider).isEmpty()) {
          env.put("JDK_JAVA_OPTIONS", String.join(" ", worlds.jvmOptions(provider)));
        }
        if (javaHome != null) {
          env.put("JAVA_HOME", javaHome);
        }
        List<String> ours = List.of(home.resolve("bin/cluster-resolver").toString(), "resolve", "--provider", provider,
            "--config", worlds.configFile(provider).toString());
        measure(provider, "`cluster-resolver resolve --provider " + provider + "`", ours, env,
            worlds.expectedMembers(provider), true, runs, warmup, dir);
      }
    } finally {
      try (var files = Files.list(dir)) {
        for (Path file : files.toList()) {
          Files.deleteIfExists(file);
        }
      }
      Files.deleteIfExists(dir);
    }
  }

  private static void measure(String provider, String label, List<String> command, Map<String, String> env,
      int expected, boolean exact, int runs, int warmup, Path dir) throws IOException, InterruptedException {
    String loadBefore = loadAverage();
    int found = -1;
    for (int w = 0; w < warmup; w++) {
      found = runOnce(command, env, dir).members;
      awaitClassData(Path.of(command.get(0)).getParent().getParent());
    }
    double[] wall = new double[runs];
    double[] cpu = new double[runs];
    double[] rss = new double[runs];
    for (int r = 0; r < runs; r++) {
      Run run = runOnce(command, env, dir);
      if (exact && run.members != expected) {
        throw new IllegalStateException("'" + String.join(" ", command) + "' found " + run.members + " members, not "
            + expected);
      }
      wall[r] = run.wallMillis;
      cpu[r] = run.cpuMillis;
      rss[r] = run.maxRssKib / 1024.0;
      found = run.members;
    }
    Arrays.sort(wall);
    Arrays.sort(cpu);
    Arrays.sort(rss);
    System.out.printf(Locale.ROOT, "| %s | %s | %d (%d) | %.0f ms (%.0f) | %.0f ms | %.0f MiB | %s – %s |%n",
        provider, label, found, expected, median(wall), wall[0], median(cpu), median(rss), loadBefore, loadAverage());
  }

  /**
   * Waits (at most 5 minutes) while the launcher's background JVM writes the class data of the first run,
   * so that no measured run is one that started without it.
   */
  private static void awaitClassData(Path home) throws IOException, InterruptedException {
    Path dir = home.resolve("lib/.cds");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (Files.isDirectory(dir) && System.nanoTime() < deadline) {
      try (var files = Files.list(dir)) {
        if (files.noneMatch(f -> f.getFileName().toString().endsWith(".lock"))) {
          return;
        }
      }
      Thread.sleep(500);
    }
  }

  private record Run(double wallMillis, double cpuMillis, long maxRssKib, int members) {}

  private static Run runOnce(List<String> command, Map<String, String> env, Path dir)
      throws IOException, InterruptedException {
    Path timeFile = dir.resolve("time.txt");
    Path out = dir.resolve("stdout.txt");
    List<String> timed = new ArrayList<>(List.of("/usr/bin/time", "-f", "%U %S %M", "-o", timeFile.toString()));
    timed.addAll(command);
    ProcessBuilder builder = new ProcessBuilder(timed)
        .redirectOutput(out.toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().putAll(env);
    long start = System.nanoTime();
    Process process = builder.start();
    process.getOutputStream().close();
    if (!process.waitFor(120, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("'" + String.join(" ", command) + "' did not finish within 120 s");
    }
    double wall = (System.nanoTime() - start) / 1e6;
    if (process.exitValue() != 0) {
      throw new IllegalStateException("'" + String.join(" ", command) + "' exited with " + process.exitValue());
    }
    String[] time = Files.readString(timeFile, StandardCharsets.UTF_8).trim().split("\\s+");
    double cpu = (Double.parseDouble(time[time.length - 3]) + Double.parseDouble(time[time.length - 2])) * 1000;
    long rss = Long.parseLong(time[time.length - 1]);
    return new Run(wall, cpu, rss, members(Files.readString(out, StandardCharsets.UTF_8)));
  }

  /** Members in an answer: the addresses of the command's JSON, or a peer's {@code members: N} line. */
  static int members(String stdout) {
    Matcher peer = Pattern.compile("(?m)^members: (\\d+)$").matcher(stdout);
    if (peer.find()) {
      return Integer.parseInt(peer.group(1));
    }
    int count = 0;
    for (Matcher m = ADDRESS.matcher(stdout); m.find(); ) {
      count++;
    }
    return count;
  }

  private static double median(double[] sorted) {
    return sorted[(sorted.length - 1) / 2];
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException e) {
      return "?";
    }
  }
}
