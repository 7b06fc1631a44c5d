package io.clusterresolver.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * peers side by side on the same fleets and with the launcher's JVM options ({@link #LAUNCHER_OPTIONS}):
 * Hazelcast's GCP and Azure discovery and the raw SDK's first call of each cloud ({@link PeerFirstCall},
 * run from this harness's class path).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.CloudColdStart \
 *     --home resolver-cli/target/cluster-resolver-0.4.0-SNAPSHOT [--providers gce,azure,tpu,kubernetes,aws] \
 *     [--runs 7] [--warmup 2] [--peers] [--smoke] [--java-home /usr/lib/jvm/temurin-25-jdk-amd64] \
 *     [--latency-ms 0]
 * </pre>
 *
 * Each row is a new process per run, timed from {@code fork} to exit by this harness (wall), and by
 * {@code /usr/bin/time} for the CPU time (user + system) and the peak resident set (maximum RSS); beside
 * them, the CPU time this JVM spent per run, which is the simulated cloud answering (it shares the
 * command's cores: on a small machine the command's wall time includes waiting for it). A
 * run that exits non-zero, or that finds another number of members than the world holds (ours), or
 * none or more than the world holds (a peer: Hazelcast and the raw calls read one page), aborts the
 * row. Warm-up runs are not counted; they fill the page cache, let the launcher write its class-data
 * archive, and warm the simulation's own JVM. {@code --smoke} is {@code --peers --runs 1 --warmup 0}:
 * every command once, to check that each finds members before a long run.
 */
public final class CloudColdStart {

  /** An address in the command's JSON answer: {@code "10.0.0.1:8888"} or {@code "[2600::7]:8888"}. */
  private static final Pattern ADDRESS = Pattern.compile("\"[^\"\\s]+:\\d+\"");

  /**
   * The JVM options {@code bin/cluster-resolver} starts a {@code resolve} with, which the peers get too;
   * the launcher adds its class-data file (AppCDS or AOT cache, made from its own first run), which the
   * peers do not have.
   */
  static final List<String> LAUNCHER_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k",
      "-Xms16m", "-Xlog:disable", "-Xlog:all=warning:stderr");

  /** What each peer of {@link PeerFirstCall} does, for its row. */
  private static final Map<String, String> PEER_LABELS = Map.of(
      "hazelcast-gcp", "Hazelcast GCP discovery (one `instances.list` page per zone)",
      "hazelcast-azure", "Hazelcast Azure discovery (one NIC page, one public-IP page)",
      "gce", "raw SDK: `InstancesClient.aggregatedList`, one page",
      "azure", "raw SDK: `VirtualMachines.listByResourceGroup`, one page",
      "tpu", "raw SDK: `TpuClient.getNode`",
      "kubernetes", "raw SDK: fabric8 pods list",
      "aws", "raw SDK: `Ec2Client.describeInstances`, one page");

  private CloudColdStart() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--peers") || args[i].equals("--smoke")) {
        options.put(args[i].substring(2), "true");
      } else if (args[i].startsWith("--") && i + 1 < args.length) {
        options.put(args[i].substring(2), args[++i]);
      } else {
        throw new IllegalArgumentException("unknown argument " + args[i] + "; see the class comment");
      }
    }
    Path home = Path.of(options.getOrDefault("home", "resolver-cli/target/cluster-resolver-0.4.0-SNAPSHOT"));
    List<String> providers = List.of(options.getOrDefault("providers", String.join(",", CloudWorlds.PROVIDERS))
        .split(","));
    boolean smoke = options.containsKey("smoke");
    boolean peers = smoke || options.containsKey("peers");
    int runs = smoke ? 1 : Integer.parseInt(options.getOrDefault("runs", "7"));
    int warmup = smoke ? 0 : Integer.parseInt(options.getOrDefault("warmup", "2"));
    String javaHome = options.get("java-home");
    String javaBin = Path.of(javaHome == null ? System.getProperty("java.home") : javaHome, "bin", "java").toString();
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);

    Path dir = Files.createTempDirectory("cloud-cold-start");
    Duration latency = Duration.ofMillis(Long.parseLong(options.getOrDefault("latency-ms", "0")));
    try (CloudWorlds worlds = new CloudWorlds(dir).latency(latency)) {
      for (String provider : providers) {
        worlds.start(provider);
      }
      System.out.printf(Locale.ROOT,
          "Java %s for the commands, %d cores, load average %s; runs %d after %d warm-ups; API latency %d ms%n",
          javaHome == null ? "on the PATH" : javaHome, Runtime.getRuntime().availableProcessors(), loadAverage(),
          runs, warmup, latency.toMillis());
      if (peers) {
        System.out.printf(Locale.ROOT, "Peers: %s %s -cp %s, Hazelcast %s%n", javaBin,
            String.join(" ", LAUNCHER_OPTIONS), System.getProperty("java.class.path"),
            com.hazelcast.instance.BuildInfoProvider.getBuildInfo().getVersion());
      }
      System.out.println("| provider | command | members found (of) | wall median (min) | CPU user+sys median | peak RSS median"
          + " | simulated cloud's CPU per run | load |");
      System.out.println("|---|---|---|---|---|---|---|---|");
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
            worlds.expectedMembers(provider), true, runs, warmup, dir, home);
        for (String peer : peers ? peersOf(provider) : List.<String>of()) {
          List<String> command = new ArrayList<>(List.of(javaBin));
          command.addAll(LAUNCHER_OPTIONS);
          command.addAll(List.of("-cp", System.getProperty("java.class.path"), PeerFirstCall.class.getName(), peer,
              "--config", worlds.configFile(provider).toString()));
          if (!worlds.zones(provider).isEmpty()) {
            command.addAll(List.of("--zones", String.join(",", worlds.zones(provider))));
          }
          measure(provider, PEER_LABELS.get(peer), command, env, worlds.expectedMembers(provider), false, runs, warmup,
              dir, null);
        }
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

  /** The peers run next to a provider: Hazelcast's discovery where it has one, then the raw SDK. */
  static List<String> peersOf(String provider) {
    return switch (provider) {
      case "gce" -> List.of("hazelcast-gcp", "gce");
      case "azure" -> List.of("hazelcast-azure", "azure");
      default -> List.of(provider);
    };
  }

  /**
   * Runs {@code command} {@code warmup + runs} times and prints its row. {@code exact}: every run must find
   * {@code expected} members; otherwise at least one and at most that many. {@code classDataHome}: the
   * distribution whose launcher writes class data after a warm-up (ours), or {@code null}.
   */
  private static void measure(String provider, String label, List<String> command, Map<String, String> env,
      int expected, boolean exact, int runs, int warmup, Path dir, Path classDataHome)
      throws IOException, InterruptedException {
    String loadBefore = loadAverage();
    int found = -1;
    for (int w = 0; w < warmup; w++) {
      found = runOnce(command, env, dir).members;
      if (classDataHome != null) {
        awaitClassData(classDataHome);
      }
    }
    double[] wall = new double[runs];
    double[] cpu = new double[runs];
    double[] rss = new double[runs];
    // The worlds answer from this JVM, on the same cores as the command: what they spend is not the command's, but
    // the command waits for it (an API on other machines would not take the command's CPU).
    long worldCpuBefore = ownCpuNanos();
    for (int r = 0; r < runs; r++) {
      Run run = runOnce(command, env, dir);
      if (exact ? run.members != expected : run.members < 1 || run.members > expected) {
        throw new IllegalStateException("'" + String.join(" ", command) + "' found " + run.members + " members, not "
            + (exact ? "" : "1 to ") + expected);
      }
      wall[r] = run.wallMillis;
      cpu[r] = run.cpuMillis;
      rss[r] = run.maxRssKib / 1024.0;
      found = run.members;
    }
    double worldCpuPerRun = (ownCpuNanos() - worldCpuBefore) / 1e6 / runs;
    Arrays.sort(wall);
    Arrays.sort(cpu);
    Arrays.sort(rss);
    System.out.printf(Locale.ROOT, "| %s | %s | %d (%d) | %.0f ms (%.0f) | %.0f ms | %.0f MiB | %.0f ms | %s – %s |%n",
        provider, label, found, expected, median(wall), wall[0], median(cpu), median(rss), worldCpuPerRun, loadBefore,
        loadAverage());
  }

  /**
   * This JVM's CPU time: the simulated clouds it serves, and (a few milliseconds per run) the harness starting and
   * timing the command.
   */
  private static long ownCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
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
    double wall = ChildProcess.wallMillis(builder, String.join(" ", command), Duration.ofSeconds(120));
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
