package io.clusterresolver.benchmarks;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedInstance;
import io.clusterresolver.testkit.TokenBucket;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Many processes resolving at once against EC2's request rate limit: {@code hosts × tasks-per-host}
 * resolvers (threads of this JVM, each with its own resolver and SDK client; the tasks of one host
 * share a host directory, as processes of one machine share its {@code /tmp}) start together
 * against a {@link SimulatedEc2} of {@code hosts} instances metered by a {@link TokenBucket}
 * (default: EC2's published bucket for non-mutating actions, 100 tokens refilled at 20 a second,
 * in real time). Each checks its cluster against the fleet's own list.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.Stampede \
 *     --hosts 1250 --tasks-per-host 8 [--strategy none|jitter|host|relay] [--bucket 100,20] [--latency-ms 20] \
 *     [--retry-mode adaptive|standard] [--accelerators true|false] [--log OFF|WARNING]
 * </pre>
 *
 * <p>Strategies (each is only properties a user sets):
 * <ul>
 *   <li>{@code none}: today's defaults, every process lists for itself ({@code shared-listing=false};
 *       standard retries, 5 attempts, 30 s timeout);
 *   <li>{@code jitter}: every process lists for itself, patiently: the SDK's adaptive retry (full
 *       jitter, client-side rate limit after throttling), 20 attempts, a 10 min timeout;
 *   <li>{@code host}: processes of a host share one listing ({@code shared-listing}, the
 *       default) and accept one begun up to 30 s before they started ({@code shared-listing-max-age},
 *       {@code --max-age}), with the patient retries of {@code jitter};
 *   <li>{@code relay} (default): {@code host}, and every host asks one relay ({@code relay}, on a
 *       loopback port) that task 0 of host 0 serves, as the process of the chief's host that binds it
 *       would ({@code relay-serve=false} for every other task: in separate processes their bind would
 *       fail); they accept a relay listing begun up to {@code --max-age} before they asked
 *       ({@code relay-max-age}) and wait for the relay up to 5 minutes ({@code relay-wait}).
 * </ul>
 * It ends with {@code stampede: <k> of <K> resolved, last at <s> s, <c> listing calls, <t> throttled,
 * <f> failed} (listing calls: DescribeInstances answered; throttled: calls of any action refused).
 */
public final class Stampede {

  private Stampede() {}

  /** The {@code host} strategy's properties. */
  private static void patientHostSharing(Map<String, String> common, Map<String, String> options, String retryMode) {
    // A process that starts after its host's listing finished (start-up skew) may still use it.
    common.put("clusterresolver.aws.shared-listing-max-age", options.getOrDefault("max-age", "30s"));
    common.put("clusterresolver.aws.retry-mode", retryMode);
    common.put("clusterresolver.aws.max-attempts", "20");
    common.put("clusterresolver.aws.timeout", "10m");
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int hosts = Integer.parseInt(options.getOrDefault("hosts", "1250"));
    int perHost = Integer.parseInt(options.getOrDefault("tasks-per-host", "8"));
    String strategy = options.getOrDefault("strategy", "relay");
    String[] bucket = options.getOrDefault("bucket", "100,20").split(",");
    int latencyMs = Integer.parseInt(options.getOrDefault("latency-ms", "20"));
    String retryMode = options.getOrDefault("retry-mode", "adaptive");
    String accelerators = options.getOrDefault("accelerators", "true");
    int k = hosts * perHost;
    // --log WARNING shows why hosts listed for themselves (the relay's fallbacks); off by default.
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.parse(options.getOrDefault("log", "OFF")));

