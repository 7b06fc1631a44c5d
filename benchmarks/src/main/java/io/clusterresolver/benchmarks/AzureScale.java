package io.clusterresolver.benchmarks;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.management.AzureEnvironment;
import com.azure.core.management.profile.AzureProfile;
import com.azure.resourcemanager.compute.ComputeManager;
import com.azure.resourcemanager.compute.models.PowerState;
import com.azure.resourcemanager.compute.models.VirtualMachine;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.testkit.SimulatedAzure;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import reactor.core.publisher.Mono;

/**
 * The azure provider against {@link SimulatedAzure} with an injected per-call latency, side by
 * side with the Azure SDK's fluent walk (list the VMs, then per VM {@code powerState()} and
 * {@code getPrimaryNetworkInterface()}: N+1 calls twice over) on the same world: ARM calls and
 * wall time per resolve. With {@code --cli-home} (the built distribution), also the cold start: {@code resolve --provider
 * azure --simulate} and {@code resolve} against a running simulation, each in a fresh JVM, next to
 * the raw SDK's first call ({@link RawFirstCall}) in a fresh JVM.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.AzureScale \
 *     [--sizes 10,700,5000] [--latency-ms 10] [--reps 5] [--warmups 2] [--cli-home resolver-cli/target/cluster-resolver-VERSION] [--cold-runs 5]
 * </pre>
 */
public final class AzureScale {

  private static final String RG = "bench-rg";

