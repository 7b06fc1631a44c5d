package io.clusterresolver.benchmarks;

import com.azure.resourcemanager.compute.ComputeManager;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineInner;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.cloud.compute.v1.AggregatedListInstancesRequest;
import com.google.cloud.compute.v1.InstancesClient;
import com.google.cloud.compute.v1.InstancesSettings;
import com.google.cloud.tpu.v2.TpuClient;
import com.google.cloud.tpu.v2.TpuSettings;
import com.hazelcast.azure.AzureDiscoveryAtEndpoint;
import com.hazelcast.gcp.GcpDiscoveryAtEndpoint;
import com.hazelcast.spi.discovery.DiscoveryNode;
import com.hazelcast.spi.discovery.DiscoveryStrategy;
import io.clusterresolver.testkit.Simulation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.Reservation;

/**
 * One peer's first discovery in this (fresh) JVM, no cluster-resolver code: Hazelcast 5.7.0's GCP or
 * Azure discovery, or a cloud SDK's client built the default way making one listing call. It reads the
 * same {@code clusterresolver.*} properties that point our provider at the world (the endpoints, project,
 * labels, token file) and prints {@code members: N}, the members its one call found, on stdout; the time
 * from the client's construction to the answer on stderr.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.PeerFirstCall PEER \
 *     (--config FILE | --simulate) [--zones ZONE,...]
 * </pre>
 *
 * Peers ({@link #PEERS}): {@code hazelcast-gcp} (needs {@code --zones}: Hazelcast lists one page of each
 * configured zone), {@code hazelcast-azure} (one page of the resource group's network interfaces, found
 * from the metadata service like a VM with a managed identity), and the raw SDKs: {@code gce}
 * ({@code InstancesClient.aggregatedList}, one page of 500), {@code tpu} ({@code TpuClient.getNode}),
 * {@code kubernetes} (fabric8 pods list), {@code azure} ({@code VirtualMachines} list of the resource
 * group, one page) and {@code aws} ({@code Ec2Client.describeInstances}, one page). {@code --config} is
 * a world of {@link CloudWorlds} (what {@link CloudColdStart} {@code --peers} runs); {@code --simulate}
 * starts the provider's demo simulation in this JVM first, as {@code resolve --simulate} does (raw SDKs
 * only). The members are distinct private addresses (Hazelcast gives one node per port of its range),
 * the worker endpoints of the TPU node, the pods with an IP, the VMs carrying the configured tags.
 */
public final class PeerFirstCall {

  /** The peers, in the order of {@link CloudColdStart}'s table. */
  static final List<String> PEERS =
      List.of("hazelcast-gcp", "hazelcast-azure", "gce", "azure", "tpu", "kubernetes", "aws");

