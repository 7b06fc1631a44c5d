package io.clusterresolver.benchmarks;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.cloud.compute.v1.GetInstanceRequest;
import com.google.cloud.compute.v1.Instance;
import com.google.cloud.compute.v1.InstanceGroupsClient;
import com.google.cloud.compute.v1.InstanceGroupsListInstancesRequest;
import com.google.cloud.compute.v1.InstanceGroupsSettings;
import com.google.cloud.compute.v1.InstanceWithNamedPorts;
import com.google.cloud.compute.v1.InstancesClient;
import com.google.cloud.compute.v1.InstancesSettings;
import com.google.cloud.compute.v1.ListInstancesInstanceGroupsRequest;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.SimulatedGce;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The gce provider's instance-group mode against a TensorFlow-style N+1 client on the same simulated
 * Compute Engine ({@link SimulatedGce}) with an injected latency per API call: calls and wall time
 * of one resolve of an N-member group. The N+1 client is what TensorFlow's {@code GCEClusterResolver}
 * does, written with the same SDK: {@code instanceGroups.listInstances} (every page), then one
 * {@code instances.get} per member, one after the other, reading nic0's {@code networkIP}. Both must
 * find the same addresses. A row for the provider's default mode (one {@code aggregatedList} of
 * labelled instances) is added.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.GceScale \
 *     [--sizes 10,500,5000] [--latency-ms 10] [--reps 5] [--n1-reps-max-calls 600]
 * </pre>
 */
public final class GceScale {

  private static final String ZONE = "us-east1-b";
  private static final String GROUP = "trainers";

  private GceScale() {}

  public static void main(String[] args) throws Exception {
    BenchOptions options = BenchOptions.parse(args);
    BenchOptions.Sweep sweep = options.sweep("10,500,5000", 10, 5);
    int n1MaxCalls = options.integer("n1-reps-max-calls", 600);
    BenchOptions.quietLogs();

    sweep.printHeading("API call", "| N | client | calls / resolve | listInstances | instances.list | instances.get |"
        + " aggregatedList | wall median ms (min) | runs |", "| ---: | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |");
    for (int n : sweep.sizes()) {
      try (SimulatedGce gce = SimulatedGce.start("bench-project")) {
        List<String> members = new ArrayList<>();
        gce.addTypical(0, n, b -> b.zone(ZONE).label("cluster", "bench"));
        for (int i = 0; i < n; i++) {
          members.add("vm-" + i);
        }
        gce.addTypical(n, Math.max(1, n / 10), b -> b.zone(ZONE).label("cluster", "other"));
        gce.defineInstanceGroup(ZONE, GROUP, members);
        gce.latency(Duration.ofMillis(sweep.latencyMs()));

        Map<String, String> p = new LinkedHashMap<>(gce.providerProperties());
        p.put("clusterresolver.gce.timeout", "10m");
        Map<String, String> group = new LinkedHashMap<>(p);
        group.put("clusterresolver.gce.instance-group", GROUP);
        group.put("clusterresolver.gce.zones", ZONE);
        ClusterResolver ours = ClusterResolvers.create("gce", group, Map.of());
        List<String> expected = sorted(ours.clusterSpec().jobTasks("worker"));
        row(gce, n, "gce provider, instance-group", sweep.reps(), () -> ours.clusterSpec().jobTasks("worker"));

        Map<String, String> labelled = new LinkedHashMap<>(p);
        labelled.put("clusterresolver.gce.labels", "cluster=bench");
        ClusterResolver aggregated = ClusterResolvers.create("gce", labelled, Map.of());
        aggregated.clusterSpec();
        row(gce, n, "gce provider, labels (aggregatedList)", sweep.reps(), () -> aggregated.clusterSpec().jobTasks("worker"));

        try (TfStyleClient tf = new TfStyleClient(gce)) {
          List<String> found = sorted(tf.resolve());
          if (!found.equals(expected)) {
            throw new IllegalStateException("The N+1 client found " + found.size() + " addresses, the provider "
                + expected.size());
          }
          int tfReps = n + 1 > n1MaxCalls ? 1 : sweep.reps();
          row(gce, n, "TF-style N+1 (listInstances + instances.get each)", tfReps, tf::resolve);
        }
      }
    }
  }

  private static List<String> sorted(List<String> addresses) {
    List<String> copy = new ArrayList<>();
    for (String a : addresses) {
      copy.add(a.substring(0, a.lastIndexOf(':')));
    }
    copy.sort(null);
    return copy;
  }

  private interface Resolve {
    List<String> run() throws Exception;
  }

  private static void row(SimulatedGce gce, int n, String client, int reps, Resolve resolve) throws Exception {
    double[] millis = new double[reps];
    gce.resetCounts();
    for (int r = 0; r < reps; r++) {
      long start = System.nanoTime();
      resolve.run();
      millis[r] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(millis);
    Map<String, Integer> c = gce.callCounts();
    int total = c.getOrDefault("instanceGroups.listInstances", 0) + c.getOrDefault("instances.list", 0)
        + c.getOrDefault("instances.get", 0) + c.getOrDefault("instances.aggregatedList", 0)
        + c.getOrDefault("machineTypes.get", 0);
    System.out.printf(Locale.ROOT, "| %,d | %s | %,d | %d | %d | %,d | %d | %.0f (%.0f) | %d |%n", n, client,
        total / reps, c.getOrDefault("instanceGroups.listInstances", 0) / reps,
        c.getOrDefault("instances.list", 0) / reps, c.getOrDefault("instances.get", 0) / reps,
        c.getOrDefault("instances.aggregatedList", 0) / reps, millis[reps / 2], millis[0], reps);
  }

  /** What TensorFlow's GCEClusterResolver does, with the same SDK: the group's pages, then one get per member. */
  static final class TfStyleClient implements AutoCloseable {
    private final SimulatedGce gce;
    private final InstanceGroupsClient groups;
    private final InstancesClient instances;

    TfStyleClient(SimulatedGce gce) throws java.io.IOException {
      this.gce = gce;
      this.groups = InstanceGroupsClient.create(InstanceGroupsSettings.newBuilder()
          .setEndpoint(gce.endpoint().toString()).setCredentialsProvider(NoCredentialsProvider.create()).build());
      this.instances = InstancesClient.create(InstancesSettings.newBuilder()
          .setEndpoint(gce.endpoint().toString()).setCredentialsProvider(NoCredentialsProvider.create()).build());
    }

    List<String> resolve() {
      List<String> addresses = new ArrayList<>();
      ListInstancesInstanceGroupsRequest request = ListInstancesInstanceGroupsRequest.newBuilder()
          .setProject(gce.project()).setZone(ZONE).setInstanceGroup(GROUP)
          .setInstanceGroupsListInstancesRequestResource(
              InstanceGroupsListInstancesRequest.newBuilder().setInstanceState("RUNNING"))
          .build();
      for (InstanceWithNamedPorts member : groups.listInstances(request).iterateAll()) {
        String name = member.getInstance().substring(member.getInstance().lastIndexOf('/') + 1);
        Instance i = instances.get(GetInstanceRequest.newBuilder().setProject(gce.project()).setZone(ZONE)
            .setInstance(name).build());
        addresses.add(i.getNetworkInterfaces(0).getNetworkIP() + ":8888");
      }
      return addresses;
    }

    @Override
    public void close() {
      groups.close();
      instances.close();
    }
  }
}