  private AzureScale() {}

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parse(args);
    BenchOptions.Sweep sweep = options.sweep("10,700,5000", 10, 5);
    int warmups = options.integer("warmups", 2);
    BenchOptions.quietLogs();
    sweep.printHeading("ARM call", "| N VMs | ours: ARM calls / resolve | ours: warm median ms | fluent N+1: ARM calls"
        + " | fluent N+1: ms | same members |", "| --- | --- | --- | --- | --- | --- |");
    for (int n : sweep.sizes()) {
      try (SimulatedAzure azure = SimulatedAzure.start()) {
        azure.trustStoreProperties().forEach(System::setProperty);
        azure.addTypical(0, n, b -> b.resourceGroup(RG).tag("cluster", "bench"));
        azure.latency(Duration.ofMillis(sweep.latencyMs()));
        Map<String, String> p = new LinkedHashMap<>(azure.providerProperties(RG));
        p.put("clusterresolver.azure.tags", "cluster=bench");
        p.put("clusterresolver.azure.timeout", "120s");
        ClusterResolver ours = ClusterResolvers.create("azure", p, Map.of());
        ClusterSpec spec = null;
        for (int i = 0; i < warmups; i++) {
          spec = ours.clusterSpec();
        }
        azure.resetCounts();
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < sweep.reps(); i++) {
          long start = System.nanoTime();
          spec = ours.clusterSpec();
          times.add((System.nanoTime() - start) / 1e6);
        }
        double oursCalls = azure.armCalls() / (double) sweep.reps();
        Collections.sort(times);

        azure.resetCounts();
        long start = System.nanoTime();
        TreeSet<String> fluent = fluentWalk(azure);
        double fluentMs = (System.nanoTime() - start) / 1e6;
        int fluentCalls = azure.armCalls();
        TreeSet<String> oursSet = new TreeSet<>();
        spec.jobTasks("worker").forEach(a -> oursSet.add(a.substring(0, a.lastIndexOf(':'))));
        System.out.printf(Locale.ROOT, "| %d | %.0f | %.0f | %d | %.0f | %s |%n", n, oursCalls, times.get(times.size() / 2),
            fluentCalls, fluentMs, oursSet.equals(fluent) ? "yes (" + fluent.size() + ")" : "NO");
      }
    }
    if (options.has("cli-home")) {
      cold(options.get("cli-home"), options.get("classes", "benchmarks/target/classes"), options.integer("cold-runs", 5));
    }
  }

  /** The fluent API as its samples use it: list, then per VM its power state and primary NIC. */
  static TreeSet<String> fluentWalk(SimulatedAzure azure) {
    HttpClient http = new JdkHttpClientBuilder(java.net.http.HttpClient.newBuilder().sslContext(azure.sslContext())).build();
    ComputeManager compute = ComputeManager.configure().withHttpClient(http).authenticate(token(), profile(azure));
    TreeSet<String> addresses = new TreeSet<>();
    for (VirtualMachine vm : compute.virtualMachines().listByResourceGroup(RG)) {
      if ("bench".equals(vm.tags().get("cluster")) && PowerState.RUNNING.equals(vm.powerState())) {
        addresses.add(vm.getPrimaryNetworkInterface().primaryPrivateIP());
      }
    }
    return addresses;
  }

  static TokenCredential token() {
    return request -> Mono.just(new AccessToken(SimulatedAzure.ACCESS_TOKEN, OffsetDateTime.now().plusHours(1)));
  }

  static AzureProfile profile(SimulatedAzure azure) {
    return profile(azure.endpoint().toString(), azure.subscription());
  }

  static AzureProfile profile(String endpoint, String subscription) {
    Map<String, String> endpoints = new HashMap<>(AzureEnvironment.AZURE.getEndpoints());
    endpoints.put("resourceManagerEndpointUrl", endpoint);
    return new AzureProfile(null, subscription, new AzureEnvironment(endpoints));
  }

  /** Fresh JVMs: the CLI with --simulate, the CLI against a running simulation, the raw SDK's first call. */
  private static void cold(String home, String classes, int runs) throws Exception {
    String lib = home + "/lib/*:" + home + "/plugins/*";
    String sim = lib + ":" + home + "/sim/*";
    try (SimulatedAzure azure = SimulatedAzure.start()) {
      azure.addTypical(0, 4, b -> b.resourceGroup(RG).tag("cluster", "bench"));
      List<String> trust = new ArrayList<>();
      azure.trustStoreProperties().forEach((k, v) -> trust.add("-D" + k + "=" + v));
      List<String> simulate = List.of(javaBin(), "-cp", sim, "io.clusterresolver.cli.Main", "resolve", "--provider", "azure", "--simulate");
      List<String> external = new ArrayList<>(List.of(javaBin()));
      external.addAll(trust);
      external.addAll(List.of("-cp", lib, "io.clusterresolver.cli.Main", "resolve", "--provider", "azure"));
      azure.providerProperties(RG).forEach((k, v) -> external.addAll(List.of("-D", k + "=" + v)));
      List<String> raw = new ArrayList<>(List.of(javaBin()));
      raw.addAll(trust);
      // The same jars as the command (lib/), plus this class: not the 100 MB shaded benchmarks jar.
      raw.addAll(List.of("-cp", lib + ":" + classes, RawFirstCall.class.getName(),
          azure.endpoint().toString(), azure.subscription(), RG));
      List<String> rawSimulate = new ArrayList<>(List.of(javaBin(), "-cp", sim + ":" + classes, RawFirstCall.class.getName(),
          "--simulate"));
      List<String> launcher = List.of(home + "/bin/cluster-resolver", "resolve", "--provider", "azure", "--simulate");
      System.out.println("| cold, fresh JVM (java defaults) | wall median ms | wall min ms | CPU (user+sys) median ms | runs |");
      System.out.println("| --- | --- | --- | --- | --- |");
      for (Map.Entry<String, List<String>> e : Map.of(
          "1 raw SDK first call: ComputeManager.authenticate + serviceClient() VM list, first page", raw,
          "2 `resolve --provider azure` against a running simulation", external,
          "3 raw SDK first call with the azure demo simulation started in the same JVM first", rawSimulate,
          "4 `resolve --provider azure --simulate` (starts the same simulation in the JVM)", simulate,
          "5 `bin/cluster-resolver resolve --provider azure --simulate` (the launcher: C1, serial GC, AppCDS)", launcher)
          .entrySet().stream()
          .sorted(Map.Entry.comparingByKey()).toList()) {
        List<Double> times = new ArrayList<>();
        List<Long> cpu = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
          long cpuBefore = ColdStart.childrenCpuMillis();
          times.add(ChildProcess.wallMillis(new ProcessBuilder(e.getValue()).redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD), e.getKey().substring(2), Duration.ofSeconds(120)));
          cpu.add(ColdStart.childrenCpuMillis() - cpuBefore);
        }
        Collections.sort(times);
        Collections.sort(cpu);
        System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %d | %d |%n", e.getKey().substring(2), times.get(times.size() / 2),
            times.get(0), cpu.get(cpu.size() / 2), runs);
      }
    }
  }

  /** The raw SDK's first call in a fresh JVM: what a hand-written client costs at least. */
  public static final class RawFirstCall {
    private RawFirstCall() {}

    /** Arguments: ENDPOINT SUBSCRIPTION RESOURCE_GROUP, or {@code --simulate} (the azure demo started in this JVM first). */
    public static void main(String[] args) {
      io.clusterresolver.testkit.Simulation demo = null;
      if (args[0].equals("--simulate")) {
        demo = io.clusterresolver.testkit.Simulation.startDemo("azure");
        Map<String, String> p = demo.properties();
        args = new String[] {p.get("clusterresolver.azure.endpoint"), p.get("clusterresolver.azure.subscription"),
            p.get("clusterresolver.azure.resource-group")};
      }
      ComputeManager compute = ComputeManager.configure().authenticate(token(), profile(args[0], args[1]));
      var page = compute.serviceClient().getVirtualMachines().listByResourceGroup(args[2]).iterableByPage().iterator().next();
      if (page.getValue().isEmpty()) {
        throw new IllegalStateException("no VMs");
      }
      if (demo != null) {
        demo.close();
      }
    }
  }

  private static String javaBin() {
    return java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

}
