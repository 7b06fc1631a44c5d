package io.clusterresolver.benchmarks;

import com.hazelcast.aws.AwsDiscoveryStrategyFactory;
import com.hazelcast.logging.Logger;
import com.hazelcast.spi.discovery.DiscoveryNode;
import com.hazelcast.spi.discovery.DiscoveryStrategy;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.testkit.SimulatedEc2;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The aws provider at scale against {@link SimulatedEc2} with an injected per-call latency: API
 * calls per resolve, warm wall time, peak heap of the resolving JVM (a child process with
 * {@code -Xmx64m}, so the simulation's own memory is not counted), the cold {@code resolve
 * --simulate} wall time of the CLI, and Hazelcast's EC2 discovery on the same fleet.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.AwsScale \
 *     [--sizes 10,1000,10000] [--latency-ms 20] [--reps 10] [--warmups 10] [--cli-jar resolver-cli/target/cluster-resolver.jar]
 * </pre>
 */
public final class AwsScale {

  private static final String[] TYPES = {"p4d.24xlarge", "c5.xlarge", "m5.large"};

  private AwsScale() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = options(args);
    int[] sizes = Arrays.stream(options.getOrDefault("sizes", "10,1000,10000").split(","))
        .mapToInt(Integer::parseInt).toArray();
    int latencyMs = Integer.parseInt(options.getOrDefault("latency-ms", "20"));
    int reps = Integer.parseInt(options.getOrDefault("reps", "10"));
    int warmups = Integer.parseInt(options.getOrDefault("warmups", "10"));
    String cliJar = options.get("cli-jar");
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);

    System.out.printf(Locale.ROOT, "machine: %d cores, Java %s, load average %.1f; latency %d ms per API call%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), latencyMs);
    System.out.println("| N | DescribeInstances / resolve | DescribeInstanceTypes / JVM | warm median ms | warm min ms |"
        + " goal ms | resolving thread CPU ms / resolve | first resolve ms (cold JVM) | heap MiB, peak before GC / live after GC (-Xmx64m) | Hazelcast members | Hazelcast calls |"
        + " Hazelcast warm median ms |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (int n : sizes) {
      try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
        ec2.addTypical(0, n, b -> b.tag("cluster", "bench").instanceType(TYPES[0]));
        for (int i = 0; i < n; i++) {
          String type = TYPES[i % TYPES.length];
          if (!type.equals(TYPES[0])) {
            int index = i;
            ec2.update(io.clusterresolver.testkit.SimulatedInstance.typical(index).build().instanceId(),
                b -> b.instanceType(type));
          }
        }
        ec2.addTypical(n, 1, b -> b.tag("cluster", "other"));
        ec2.latency(Duration.ofMillis(latencyMs));

        Map<String, String> child = runChild(ec2, n, reps, warmups);
        int resolves = Integer.parseInt(child.get("resolves"));
        double perResolve = ec2.callCount("DescribeInstances") / (double) resolves;
        int typeCalls = ec2.callCount("DescribeInstanceTypes");
        double goal = 1.3 * Math.ceil(perResolve) * latencyMs + 100;

        ec2.resetCounts();
        Hazelcast hz = hazelcast(ec2, reps, warmups);
        System.out.printf(Locale.ROOT, "| %d | %.1f | %d | %s | %s | %.0f | %s | %s | %s | %d of %d | %.1f / discovery | %s |%n",
            n, perResolve, typeCalls, child.get("warm_median_ms"), child.get("warm_min_ms"), goal,
            child.get("cpu_ms"), child.get("first_ms"), child.get("peak_heap_mib"), hz.members, n, hz.callsPerDiscovery, hz.medianMs);
        if (!child.get("tasks").equals(Integer.toString(n))) {
          System.out.println("  WRONG: the aws provider found " + child.get("tasks") + " tasks, expected " + n);
        }
      }
    }
    if (cliJar != null) {
      List<Double> times = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        long start = System.nanoTime();
        Process p = new ProcessBuilder(javaBin(), "-jar", cliJar, "resolve", "--provider", "aws", "--simulate")
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
          throw new IllegalStateException("cluster-resolver resolve --simulate failed");
        }
        times.add((System.nanoTime() - start) / 1e6);
      }
      Collections.sort(times);
      System.out.printf(Locale.ROOT, "cold CLI `resolve --provider aws --simulate` (java -jar, default JVM options):"
          + " median %.0f ms, min %.0f ms of 5 runs%n", times.get(2), times.get(0));
    }
  }

  /** Runs the resolves in a fresh JVM with -Xmx64m and reads its measurements. */
  private static Map<String, String> runChild(SimulatedEc2 ec2, int n, int reps, int warmups) throws Exception {
    Process p = new ProcessBuilder(javaBin(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
        Client.class.getName(), ec2.endpoint().toString(), Integer.toString(reps), Integer.toString(warmups))
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
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
      throw new IllegalStateException("The resolving JVM failed for N=" + n + ": " + values);
    }
    return values;
  }

  private static final class Hazelcast {
    int members;
    double callsPerDiscovery;
    String medianMs;
  }

  /** Hazelcast's EC2 discovery pointed at the same simulation (host-header, region, keys and a tag). */
  private static Hazelcast hazelcast(SimulatedEc2 ec2, int reps, int warmups) {
    Map<String, Comparable> properties = new LinkedHashMap<>();
    properties.put("access-key", "AKIABENCHMARK0000000");
    properties.put("secret-key", "benchmark-secret-key");
    properties.put("region", "us-east-1");
    properties.put("host-header", "http://127.0.0.1:" + ec2.port());
    properties.put("tag-key", "cluster");
    properties.put("tag-value", "bench");
    DiscoveryStrategy strategy = new AwsDiscoveryStrategyFactory()
        .newDiscoveryStrategy(null, Logger.getLogger(AwsScale.class), properties);
    strategy.start();
    Hazelcast result = new Hazelcast();
    List<Double> times = new ArrayList<>();
    int discoveries = 0;
    for (int i = 0; i < reps + warmups; i++) {
      long start = System.nanoTime();
      // Hazelcast returns one node per port of its hz-port range: count distinct hosts.
      java.util.Set<String> hosts = new java.util.HashSet<>();
      for (DiscoveryNode node : strategy.discoverNodes()) {
        hosts.add(node.getPrivateAddress().getHost());
      }
      int found = hosts.size();
      discoveries++;
      if (i >= warmups) {
        times.add((System.nanoTime() - start) / 1e6);
      }
      result.members = found;
    }
    strategy.destroy();
    Collections.sort(times);
    result.medianMs = String.format(Locale.ROOT, "%.0f", times.get(times.size() / 2));
    result.callsPerDiscovery = ec2.callCount("DescribeInstances") / (double) discoveries;
    return result;
  }

  private static String javaBin() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    return options;
  }

  /** The resolving JVM: one cold resolve, {@code warmups} warm-ups, then {@code reps} measured resolves. */
  public static final class Client {
    private Client() {}

    public static void main(String[] args) {
      java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
      String endpoint = args[0];
      int reps = Integer.parseInt(args[1]);
      Map<String, String> properties = new LinkedHashMap<>();
      properties.put("clusterresolver.aws.region", "us-east-1");
      properties.put("clusterresolver.aws.endpoint", endpoint);
      properties.put("clusterresolver.aws.imds-endpoint", endpoint);
      properties.put("clusterresolver.aws.access-key-id", "AKIABENCHMARK0000000");
      properties.put("clusterresolver.aws.secret-access-key", "benchmark-secret-key");
      properties.put("clusterresolver.aws.tags", "cluster=bench");
      properties.put("clusterresolver.aws.timeout", "5m");
      long start = System.nanoTime();
      ClusterResolver resolver = ClusterResolvers.create("aws", properties, Map.of());
      ClusterSpec spec = resolver.clusterSpec();
      double first = (System.nanoTime() - start) / 1e6;
      int resolves = 1;
      int warmups = Integer.parseInt(args[2]);
      for (int i = 0; i < warmups; i++) {
        resolver.clusterSpec();
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
        spec = resolver.clusterSpec();
        times.add((System.nanoTime() - t) / 1e6);
        resolves++;
      }
      double cpuPerResolve = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6 / reps;
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
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
      System.out.printf(Locale.ROOT, "peak_heap_mib=%.1f / %.1f%n", peak / 1048576.0, live / 1048576.0);
      System.out.println("tasks=" + spec.numTasks("worker"));
      System.out.println("resolves=" + resolves);
    }
  }
}
