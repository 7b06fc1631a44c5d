package io.clusterresolver.benchmarks;

import com.hazelcast.aws.AwsDiscoveryStrategyFactory;
import com.hazelcast.logging.Logger;
import com.hazelcast.spi.discovery.DiscoveryNode;
import com.hazelcast.spi.discovery.DiscoveryStrategy;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.SimulatedEc2;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The aws provider at scale against {@link SimulatedEc2} with an injected per-call latency, side by
 * side with Hazelcast's EC2 discovery ({@code hazelcast-aws}, in the Hazelcast jar) on the same
 * simulated fleet, in the same run: each is measured in its own child JVM started with the same
 * options ({@code --jvm-options}, default {@code -Xmx128m}: Hazelcast's discovery runs out of memory
 * in 32 MiB at N = 1,000, and now and then in 64 MiB), so neither pays for the simulation's memory or CPU and neither is warmed
 * by the other. Ours then runs once more in a JVM capped at {@code --heap-cap} (default
 * {@code -Xmx32m}), which shows the heap it needs. Per size: API calls per resolve, warm wall time,
 * resolving-thread CPU, peak heap, members found; then the cold {@code resolve --simulate} of the
 * CLI when {@code --cli-jar} is given.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.AwsScale \
 *     [--sizes 10,1000,10000] [--latency-ms 20] [--reps 10] [--warmups 10] [--peer hazelcast|none] \
 *     [--jvm-options "-Xmx128m"] [--heap-cap -Xmx32m] [--cli-jar resolver-cli/target/cluster-resolver.jar]
 * </pre>
 *
 * <p>It ends with one line per size: {@code N=<n> ours <ms> ms, hazelcast <ms> ms (<found>/<n>
 * members), floor <ms> ms, heap <MiB> MiB} (the floor: our calls per resolve times the latency;
 * the heap: our peak occupancy, right before a collection, during the measured resolves of the
 * capped run; a cap too small fails the run instead).
 */
public final class AwsScale {

  private static final String[] TYPES = {"p4d.24xlarge", "c5.xlarge", "m5.large"};

  private AwsScale() {}

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parse(args);
    BenchOptions.Sweep sweep = options.sweep("10,1000,10000", 20, 10);
    int warmups = options.integer("warmups", 10);
    boolean hazelcast = options.get("peer", "hazelcast").equals("hazelcast");
    List<String> jvmOptions = List.of(options.get("jvm-options", "-Xmx128m").trim().split("\\s+"));
    String heapCap = options.get("heap-cap", "-Xmx32m");
    String cliJar = options.get("cli-jar");
    BenchOptions.quietLogs();

