package io.clusterresolver.benchmarks;

import io.clusterresolver.testkit.GceScenarios;
import io.clusterresolver.testkit.SimulatedAzure;
import io.clusterresolver.testkit.SimulatedEc2;
import io.clusterresolver.testkit.SimulatedGce;
import io.clusterresolver.testkit.SimulatedGceInstance;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import io.clusterresolver.testkit.SimulatedTpu;
import io.clusterresolver.testkit.SimulatedTpuNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated fleets the cold-start benchmark resolves: one per cloud provider, each of 1,000 or
 * more members and read in every page, served from this JVM while the measured command runs in a
 * process of its own (so the simulation's CPU is not the command's).
 *
 * <ul>
 *   <li>{@code gce}: {@link GceScenarios#largeProject} of 1,200 instances in four zones, label
 *       {@code cluster=train}: 608 members in two {@code aggregatedList} pages (the project);
 *   <li>{@code gce-adc}: the same project as on a real VM, for {@code --provider gce}: no {@code credentials}
 *       property, so Application Default Credentials end at the metadata server's token, which the API
 *       requires; the command needs {@code GCE_METADATA_HOST} as {@code DIR/gce-adc.env} says (and neither
 *       {@code GOOGLE_APPLICATION_CREDENTIALS} nor a gcloud well-known file);
 *   <li>{@code azure}: 1,000 running VMs tagged {@code cluster=bench} in one resource group: 10 VM
 *       pages and 10 NIC pages (HTTPS: the command needs {@link #jvmOptions(String)} to trust it);
 *   <li>{@code azure-mi}: {@code azure}'s world without {@code access-token}, the managed identity's token from
 *       its IMDS (not in {@link #PROVIDERS}: resolved with {@code --provider azure}, by hand or cold-phases.sh);
 *   <li>{@code tpu}: a READY {@code v4-8192} pod slice with 1,024 workers (one {@code nodes.get});
 *   <li>{@code kubernetes}: 1,000 ready pods of a StatefulSet, namespace {@code ml}, {@code app=trainer};
 *   <li>{@code aws}: 1,000 running instances tagged {@code cluster=bench}: two pages of 500.
 * </ul>
 *
 * Each world identifies the command as its first member (metadata server, IMDS, TPU worker 0).
 */
final class CloudWorlds implements AutoCloseable {

  /** The providers, in the order the issue lists them. */
  static final List<String> PROVIDERS = List.of("gce", "azure", "tpu", "kubernetes", "aws");

  private final List<AutoCloseable> running = new ArrayList<>();
  private final Map<String, Map<String, String>> properties = new LinkedHashMap<>();
  private final Map<String, Integer> expectedMembers = new LinkedHashMap<>();
  private final Map<String, List<String>> jvmOptions = new LinkedHashMap<>();
  private final Map<String, List<String>> zones = new LinkedHashMap<>();
  private final Path dir;
  private Duration latency = Duration.ZERO;

  CloudWorlds(Path dir) {
    this.dir = dir;
  }

  /**
   * A delay every world started after this adds to each API answer (not to its metadata server), without using
   * CPU: a cloud's API front end is another machine, so work a resolve overlaps with its requests (the next
   * page asked early, catalog calls beside the listing) shows only when its answers take time.
   */
  CloudWorlds latency(Duration latency) {
    this.latency = latency;
    return this;
  }

  /**
   * Serves the worlds for a while, to look into one cold resolve by hand (class loading, JFR):
   * {@code CloudWorlds DIR SECONDS [PROVIDER...]} writes {@code DIR/<provider>.properties} (and
   * {@code DIR/<provider>.jvm}, the JVM options the client needs) and stops after {@code SECONDS};
   * {@code --latency-ms N} (anywhere) delays every API answer by {@code N} ms ({@link #latency}).
   */
  public static void main(String[] args) throws Exception {
    List<String> rest = new ArrayList<>(List.of(args));
    int latencyAt = rest.indexOf("--latency-ms");
    Duration latency = Duration.ZERO;
    if (latencyAt >= 0) {
      latency = Duration.ofMillis(Long.parseLong(rest.get(latencyAt + 1)));
      rest.subList(latencyAt, latencyAt + 2).clear();
    }
    Path dir = Files.createDirectories(Path.of(rest.get(0)));
    long seconds = Long.parseLong(rest.get(1));
    List<String> providers = rest.size() > 2 ? rest.subList(2, rest.size()) : PROVIDERS;
    BenchOptions.quietLogs();
    try (CloudWorlds worlds = new CloudWorlds(dir).latency(latency)) {
      for (String provider : providers) {
        worlds.start(provider);
        Files.writeString(dir.resolve(provider + ".jvm"), String.join(" ", worlds.jvmOptions(provider)));
        System.out.println(provider + ": " + worlds.expectedMembers(provider) + " members, --config "
            + worlds.configFile(provider));
      }
      Thread.sleep(seconds * 1000);
    }
  }

  private void startGce(String provider, boolean applicationDefault) throws IOException {
    SimulatedGce gce = keep(GceScenarios.largeProject(SimulatedGce.start("bench-project"), 1200));
    gce.identifyAs("train-1").requireAuthorization(applicationDefault).latency(latency);
    Map<String, String> p = new LinkedHashMap<>(gce.providerProperties());
    p.put("clusterresolver.gce.labels", "cluster=train");
    if (applicationDefault) {
      p.remove("clusterresolver.gce.credentials");
      URI metadata = gce.metadataEndpoint();
      Files.writeString(dir.resolve(provider + ".env"),
          "GCE_METADATA_HOST=" + metadata.getHost() + ":" + metadata.getPort() + "\n", StandardCharsets.UTF_8);
    }
    long members = gce.instances().stream()
        .filter(i -> "train".equals(i.labels().get("cluster")) && "RUNNING".equals(i.status()))
        .filter(i -> i.networkIp().isPresent()).count(); // the IPv6-only instance is left out (logged)
    zones.put(provider, gce.instances().stream().map(SimulatedGceInstance::zone).distinct().sorted().toList());
    register(provider, p, (int) members);
  }

  private void startAzure(String provider, boolean managedIdentity) throws IOException {
    SimulatedAzure azure = keep(SimulatedAzure.start());
    azure.addTypical(0, 1000, b -> b.resourceGroup("bench-rg").tag("cluster", "bench"));
    azure.identifyAs(azure.resourceId(azure.vms().get(0))).latency(latency);
    jvmOptions.put(provider, azure.trustStoreProperties().entrySet().stream()
        .map(e -> "-D" + e.getKey() + "=" + e.getValue()).toList());
    Map<String, String> p = new LinkedHashMap<>(azure.providerProperties("bench-rg"));
    p.put("clusterresolver.azure.tags", "cluster=bench");
    if (managedIdentity) {
      p.remove("clusterresolver.azure.access-token");
      Files.writeString(dir.resolve(provider + ".env"), "AZURE_POD_IDENTITY_AUTHORITY_HOST=" + azure.imdsEndpoint()
          + "\n", StandardCharsets.UTF_8);
    }
    register(provider, p, azure.vms().size()); // typical VMs run, with one NIC each
  }

  /** Starts the world of one provider (see the class comment). */
  void start(String provider) throws IOException {
    switch (provider) {
      // gce-adc: the gce world signed in as a Compute Engine VM is, with Application Default Credentials (no
      // credentials setting; the API requires the token the world's metadata server issues; GCE_METADATA_HOST in .env)
      case "gce", "gce-adc" -> startGce(provider, provider.equals("gce-adc"));
      // azure-mi: the azure world signed in as an Azure VM is: no access-token, the managed identity's token from the
      // world's IMDS (its imds-endpoint; azure-identity's chain asks AZURE_POD_IDENTITY_AUTHORITY_HOST, set to the
      // same address in .env). Resolve it with --provider azure.
      case "azure", "azure-mi" -> startAzure(provider, provider.equals("azure-mi"));
      case "tpu" -> {
        SimulatedTpu tpu = keep(SimulatedTpu.start());
        String[] workers = new String[1024];
        for (int i = 0; i < workers.length; i++) {
          workers[i] = "10.140." + (i / 256) + "." + (i % 256);
        }
        tpu.add(SimulatedTpuNode.builder("bench-v4-8192").acceleratorType("v4-8192").workers(workers).build());
        tpu.identifyAs("bench-v4-8192", 0).latency(latency);
        register(provider, tpu.providerProperties("bench-v4-8192"), workers.length);
      }
      case "kubernetes" -> {
        SimulatedKubernetes k = keep(SimulatedKubernetes.start());
        String token = "bench-token";
        k.acceptTokens(Map.of(token, "system:serviceaccount:ml:trainer")).latency(latency);
        List<SimulatedPod> pods = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
          pods.add(SimulatedPod.builder("ml", "trainer-" + i).statefulSet("trainer", i).label("app", "trainer")
              .podIps("10.8." + (i / 256) + "." + (i % 256)).hostIp("192.168.1." + (i % 200 + 1))
              .port("grpc", 2222).limit("nvidia.com/gpu", "8").ready(true).build());
        }
        k.addAll(pods);
        Path tokenFile = dir.resolve("kubernetes.token");
        Files.writeString(tokenFile, token, StandardCharsets.UTF_8);
        Map<String, String> p = new LinkedHashMap<>();
        p.put("clusterresolver.kubernetes.endpoint", k.endpoint().toString());
        p.put("clusterresolver.kubernetes.token-file", tokenFile.toString());
        p.put("clusterresolver.kubernetes.namespace", "ml");
        p.put("clusterresolver.kubernetes.selector", "app=trainer");
        p.put("clusterresolver.kubernetes.port-name", "grpc");
        register(provider, p, pods.size());
      }
      case "aws" -> {
        SimulatedEc2 ec2 = keep(SimulatedEc2.start());
        ec2.addTypical(0, 1000, b -> b.tag("cluster", "bench"));
        ec2.identifyAs(ec2.instances().get(0).instanceId()).latency(latency);
        Map<String, String> p = new LinkedHashMap<>(ec2.providerProperties());
        p.put("clusterresolver.aws.tags", "cluster=bench");
        register(provider, p, 1000);
      }
      default -> throw new IllegalArgumentException("no world for provider '" + provider + "'; known: " + PROVIDERS);
    }
  }

  /** The properties file that points {@code provider} at its world (for {@code --config}). */
  Path configFile(String provider) {
    return dir.resolve(provider + ".properties");
  }

  /** The properties that point {@code provider} at its world. */
  Map<String, String> properties(String provider) {
    return properties.get(provider);
  }

  /** How many members a correct resolve of {@code provider} finds, computed from the world. */
  int expectedMembers(String provider) {
    return expectedMembers.get(provider);
  }

  /** JVM options a client of {@code provider}'s world needs (Azure's trust store), often none. */
  List<String> jvmOptions(String provider) {
    return jvmOptions.getOrDefault(provider, List.of());
  }

  /** The zones of {@code provider}'s world (gce: what Hazelcast's discovery is configured with), often none. */
  List<String> zones(String provider) {
    return zones.getOrDefault(provider, List.of());
  }

  private void register(String provider, Map<String, String> p, int members) throws IOException {
    properties.put(provider, Map.copyOf(p));
    expectedMembers.put(provider, members);
    StringBuilder text = new StringBuilder();
    p.forEach((k, v) -> text.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
    Files.writeString(configFile(provider), text, StandardCharsets.UTF_8);
  }

  private <T extends AutoCloseable> T keep(T world) {
    running.add(world);
    return world;
  }

  @Override
  public void close() {
    for (AutoCloseable world : running) {
      try {
        world.close();
      } catch (Exception e) {
        // stopping a loopback server: nothing to report
      }
    }
  }
}
