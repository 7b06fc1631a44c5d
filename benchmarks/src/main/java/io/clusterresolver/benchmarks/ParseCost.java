package io.clusterresolver.benchmarks;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.SimulatedAzure;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedGce;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * The client-side CPU of one warm resolve per listed item, for each cloud provider against its
 * simulation with no injected latency: the resolving thread's CPU time (its own parse, the SDK's
 * pipeline and parse, the layout) over the members found, median of {@code --reps} after
 * {@code --warmups}. With {@code --jfr DIR} the measured resolves of each cloud are recorded
 * ({@code jdk.ExecutionSample} every 2 ms, {@code DIR/<cloud>.jfr}) to split that CPU between the
 * SDK's parse and the rest.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.ParseCost \
 *     [--clouds aws,gce,azure,kubernetes] [--n 5000] [--reps 20] [--warmups 10] [--jfr DIR]
 * </pre>
 *
 * <p>It prints one line per cloud: {@code <cloud> N=<n>: <found> members, resolving thread <us> µs
 * CPU per item (median), whole process ... <us> µs per item (mean), wall <ms> ms per resolve
 * (median)}. The SDKs of Compute Engine, Azure and Kubernetes read answers on their own threads,
 * and the simulation runs in this process: the JFR samples split the process's CPU among them.
 */
public final class ParseCost {