    System.out.printf(Locale.ROOT, "%s; latency %d ms per API call;"
        + " each side in a child JVM with %s%n", BenchOptions.machine(),
        sweep.latencyMs(), String.join(" ", jvmOptions));
    System.out.println("| N | side | DescribeInstances / resolve | DescribeInstanceTypes / JVM | members found |"
        + " warm median ms | warm min ms | resolving thread CPU ms / resolve | first resolve ms (cold JVM) |"
        + " heap MiB, peak before GC / max after GC |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    List<String> summary = new ArrayList<>();
    for (int n : sweep.sizes()) {
      try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
        ec2.addTypical(0, n, b -> b.tag("cluster", "bench").instanceType(TYPES[0]));
        for (int i = 0; i < n; i++) {
          String type = TYPES[i % TYPES.length];
          if (!type.equals(TYPES[0])) {
            ec2.update(io.clusterresolver.testkit.SimulatedInstance.typical(i).build().instanceId(),
                b -> b.instanceType(type));
          }
        }
        ec2.addTypical(n, 1, b -> b.tag("cluster", "other"));
        ec2.latency(Duration.ofMillis(sweep.latencyMs()));

        Map<String, String> ours = runChild(ec2, "ours", jvmOptions, n, sweep.reps(), warmups);
        double perResolve = ec2.callCount("DescribeInstances") / Double.parseDouble(ours.get("resolves"));
        row(n, "ours", ours, perResolve, ec2.callCount("DescribeInstanceTypes"));
        double floor = Math.ceil(perResolve) * sweep.latencyMs();
        String peer = "";
        if (hazelcast) {
          ec2.resetCounts();
          Map<String, String> hz = runChild(ec2, "hazelcast", jvmOptions, n, sweep.reps(), warmups);
          row(n, "hazelcast", hz, ec2.callCount("DescribeInstances") / Double.parseDouble(hz.get("resolves")),
              ec2.callCount("DescribeInstanceTypes"));
          peer = String.format(Locale.ROOT, ", hazelcast %s ms (%s/%d members)", hz.get("warm_median_ms"),
              hz.get("found"), n);
        }
        ec2.resetCounts();
        Map<String, String> capped = runChild(ec2, "ours", List.of(heapCap), n, sweep.reps(), warmups);
        row(n, "ours " + heapCap, capped, ec2.callCount("DescribeInstances") / Double.parseDouble(capped.get("resolves")),
            ec2.callCount("DescribeInstanceTypes"));
        for (Map<String, String> m : List.of(ours, capped)) {
          if (!m.get("found").equals(Integer.toString(n))) {
            System.out.println("  WRONG: the aws provider found " + m.get("found") + " members, expected " + n);
          }
        }
        summary.add(String.format(Locale.ROOT, "N=%d ours %s ms%s, floor %.0f ms, heap %s MiB", n,
            ours.get("warm_median_ms"), peer, floor, capped.get("peak_heap_mib")));
      }
    }
    if (cliJar != null) {
      List<Double> times = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        times.add(ChildProcess.wallMillis(
            new ProcessBuilder(javaBin(), "-jar", cliJar, "resolve", "--provider", "aws", "--simulate")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD),
            "cluster-resolver resolve --provider aws --simulate", Duration.ofSeconds(120)));
      }
      Collections.sort(times);
      System.out.printf(Locale.ROOT, "cold CLI `resolve --provider aws --simulate` (java -jar, default JVM options):"
          + " median %.0f ms, min %.0f ms of 5 runs%n", times.get(2), times.get(0));
    }
    summary.forEach(System.out::println);
  }

  private static void row(int n, String side, Map<String, String> m, double perResolve, int typeCalls) {
    System.out.printf(Locale.ROOT, "| %d | %s | %.1f | %d | %s of %d | %s | %s | %s | %s | %s / %s |%n", n, side,
        perResolve, typeCalls, m.get("found"), n, m.get("warm_median_ms"), m.get("warm_min_ms"), m.get("cpu_ms"),
        m.get("first_ms"), m.get("peak_heap_mib"), m.get("live_heap_mib"));
  }

  /** Runs one side's resolves in a fresh JVM with the given options and reads its measurements. */
  private static Map<String, String> runChild(SimulatedEc2 ec2, String side, List<String> jvmOptions, int n, int reps,
      int warmups) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(javaBin());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Client.class.getName(), side,
        Integer.toString(ec2.port()), Integer.toString(reps), Integer.toString(warmups)));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Map<String, String> values = new HashMap<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        int eq = line.indexOf('=');
        if (eq > 0) {
          values.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
    }
    if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0 || !values.containsKey("resolves")) {
      throw new IllegalStateException("The " + side + " JVM failed for N=" + n + ": " + values);
    }
    return values;
  }

  /** Hazelcast's EC2 discovery pointed at the simulation (host-header, region, keys and a tag). */
  private static DiscoveryStrategy hazelcast(int port) {
    Map<String, Comparable> properties = new LinkedHashMap<>();
    properties.put("access-key", "AKIABENCHMARK0000000");
    properties.put("secret-key", "benchmark-secret-key");
    properties.put("region", "us-east-1");
    properties.put("host-header", "http://127.0.0.1:" + port);
    properties.put("tag-key", "cluster");
    properties.put("tag-value", "bench");
    DiscoveryStrategy strategy = new AwsDiscoveryStrategyFactory()
        .newDiscoveryStrategy(null, Logger.getLogger(AwsScale.class), properties);
    strategy.start();
    return strategy;
  }

  /** Hazelcast returns one node per port of its hz-port range: the members are the distinct hosts. */
  private static int discover(DiscoveryStrategy strategy) {
    java.util.Set<String> hosts = new java.util.HashSet<>();
    for (DiscoveryNode node : strategy.discoverNodes()) {
      hosts.add(node.getPrivateAddress().getHost());
    }
    return hosts.size();
  }

  private static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }


  /**
   * One side's JVM ({@code ours} or {@code hazelcast}): one cold resolve, {@code warmups} warm-ups,
   * then {@code reps} measured resolves, each reading every member.
   */
  public static final class Client {
    private Client() {}

    public static void main(String[] args) {
      BenchOptions.quietLogs();
      String side = args[0];
      int port = Integer.parseInt(args[1]);
      int reps = Integer.parseInt(args[2]);
      int warmups = Integer.parseInt(args[3]);
      long start = System.nanoTime();
      java.util.function.IntSupplier resolve;
      if (side.equals("hazelcast")) {
        DiscoveryStrategy strategy = hazelcast(port);
        resolve = () -> discover(strategy);
      } else {
        String endpoint = "http://127.0.0.1:" + port;
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("clusterresolver.aws.region", "us-east-1");
        properties.put("clusterresolver.aws.endpoint", endpoint);
        properties.put("clusterresolver.aws.imds-endpoint", endpoint);
        properties.put("clusterresolver.aws.access-key-id", "AKIABENCHMARK0000000");
        properties.put("clusterresolver.aws.secret-access-key", "benchmark-secret-key");
        properties.put("clusterresolver.aws.tags", "cluster=bench");
        properties.put("clusterresolver.aws.timeout", "5m");
        ClusterResolver resolver = ClusterResolvers.create("aws", properties, Map.of());
        resolve = () -> resolver.clusterSpec().numTasks("worker");
      }
      int found = resolve.getAsInt();
      double first = (System.nanoTime() - start) / 1e6;
      int resolves = 1;
      for (int i = 0; i < warmups; i++) {
        resolve.getAsInt();
        resolves++;
      }
      System.gc();
      // The heap occupancy right before each collection is the true peak; right after, the live set.
      long[] beforeAfter = new long[2];
      java.util.Set<String> heapPools = new java.util.HashSet<>();
      for (java.lang.management.MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == java.lang.management.MemoryType.HEAP) {
          heapPools.add(pool.getName());
        }
      }
      for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        ((javax.management.NotificationEmitter) gc).addNotificationListener((notification, handback) -> {
          if (!com.sun.management.GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
              .equals(notification.getType())) {
            return;
          }
          com.sun.management.GcInfo info = com.sun.management.GarbageCollectionNotificationInfo
              .from((javax.management.openmbean.CompositeData) notification.getUserData()).getGcInfo();
          long before = info.getMemoryUsageBeforeGc().entrySet().stream().filter(e -> heapPools.contains(e.getKey()))
              .mapToLong(e -> e.getValue().getUsed()).sum();
          long after = info.getMemoryUsageAfterGc().entrySet().stream().filter(e -> heapPools.contains(e.getKey()))
              .mapToLong(e -> e.getValue().getUsed()).sum();
          synchronized (beforeAfter) {
            beforeAfter[0] = Math.max(beforeAfter[0], before);
            beforeAfter[1] = Math.max(beforeAfter[1], after);
          }
        }, null, null);
      }
      List<Double> times = new ArrayList<>();
      java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      long cpuStart = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < reps; i++) {
        long t = System.nanoTime();
        found = resolve.getAsInt();
        times.add((System.nanoTime() - t) / 1e6);
        resolves++;
      }
      double cpuPerResolve = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6 / reps;
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      System.gc();
      // What stays once a resolve is done (its result still referenced): the JVM, the client, the last result.
      System.out.printf(Locale.ROOT, "retained_mib=%.1f%n",
          ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0);
      long peak;
      long live;
      synchronized (beforeAfter) {
        peak = Math.max(beforeAfter[0], used);
        live = beforeAfter[1];
      }
      Collections.sort(times);
      System.out.printf(Locale.ROOT, "first_ms=%.0f%n", first);
      System.out.printf(Locale.ROOT, "warm_median_ms=%.0f%n", times.get(times.size() / 2));
      System.out.printf(Locale.ROOT, "warm_min_ms=%.0f%n", times.get(0));
      System.out.printf(Locale.ROOT, "cpu_ms=%.0f%n", cpuPerResolve);
      System.out.printf(Locale.ROOT, "peak_heap_mib=%.1f%n", peak / 1048576.0);
      System.out.printf(Locale.ROOT, "live_heap_mib=%.1f%n", live / 1048576.0);
      System.out.println("found=" + found);
      System.out.println("resolves=" + resolves);
    }
  }
}