  private PeerFirstCall() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2 || !PEERS.contains(args[0])) {
      throw new IllegalArgumentException("usage: PeerFirstCall PEER (--config FILE | --simulate) [--zones Z,...];"
          + " PEER one of " + PEERS);
    }
    String peer = args[0];
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--simulate" -> options.put("simulate", "true");
        case "--config", "--zones" -> {
          if (i + 1 == args.length) {
            throw new IllegalArgumentException(args[i] + " needs a value");
          }
          options.put(args[i].substring(2), args[++i]);
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; see the class comment");
      }
    }
    if (options.containsKey("simulate") == options.containsKey("config")) {
      throw new IllegalArgumentException("give one of --config FILE (a CloudWorlds world) and --simulate");
    }
    List<String> zones = options.containsKey("zones") ? List.of(options.get("zones").split(",")) : List.of();
    if (options.containsKey("simulate")) {
      if (peer.startsWith("hazelcast-")) {
        throw new IllegalArgumentException(peer + " runs against a CloudWorlds world only: give --config FILE");
      }
      try (Simulation demo = Simulation.startDemo(peer)) {
        print(peer, demo.properties(), zones);
      }
    } else {
      print(peer, load(Path.of(options.get("config"))), zones);
    }
  }

  private static void print(String peer, Map<String, String> properties, List<String> zones) throws IOException {
    long start = System.nanoTime();
    int members = members(peer, properties, zones);
    System.err.printf("%s: client + first call %.0f ms%n", peer, (System.nanoTime() - start) / 1e6);
    System.out.println("members: " + members);
  }

  /** The members {@code peer}'s first call finds in the world the provider {@code properties} point at. */
  static int members(String peer, Map<String, String> p, List<String> zones) throws IOException {
    return switch (peer) {
      case "hazelcast-gcp" -> {
        if (zones.isEmpty()) {
          throw new IllegalArgumentException("hazelcast-gcp needs --zones (Hazelcast lists the zones it is given)");
        }
        yield distinctHosts(GcpDiscoveryAtEndpoint.create(p.get("clusterresolver.gce.endpoint"),
            p.get("clusterresolver.gce.project"), zones, p.get("clusterresolver.gce.labels")));
      }
      case "hazelcast-azure" -> distinctHosts(AzureDiscoveryAtEndpoint.create(
          p.get("clusterresolver.azure.imds-endpoint"), p.get("clusterresolver.azure.endpoint")));
      case "gce" -> gce(p);
      case "azure" -> azure(p);
      case "tpu" -> tpu(p);
      case "kubernetes" -> kubernetes(p);
      case "aws" -> aws(p);
      default -> throw new IllegalArgumentException("unknown peer '" + peer + "'; known: " + PEERS);
    };
  }

  /** Hazelcast returns one node per port of its range (5701–5703): the members are the distinct hosts. */
  private static int distinctHosts(DiscoveryStrategy strategy) {
    strategy.start();
    Set<String> hosts = new HashSet<>();
    for (DiscoveryNode node : strategy.discoverNodes()) {
      hosts.add(node.getPrivateAddress().getHost());
    }
    strategy.destroy();
    return hosts.size();
  }

  private static int gce(Map<String, String> p) throws IOException {
    StringBuilder filter = new StringBuilder("(status = \"RUNNING\")");
    for (Map.Entry<String, String> label : pairs(p.getOrDefault("clusterresolver.gce.labels", "")).entrySet()) {
      filter.append(" AND (labels.").append(label.getKey()).append(" = \"").append(label.getValue()).append("\")");
    }
    try (InstancesClient client = InstancesClient.create(InstancesSettings.newBuilder()
        .setEndpoint(p.get("clusterresolver.gce.endpoint")).setCredentialsProvider(NoCredentialsProvider.create())
        .build())) {
      var page = client.aggregatedListCallable().call(AggregatedListInstancesRequest.newBuilder()
          .setProject(p.get("clusterresolver.gce.project")).setMaxResults(500).setReturnPartialSuccess(true)
          .setFilter(filter.toString()).build());
      return (int) page.getItemsMap().values().stream().flatMap(scope -> scope.getInstancesList().stream())
          .filter(i -> i.getNetworkInterfacesCount() > 0 && !i.getNetworkInterfaces(0).getNetworkIP().isEmpty())
          .count();
    }
  }

  private static int tpu(Map<String, String> p) throws IOException {
    TpuSettings settings = TpuSettings.newHttpJsonBuilder().setEndpoint(p.get("clusterresolver.tpu.endpoint"))
        .setCredentialsProvider(NoCredentialsProvider.create()).build();
    try (TpuClient client = TpuClient.create(settings)) {
      return client.getNode("projects/" + p.get("clusterresolver.tpu.project") + "/locations/"
          + p.get("clusterresolver.tpu.zone") + "/nodes/" + p.get("clusterresolver.tpu.name"))
          .getNetworkEndpointsCount();
    }
  }

  private static int kubernetes(Map<String, String> p) throws IOException {
    Config config = Config.empty();
    config.setMasterUrl(p.get("clusterresolver.kubernetes.endpoint"));
    Path tokenFile = Path.of(p.get("clusterresolver.kubernetes.token-file"));
    config.setOauthToken(Files.readString(tokenFile, StandardCharsets.UTF_8).trim());
    String namespace = p.get("clusterresolver.kubernetes.namespace");
    if (namespace == null) { // the in-cluster layout: the namespace file next to the token
      namespace = Files.readString(tokenFile.resolveSibling("namespace"), StandardCharsets.UTF_8).trim();
    }
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      List<Pod> pods = client.pods().inNamespace(namespace)
          .withLabels(pairs(p.getOrDefault("clusterresolver.kubernetes.selector", ""))).list().getItems();
      return (int) pods.stream().filter(pod -> pod.getStatus() != null && pod.getStatus().getPodIP() != null).count();
    }
  }

  private static int azure(Map<String, String> p) {
    ComputeManager compute = ComputeManager.configure().authenticate(AzureScale.token(),
        AzureScale.profile(p.get("clusterresolver.azure.endpoint"), p.get("clusterresolver.azure.subscription")));
    Map<String, String> tags = pairs(p.getOrDefault("clusterresolver.azure.tags", ""));
    List<VirtualMachineInner> page = compute.serviceClient().getVirtualMachines()
        .listByResourceGroup(p.get("clusterresolver.azure.resource-group")).iterableByPage().iterator().next()
        .getValue();
    return (int) page.stream().filter(vm -> vm.tags() != null && vm.tags().entrySet().containsAll(tags.entrySet()))
        .count();
  }

  private static int aws(Map<String, String> p) {
    List<Filter> filters = new ArrayList<>(List.of(
        Filter.builder().name("instance-state-name").values("running").build()));
    pairs(p.getOrDefault("clusterresolver.aws.tags", ""))
        .forEach((k, v) -> filters.add(Filter.builder().name("tag:" + k).values(v).build()));
    try (Ec2Client ec2 = Ec2Client.builder().region(Region.of(p.get("clusterresolver.aws.region")))
        .endpointOverride(URI.create(p.get("clusterresolver.aws.endpoint")))
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
            p.get("clusterresolver.aws.access-key-id"), p.get("clusterresolver.aws.secret-access-key"))))
        .build()) {
      int members = 0;
      DescribeInstancesRequest request = DescribeInstancesRequest.builder().filters(filters).build();
      for (Reservation reservation : ec2.describeInstances(request).reservations()) {
        for (Instance instance : reservation.instances()) {
          members += instance.privateIpAddress() == null ? 0 : 1;
        }
      }
      return members;
    }
  }

  /** {@code k=v,k2=v2} (our providers' label, tag and selector syntax) as a map. */
  private static Map<String, String> pairs(String text) {
    Map<String, String> pairs = new LinkedHashMap<>();
    for (String pair : text.split(",")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        pairs.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
      }
    }
    return pairs;
  }

  private static Map<String, String> load(Path file) throws IOException {
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(in);
    }
    Map<String, String> map = new LinkedHashMap<>();
    properties.stringPropertyNames().forEach(k -> map.put(k, properties.getProperty(k)));
    return map;
  }
}
