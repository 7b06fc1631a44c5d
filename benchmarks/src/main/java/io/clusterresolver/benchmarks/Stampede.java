package io.clusterresolver.benchmarks;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.testkit.Loopback;
import io.clusterresolver.testkit.SimulatedApi;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedGce;
import io.clusterresolver.testkit.SimulatedGceInstance;
import io.clusterresolver.testkit.SimulatedInstance;
import io.clusterresolver.testkit.TokenBucket;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
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
 * Many processes resolving at once against a cloud's request rate limit: {@code hosts × tasks-per-host}
 * resolvers (threads of this JVM, each with its own resolver and SDK client; the tasks of one host
 * share a host directory, as processes of one machine share its {@code /tmp}) start together
 * against a simulated cloud of {@code hosts} instances metered by a {@link TokenBucket}, in real
 * time. Each checks its cluster against the fleet's own list.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.Stampede \
 *     --hosts 1250 --tasks-per-host 8 [--cloud aws|gce] [--strategy none|jitter|host|relay] \
 *     [--bucket CAPACITY,PER_SECOND] [--latency-ms 20] [--retry-mode adaptive|standard] \
 *     [--accelerators true|false] [--relay-insecure true|false] [--log OFF|WARNING]
 * </pre>
 *
 * <p>Clouds and their default buckets: {@code aws} (EC2's published bucket for non-mutating
 * actions, 100 tokens refilled at 20 a second; a throttled call gets {@code RequestLimitExceeded}
 * 503) and {@code gce} (Compute Engine's list-requests quota, 1,500 a minute per project, as a bucket
 * of 1,500 refilled at 25 a second; a throttled call gets 403 {@code rateLimitExceeded}).
 *
 * <p>Strategies (each is only properties a user sets):
 * <ul>
 *   <li>{@code none}: today's defaults, every process lists for itself ({@code shared-listing=false};
 *       on aws standard retries, 5 attempts, 30 s timeout);
 *   <li>{@code jitter}: every process lists for itself, patiently: a 10 min timeout (on aws the SDK's
 *       adaptive retry, full jitter and a client-side rate limit after throttling, 20 attempts);
 *   <li>{@code host}: processes of a host share one listing ({@code shared-listing}, the default)
 *       and accept one begun up to 30 s before they started ({@code shared-listing-max-age},
 *       {@code --max-age}), with the patience of {@code jitter};
 *   <li>{@code relay} (default): {@code host}, and every host asks one relay ({@code relay}, on a
 *       loopback port) that task 0 of host 0 serves, as the process of the chief's host that binds it
 *       would ({@code relay-serve=false} for every other task: in separate processes their bind would
 *       fail); they accept a relay listing begun up to {@code --max-age} before they asked
 *       ({@code relay-max-age}) and wait for the relay up to 5 minutes ({@code relay-wait}).
 * </ul>
 * It ends with {@code stampede: <k> of <K> resolved, last at <s> s, <c> listing calls, <t> throttled,
 * <f> failed} (listing calls: on aws the {@code DescribeInstances} calls answered, on gce every
 * {@code instances.aggregatedList} call, throttled or not; throttled: calls of any action refused).
 */
public final class Stampede {

  private Stampede() {}

  /** A simulated cloud for the stampede: its fleet, its meter and what each process sets. */
  private interface Fleet extends AutoCloseable {
    /** The provider name, which is also the property prefix. */
    String provider();

    /** The cluster the fleet itself says (every member's address and the first port, in order). */
    List<String> expected();

    /** What process {@code task} of host {@code host} sets besides the strategy. */
    Map<String, String> properties(int host, int task, String strategy);

    /** The environment every process has. */
    Map<String, String> environment();

    void meter(TokenBucket bucket);

    int listingCalls();

    long throttled();

    String calls();

    @Override
    void close();
  }

  /** A fleet on one simulated API: its provider, latency, meter and counts. */
  private abstract static class SimulatedFleet<S extends SimulatedApi<S, ?>> implements Fleet {
    private final String provider;
    final S sim;

    SimulatedFleet(String provider, S sim, int latencyMs) {
      this.provider = provider;
      this.sim = sim.latency(Duration.ofMillis(latencyMs));
    }

    @Override
    public final String provider() {
      return provider;
    }

    @Override
    public final void meter(TokenBucket bucket) {
      sim.rateLimit(bucket).resetCounts();
    }

    /** Calls the meter refused since it was set. */
    @Override
    public final long throttled() {
      return sim.throttledCount();
    }

    @Override
    public final void close() {
      sim.close();
    }
  }

  /** EC2: {@code hosts} running {@code m5.large} instances of the job, plus 3 of another cluster. */
  private static final class Ec2Fleet extends SimulatedFleet<SimulatedEc2> {
    private final SimulatedEc2 ec2 = sim;