  private ParseCost() {}

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parse(args);
    List<String> clouds = Arrays.asList(options.get("clouds", "aws,gce,azure,kubernetes").split(","));
    int n = options.integer("n", 5000);
    int reps = options.integer("reps", 20);
    int warmups = options.integer("warmups", 10);
    jfrDir = options.has("jfr") ? Path.of(options.get("jfr")) : null;
    BenchOptions.quietLogs();
    System.out.printf(Locale.ROOT, "%s; no injected latency%n",
        BenchOptions.machine());
    for (String cloud : clouds) {
      switch (cloud) {
        case "aws":
          try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
            ec2.addTypical(0, n, b -> b.tag("cluster", "bench"));
            measure(cloud, n, reps, warmups, properties(cloud, ec2.providerProperties(), "tags", "cluster=bench"));
          }
          break;
        case "gce":
          try (SimulatedGce gce = SimulatedGce.start("bench-project")) {
            gce.addTypical(0, n, b -> b.zone("us-east1-b").label("cluster", "bench"));
            measure(cloud, n, reps, warmups, properties(cloud, gce.providerProperties(), "labels", "cluster=bench"));
          }
          break;
        case "azure":
          try (SimulatedAzure azure = SimulatedAzure.start()) {
            azure.trustStoreProperties().forEach(System::setProperty);
            azure.addTypical(0, n, b -> b.resourceGroup("bench-rg").tag("cluster", "bench"));
            measure(cloud, n, reps, warmups,
                properties(cloud, azure.providerProperties("bench-rg"), "tags", "cluster=bench"));
          }
          break;
        case "kubernetes":
          try (SimulatedKubernetes k = SimulatedKubernetes.start()) {
            String token = "bench-token";
            k.acceptTokens(Map.of(token, "system:serviceaccount:ml:trainer"));
            List<SimulatedPod> pods = new ArrayList<>();
            for (int i = 0; i < n; i++) {
              pods.add(SimulatedPod.builder("ml", "trainer-" + i).statefulSet("trainer", i).label("app", "trainer")
                  .podIps("10." + (8 + i / 65536) + "." + (i / 256 % 256) + "." + (i % 256)).hostIp("192.168.1.1")
                  .port("grpc", 2222).limit("nvidia.com/gpu", "8").ready(true).build());
            }
            k.addAll(pods);
            Path tokenFile = Files.createTempFile("parse-cost", ".token");
            Files.writeString(tokenFile, token, StandardCharsets.UTF_8);
            Map<String, String> p = properties(cloud, Map.of(), "selector", "app=trainer");
            p.put("clusterresolver.kubernetes.endpoint", k.endpoint().toString());
            p.put("clusterresolver.kubernetes.token-file", tokenFile.toString());
            p.put("clusterresolver.kubernetes.namespace", "ml");
            p.put("clusterresolver.kubernetes.port-name", "grpc");
            try {
              measure(cloud, n, reps, warmups, p);
            } finally {
              Files.deleteIfExists(tokenFile);
            }
          }
          break;
        default:
          throw new IllegalArgumentException("unknown cloud " + cloud);
      }
    }
    System.exit(0); // some SDKs leave non-daemon threads behind
  }

  /**
   * CPU nanoseconds of each live thread that is not the simulation's: WireMock's Jetty threads
   * ({@code qtp...}), its response scheduler ({@code pool-N-thread-M}) and JFR's are left out; GC and JIT
   * threads are not Java threads and are not counted either.
   */
  private static Map<Long, Long> clientThreadCpu(ThreadMXBean threads) {
    Map<Long, Long> cpu = new HashMap<>();
    for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info == null || info.getThreadName().startsWith("qtp") || info.getThreadName().startsWith("JFR")
          || info.getThreadName().matches("pool-\\d+-thread-\\d+")) {
        continue;
      }
      long t = threads.getThreadCpuTime(info.getThreadId());
      if (t >= 0) {
        cpu.put(info.getThreadId(), t);
      }
    }
    return cpu;
  }

  /** Where to write a JFR recording of each cloud's measured resolves ({@code --jfr DIR}), or null. */
  private static Path jfrDir;

  /** A simulation's own properties, the bench's selection and a timeout no listing of {@code n} members reaches. */
  private static Map<String, String> properties(String cloud, Map<String, String> simulation, String selector,
      String value) {
    Map<String, String> p = new LinkedHashMap<>(simulation);
    p.put("clusterresolver." + cloud + "." + selector, value);
    p.put("clusterresolver." + cloud + ".timeout", "5m");
    return p;
  }

  private static void measure(String cloud, int n, int reps, int warmups, Map<String, String> properties)
      throws Exception {
    ClusterResolver resolver = ClusterResolvers.create(cloud, properties, Map.of());
    IntSupplier resolve = () -> resolver.clusterSpec().numTasks("worker");
    int found = resolve.getAsInt();
    for (int i = 0; i < warmups; i++) {
      found = resolve.getAsInt();
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    List<Double> cpu = new ArrayList<>();
    List<Double> wall = new ArrayList<>();
    jdk.jfr.Recording recording = null;
    if (jfrDir != null) {
      recording = new jdk.jfr.Recording();
      recording.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(2));
      recording.start();
    }
    long processStart = os.getProcessCpuTime();
    Map<Long, Long> clientStart = clientThreadCpu(threads);
    for (int i = 0; i < reps; i++) {
      long c = threads.getCurrentThreadCpuTime();
      long t = System.nanoTime();
      found = resolve.getAsInt();
      wall.add((System.nanoTime() - t) / 1e6);
      cpu.add((threads.getCurrentThreadCpuTime() - c) / 1e3);
    }
    double process = (os.getProcessCpuTime() - processStart) / 1e3 / reps;
    long clientNanos = 0;
    for (Map.Entry<Long, Long> e : clientThreadCpu(threads).entrySet()) {
      clientNanos += e.getValue() - clientStart.getOrDefault(e.getKey(), 0L);
    }
    double client = clientNanos / 1e3 / reps;
    if (recording != null) {
      recording.stop();
      recording.dump(jfrDir.resolve(cloud + ".jfr"));
      recording.close();
    }
    Collections.sort(cpu);
    Collections.sort(wall);
    System.out.printf(Locale.ROOT, "%s N=%d: %d members, resolving thread %.1f µs CPU per item (median), client"
        + " threads %.1f µs per item (mean), whole process %.1f µs per item (mean), wall %.0f ms per resolve"
        + " (median)%n", cloud, n, found, cpu.get(reps / 2) / Math.max(1, found), client / Math.max(1, found),
        process / Math.max(1, found), wall.get(reps / 2));
  }
}