    Map<String, String> common = new LinkedHashMap<>();
    if (!accelerators.equals("true")) {
      common.put("clusterresolver.aws.accelerators", accelerators); // no DescribeInstanceTypes
    }
    switch (strategy) {
      case "none":
        common.put("clusterresolver.aws.shared-listing", "false");
        break;
      case "jitter":
        common.put("clusterresolver.aws.shared-listing", "false");
        common.put("clusterresolver.aws.retry-mode", retryMode);
        common.put("clusterresolver.aws.max-attempts", "20");
        common.put("clusterresolver.aws.timeout", "10m");
        break;
      case "relay":
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
          common.put("clusterresolver.aws.relay", "127.0.0.1:" + free.getLocalPort());
        }
        common.put("clusterresolver.aws.relay-max-age", options.getOrDefault("max-age", "30s"));
        common.put("clusterresolver.aws.relay-wait", "5m");
        patientHostSharing(common, options, retryMode); // every host also shares its listing among its processes
        break;
      case "host":
        patientHostSharing(common, options, retryMode);
        break;
      default:
        throw new IllegalArgumentException("--strategy: none, jitter, host or relay, not " + strategy);
    }
    System.out.printf(Locale.ROOT, "machine: %d cores, Java %s, load average %.1f; %d hosts x %d tasks = %d resolvers;"
        + " bucket %s tokens + %s/s; latency %d ms; strategy %s %s%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        hosts, perHost, k, bucket[0], bucket[1], latencyMs, strategy, common);

    Path root = Files.createTempDirectory("stampede");
    try (SimulatedEc2 ec2 = SimulatedEc2.start()) {
      ec2.addTypical(0, hosts, b -> b.tag("cluster", "stampede").instanceType("m5.large"));
      ec2.addTypical(hosts, 3, b -> b.tag("cluster", "other"));
      ec2.latency(Duration.ofMillis(latencyMs));
      List<String> expected = new ArrayList<>();
      for (SimulatedInstance i : ec2.instances()) {
        if ("stampede".equals(i.tags().get("cluster"))) {
          expected.add(i.privateIpv4().orElseThrow() + ":8888");
        }
      }

      // The processes: created before the start (a process's own start-up is not what is measured).
      List<ClusterResolver> resolvers = new ArrayList<>(k);
      for (int h = 0; h < hosts; h++) {
        Path hostDir = root.resolve("host-" + h);
        for (int t = 0; t < perHost; t++) {
          Map<String, String> p = new LinkedHashMap<>(common);
          p.put("clusterresolver.aws.region", "us-east-1");
          // Its own endpoint path per process (per host when they share listings), so no process
          // gets instance types from another one's JVM-wide cache, as separate processes would not.
          // With the relay, one endpoint: the relay answers only hosts that ask its own query.
          p.put("clusterresolver.aws.endpoint", strategy.equals("relay") ? ec2.endpoint().toString()
              : ec2.endpoint() + "/h" + h + (strategy.equals("host") ? "" : "/t" + t));
          if (strategy.equals("relay")) {
            p.put("clusterresolver.aws.relay-serve", Boolean.toString(h == 0 && t == 0));
          }
          p.put("clusterresolver.aws.access-key-id", "AKIASTAMPEDE00000000");
          p.put("clusterresolver.aws.secret-access-key", "stampede-secret-key");
          p.put("clusterresolver.aws.tags", "cluster=stampede");
          p.put("clusterresolver.aws.shared-listing-dir", hostDir.toString());
          resolvers.add(ClusterResolvers.create("aws", p, Map.of("AWS_EC2_METADATA_DISABLED", "true")));
        }
      }
      ec2.rateLimit(TokenBucket.of(Double.parseDouble(bucket[0]), Double.parseDouble(bucket[1])));
      ec2.resetCounts();

      CountDownLatch go = new CountDownLatch(1);
      CountDownLatch done = new CountDownLatch(k);
      AtomicInteger resolved = new AtomicInteger();
      AtomicInteger failed = new AtomicInteger();
      AtomicLong last = new AtomicLong();
      Map<String, AtomicInteger> failures = new java.util.concurrent.ConcurrentHashMap<>();
      long[] start = new long[1];
      List<Thread> threads = new ArrayList<>(k);
      for (ClusterResolver resolver : resolvers) {
        Thread thread = new Thread(null, () -> {
          try {
            go.await();
            ClusterSpec spec = resolver.clusterSpec();
            if (spec.jobTasks("worker").equals(expected)) {
              resolved.incrementAndGet();
              last.accumulateAndGet(System.nanoTime() - start[0], Math::max);
            } else {
              failed.incrementAndGet();
              failures.computeIfAbsent("a wrong cluster", x -> new AtomicInteger()).incrementAndGet();
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (RuntimeException e) {
            failed.incrementAndGet();
            String reason = String.valueOf(e.getMessage()).replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}", "<id>")
                .replaceAll("\\d+ attempts", "N attempts");
            failures.computeIfAbsent(reason.length() > 160 ? reason.substring(0, 160) : reason,
                x -> new AtomicInteger()).incrementAndGet();
          } finally {
            done.countDown();
          }
        }, "task", 256 * 1024);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
      }
      start[0] = System.nanoTime();
      go.countDown();
      // Bounded: the longest timeout of a strategy (10 min) and a margin.
      boolean all = done.await(15, TimeUnit.MINUTES);
      double lastS = last.get() / 1e9;
      int listings = ec2.callCount("DescribeInstances") - ec2.throttledCount("DescribeInstances");
      failures.entrySet().stream().sorted(Map.Entry.comparingByValue(Comparator.comparingInt(AtomicInteger::get).reversed()))
          .limit(5).forEach(e -> System.out.println("  " + e.getValue() + " x " + e.getKey()));
      System.out.printf(Locale.ROOT, "calls by action: %s; throttled: %d DescribeInstances, %d DescribeInstanceTypes;"
          + " wall %.1f s%s%n", ec2.callCounts(), ec2.throttledCount("DescribeInstances"),
          ec2.throttledCount("DescribeInstanceTypes"), (System.nanoTime() - start[0]) / 1e9,
          all ? "" : "; NOT ALL FINISHED within 15 min");
      System.out.printf(Locale.ROOT, "stampede: %d of %d resolved, last at %.1f s, %d listing calls, %d throttled, %d failed%n",
          resolved.get(), k, lastS, listings, ec2.throttledCount(), failed.get() + (int) done.getCount());
    } finally {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
          Files.deleteIfExists(f);
        }
      } catch (IOException ignored) {
        // a temporary directory left behind
      }
    }
  }
}