    Ec2Fleet(int hosts, int latencyMs) {
      super("aws", SimulatedEc2.start(), latencyMs);
      ec2.addTypical(0, hosts, b -> b.tag("cluster", "stampede").instanceType("m5.large"));
      ec2.addTypical(hosts, 3, b -> b.tag("cluster", "other"));
    }

    @Override
    public List<String> expected() {
      List<String> expected = new ArrayList<>();
      for (SimulatedInstance i : ec2.instances()) {
        if ("stampede".equals(i.tags().get("cluster"))) {
          expected.add(i.privateIpv4().orElseThrow() + ":8888");
        }
      }
      return expected;
    }

    @Override
    public Map<String, String> properties(int host, int task, String strategy) {
      Map<String, String> p = new LinkedHashMap<>();
      p.put("clusterresolver.aws.region", "us-east-1");
      // Its own endpoint path per process (per host when they share listings), so no process
      // gets instance types from another one's JVM-wide cache, as separate processes would not.
      // With the relay, one endpoint: the relay answers only hosts that ask its own query.
      p.put("clusterresolver.aws.endpoint", strategy.equals("relay") ? ec2.endpoint().toString()
          : ec2.endpoint() + "/h" + host + (strategy.equals("host") ? "" : "/t" + task));
      p.put("clusterresolver.aws.access-key-id", "AKIASTAMPEDE00000000");
      p.put("clusterresolver.aws.secret-access-key", "stampede-secret-key");
      p.put("clusterresolver.aws.tags", "cluster=stampede");
      return p;
    }

    @Override
    public Map<String, String> environment() {
      return Map.of("AWS_EC2_METADATA_DISABLED", "true");
    }

    @Override
    public int listingCalls() {
      return ec2.callCount("DescribeInstances") - ec2.throttledCount("DescribeInstances");
    }

    @Override
    public String calls() {
      return ec2.callCounts() + "; throttled: " + ec2.throttledCount("DescribeInstances") + " DescribeInstances, "
          + ec2.throttledCount("DescribeInstanceTypes") + " DescribeInstanceTypes";
    }
  }

  /**
   * Compute Engine: {@code hosts} instances labelled {@code cluster=stampede} plus 3 of another
   * cluster, listed by {@code instances.aggregatedList} (500 a page). Machine types are cached per
   * JVM by the provider, so every process after the first finds them cached: the counts below are
   * the listing's.
   */
  private static final class GceFleet extends SimulatedFleet<SimulatedGce> {
    private final SimulatedGce gce = sim;

    GceFleet(int hosts, int latencyMs) {
      super("gce", SimulatedGce.start(), latencyMs);
      gce.addTypical(0, hosts, b -> b.label("cluster", "stampede"));
      gce.addTypical(hosts, 3, b -> b.label("cluster", "other"));
    }

    @Override
    public List<String> expected() {
      return gce.instances().stream().filter(i -> "stampede".equals(i.labels().get("cluster")))
          .sorted(Comparator.comparing((SimulatedGceInstance i) -> i.creationTimestamp().toInstant())
              .thenComparing(i -> new BigInteger(i.idText())))
          .map(i -> i.networkIp().orElseThrow() + ":8888").collect(Collectors.toList());
    }

    @Override
    public Map<String, String> properties(int host, int task, String strategy) {
      Map<String, String> p = new LinkedHashMap<>(gce.providerProperties());
      p.remove("clusterresolver.gce.metadata-endpoint"); // off Compute Engine: no identity to ask
      p.put("clusterresolver.gce.labels", "cluster=stampede");
      return p;
    }

    @Override
    public Map<String, String> environment() {
      return Map.of();
    }

    @Override
    public int listingCalls() {
      return gce.callCount("instances.aggregatedList");
    }

    @Override
    public String calls() {
      return gce.callCounts() + "; throttled: " + throttled();
    }
  }

  /** The properties of a strategy, in {@code provider}'s namespace. */
  private static Map<String, String> strategy(String provider, String strategy, BenchOptions options,
      String retryMode) {
    String k = "clusterresolver." + provider + ".";
    boolean aws = provider.equals("aws");
    Map<String, String> p = new LinkedHashMap<>();
    switch (strategy) {
      case "none":
        p.put(k + "shared-listing", "false");
        break;
      case "jitter":
        p.put(k + "shared-listing", "false");
        p.put(k + "timeout", "10m");
        break;
      case "relay":
        p.put(k + "relay", Loopback.freeAddress());
        if (Boolean.parseBoolean(options.get("relay-insecure", "false"))) {
          p.put(k + "relay-insecure", "true"); // to measure what the secret costs (sealing, encryption)
        } else {
          p.put(k + "relay-secret", "stampede-relay-secret-0123456789abcdef"); // every process of the job shares it
        }
        p.put(k + "relay-max-age", options.get("max-age", "30s"));
        p.put(k + "relay-wait", "5m");
        // and every host shares its listing among its processes:
        p.put(k + "shared-listing-max-age", options.get("max-age", "30s"));
        p.put(k + "timeout", "10m");
        break;
      case "host":
        // A process that starts after its host's listing finished (start-up skew) may still use it.
        p.put(k + "shared-listing-max-age", options.get("max-age", "30s"));
        p.put(k + "timeout", "10m");
        break;
      default:
        throw new IllegalArgumentException("--strategy: none, jitter, host or relay, not " + strategy);
    }
    if (aws && !strategy.equals("none")) {
      p.put(k + "retry-mode", retryMode);
      p.put(k + "max-attempts", "20");
    }
    return p;
  }

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parse(args);
    int hosts = options.integer("hosts", 1250);
    int perHost = options.integer("tasks-per-host", 8);
    String cloud = options.get("cloud", "aws");
    String strategy = options.get("strategy", "relay");
    String[] bucket = options.get("bucket", cloud.equals("gce") ? "1500,25" : "100,20").split(",");
    int latencyMs = options.integer("latency-ms", 20);
    String retryMode = options.get("retry-mode", "adaptive");
    String accelerators = options.get("accelerators", "true");
    int k = hosts * perHost;
    // --log WARNING shows why hosts listed for themselves (the relay's fallbacks); off by default.
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.parse(options.get("log", "OFF")));

    Path root = Files.createTempDirectory("stampede");
    try (Fleet fleet = switch (cloud) {
      case "aws" -> new Ec2Fleet(hosts, latencyMs);
      case "gce" -> new GceFleet(hosts, latencyMs);
      default -> throw new IllegalArgumentException("--cloud: aws or gce, not " + cloud);
    }) {
      Map<String, String> common = strategy(fleet.provider(), strategy, options, retryMode);
      if (!accelerators.equals("true") && cloud.equals("aws")) {
        common.put("clusterresolver.aws.accelerators", accelerators); // no DescribeInstanceTypes
      }
      System.out.printf(Locale.ROOT, "%s; %d hosts x %d tasks = %d resolvers;"
          + " %s, bucket %s tokens + %s/s; latency %d ms; strategy %s %s%n", BenchOptions.machine(),
          hosts, perHost, k, cloud, bucket[0], bucket[1], latencyMs, strategy,
          common.entrySet().stream().map(e -> e.getKey() + "=" + (e.getKey().contains("secret") ? "****" : e.getValue()))
              .collect(Collectors.joining(", ", "{", "}")));
      List<String> expected = fleet.expected();

      // The processes: created before the start (a process's own start-up is not what is measured).
      List<ClusterResolver> resolvers = new ArrayList<>(k);
      for (int h = 0; h < hosts; h++) {
        for (int t = 0; t < perHost; t++) {
          Map<String, String> p = new LinkedHashMap<>(common);
          p.putAll(fleet.properties(h, t, strategy));
          if (strategy.equals("relay")) {
            p.put("clusterresolver." + fleet.provider() + ".relay-serve", Boolean.toString(h == 0 && t == 0));
          }
          p.put("clusterresolver." + fleet.provider() + ".shared-listing-dir", root.resolve("host-" + h).toString());
          resolvers.add(ClusterResolvers.create(fleet.provider(), p, fleet.environment()));
        }
      }
      fleet.meter(TokenBucket.of(Double.parseDouble(bucket[0]), Double.parseDouble(bucket[1])));

      CountDownLatch go = new CountDownLatch(1);
      CountDownLatch done = new CountDownLatch(k);
      AtomicInteger resolved = new AtomicInteger();
      AtomicInteger failed = new AtomicInteger();
      AtomicLong last = new AtomicLong();
      Map<String, AtomicInteger> failures = new java.util.concurrent.ConcurrentHashMap<>();
      long[] start = new long[1];
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
        thread.start();
      }
      start[0] = System.nanoTime();
      go.countDown();
      // Bounded: the longest timeout of a strategy (10 min) and a margin.
      boolean all = done.await(15, TimeUnit.MINUTES);
      double lastS = last.get() / 1e9;
      failures.entrySet().stream().sorted(Map.Entry.comparingByValue(Comparator.comparingInt(AtomicInteger::get).reversed()))
          .limit(5).forEach(e -> System.out.println("  " + e.getValue() + " x " + e.getKey()));
      System.out.printf(Locale.ROOT, "calls by action: %s; wall %.1f s%s%n", fleet.calls(),
          (System.nanoTime() - start[0]) / 1e9, all ? "" : "; NOT ALL FINISHED within 15 min");
      System.out.printf(Locale.ROOT, "stampede: %d of %d resolved, last at %.1f s, %d listing calls, %d throttled, %d failed%n",
          resolved.get(), k, lastS, fleet.listingCalls(), fleet.throttled(), failed.get() + (int) done.getCount());
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
