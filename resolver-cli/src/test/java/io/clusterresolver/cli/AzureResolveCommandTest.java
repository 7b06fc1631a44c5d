package io.clusterresolver.cli;

import io.clusterresolver.testkit.Fault;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clusterresolver.testkit.AzureScenarios;
import io.clusterresolver.testkit.SimulatedAzure;
import io.clusterresolver.testkit.SimulatedVm;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code resolve --provider azure} against a simulated Azure over HTTPS: the exact cluster of a
 * 757-VM resource group in VM pages + NIC pages + SKU pages, scale sets, a 429 storm, {@code --simulate}.
 */
class AzureResolveCommandTest {

  private SimulatedAzure azure;

  @BeforeEach
  void start() {
    azure = SimulatedAzure.start();
    // The provider reads the standard trust store properties when it is created.
    azure.trustStoreProperties().forEach(System::setProperty);
  }

  @AfterEach
  void stop() {
    azure.close();
  }

  private CliRun resolve(String resourceGroup, String... more) {
    List<String> args = new ArrayList<>(List.of("resolve", "--provider", "azure", "--format", "json"));
    azure.providerProperties(resourceGroup).forEach((key, value) -> args.addAll(List.of("-D", key + "=" + value)));
    for (String d : more) {
      args.addAll(List.of("-D", "clusterresolver.azure." + d));
    }
    return CliRun.run(Map.of(), args.toArray(new String[0]));
  }

  /** Running VMs selected, oldest first, ties broken by the lower-cased resource id. */
  private List<SimulatedVm> running(java.util.function.Predicate<SimulatedVm> selected) {
    return azure.vms().stream().filter(vm -> selected.test(vm) && vm.powerState().equals("running"))
        .sorted(Comparator.comparing(SimulatedVm::timeCreated)
            .thenComparing(vm -> azure.resourceId(vm).toLowerCase(Locale.ROOT)))
        .collect(Collectors.toList());
  }

  private static String primaryIp(SimulatedVm vm) {
    return vm.nics().stream().filter(SimulatedVm.Nic::primary).findFirst().orElseThrow().privateIp();
  }

  private static Map<String, List<String>> cluster(JsonNode json) {
    Map<String, List<String>> cluster = new TreeMap<>();
    json.get("cluster").fields().forEachRemaining(e -> {
      List<String> tasks = new ArrayList<>();
      e.getValue().forEach(t -> tasks.add(t.asText()));
      cluster.put(e.getKey(), tasks);
    });
    return cluster;
  }

  @Test
  void aMalformedResourceGroupIsExit2NamingTheKeyBeforeAnyCall() {
    for (String rg : new String[] {"rg/../other", "rg.", "rg x", "a".repeat(91), "rg?api-version=1"}) {
      CliRun run = resolve(rg);
      assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.USAGE);
      assertThat(run.err).contains("clusterresolver.azure.resource-group").contains("is not a resource group name");
    }
    assertThat(resolve("ml-train_1.(a)").err).doesNotContain("is not a resource group name");
  }

  @Test
  void a757VmResourceGroupIsTheExactClusterInVmNicAndSkuPagesOnly() throws Exception {
    AzureScenarios.mixedResourceGroup(azure, 757);
    List<SimulatedVm> members = running(vm -> "llm".equals(vm.tags().get("cluster")) && vm.tags().containsKey("role"));
    Map<String, List<String>> expected = new TreeMap<>();
    for (SimulatedVm vm : members) {
      expected.computeIfAbsent(vm.tags().get("role"), k -> new ArrayList<>()).add(primaryIp(vm) + ":8888");
    }
    SimulatedVm chief = members.stream().filter(vm -> vm.tags().get("role").equals("chief")).findFirst().orElseThrow();
    azure.identifyAs(azure.resourceId(chief));
    azure.resetCounts();

    CliRun run = resolve(AzureScenarios.MIXED_RG, "tags=cluster=llm", "job-tag=role");

    assertThat(run.code).as("%s", run).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out);
    assertThat(cluster(json)).isEqualTo(expected);
    assertThat(expected.keySet()).containsExactly("chief", "ps", "worker");
    assertThat(json.at("/task/type").asText()).isEqualTo("chief");
    assertThat(json.at("/task/index").asInt()).isZero();
    long vms = azure.vms().size();
    long nics = azure.vms().stream().mapToLong(vm -> vm.nics().size()).sum();
    long locations = members.stream().map(SimulatedVm::location).distinct().count();
    // 757 VMs = 8 pages; 883 NICs = 9 pages; 2 locations = 2 SKU listings; nothing per VM.
    assertThat(azure.callCounts()).containsOnly(
        Map.entry("ListVirtualMachines", (int) ((vms + 99) / 100)),
        Map.entry("ListNetworkInterfaces", (int) ((nics + 99) / 100)),
        Map.entry("ListResourceSkus", (int) locations),
        Map.entry("IMDS", 1));
    assertThat(azure.armCalls()).isEqualTo(8 + 9 + 2);
  }

  @Test
  void aUniformScaleSetOf150IsFourListingCalls() throws Exception {
    AzureScenarios.uniformScaleSet(azure, "train-rg", "trainers", 150);
    azure.resetCounts();

    CliRun run = resolve("train-rg", "scale-set=trainers");

    assertThat(run.code).as("%s", run).isZero();
    List<String> expected = azure.vms().stream()
        .sorted(Comparator.comparingInt(vm -> Integer.parseInt(vm.instanceId())))
        .map(vm -> vm.nics().get(0).privateIp() + ":8888").collect(Collectors.toList());
    assertThat(cluster(new ObjectMapper().readTree(run.out))).isEqualTo(Map.of("worker", expected));
    assertThat(azure.callCount("ListVirtualMachineScaleSetVMs")).isEqualTo(2);
    assertThat(azure.callCount("ListVirtualMachineScaleSetNetworkInterfaces")).isEqualTo(2);
    assertThat(azure.requests()).filteredOn(q -> q.action().equals("ListVirtualMachineScaleSetNetworkInterfaces"))
        .allSatisfy(q -> assertThat(q.path()).contains("/providers/microsoft.Compute/virtualMachineScaleSets/trainers/"));
    assertThat(azure.callCounts().keySet())
        .containsOnly("GetVirtualMachineScaleSet", "ListVirtualMachineScaleSetVMs",
            "ListVirtualMachineScaleSetNetworkInterfaces", "ListResourceSkus", "IMDS");
  }

  @Test
  void aFlexibleScaleSetIsItsVmsInCreationOrder() throws Exception {
    azure.scaleSet(new SimulatedAzure.ScaleSet("flex", AzureScenarios.MIXED_RG, false, "eastus", "Standard_D4s_v3"));
    AzureScenarios.mixedResourceGroup(azure, 60);
    azure.update(vm -> vm.name().compareTo("vm-0030") < 0, b -> b.scaleSet("flex"));
    List<String> expected = running(vm -> "flex".equals(vm.scaleSet())).stream()
        .map(vm -> primaryIp(vm) + ":8888").collect(Collectors.toList());

    CliRun run = resolve(AzureScenarios.MIXED_RG, "scale-set=flex");

    assertThat(run.code).as("%s", run).isZero();
    assertThat(cluster(new ObjectMapper().readTree(run.out))).isEqualTo(Map.of("worker", expected));
  }

  @Test
  void a429StormEndsInTheRightClusterOrATypedErrorAtTheDeadlineNeverPartial() throws Exception {
    AzureScenarios.mixedResourceGroup(azure, 300);
    List<String> expected = running(vm -> "llm".equals(vm.tags().get("cluster"))).stream()
        .map(vm -> primaryIp(vm) + ":8888").collect(Collectors.toList());
    azure.inject(Fault.throttled().onOperation("ListVirtualMachines").onPage(3).times(2));
    azure.inject(Fault.throttled().onOperation("ListNetworkInterfaces").onPage(2).times(1));

    long start = System.nanoTime();
    CliRun storm = resolve(AzureScenarios.MIXED_RG, "tags=cluster=llm", "timeout=20s");
    long tookMs = (System.nanoTime() - start) / 1_000_000;

    assertThat(storm.code).as("%s", storm).isZero();
    assertThat(cluster(new ObjectMapper().readTree(storm.out))).isEqualTo(Map.of("worker", expected));
    // The VM listing's two Retry-After waits of 1 s, one after the other (the NIC listing's one runs alongside
    // them, on its own thread), well inside the 20 s deadline.
    assertThat(tookMs).isBetween(2000L, 20_000L);

    azure.clearFaults().inject(Fault.throttled().onOperation("ListNetworkInterfaces").onPage(2).always());
    start = System.nanoTime();
    CliRun endless = resolve(AzureScenarios.MIXED_RG, "tags=cluster=llm", "timeout=3s");
    tookMs = (System.nanoTime() - start) / 1_000_000;

    assertThat(endless.code).as("%s", endless).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
    assertThat(endless.out).isEmpty();
    assertThat(endless.err).contains("azure", "NetworkInterfaces.List (page 2)", "HTTP 429", "TooManyRequests", "request id ")
        .doesNotContain(SimulatedAzure.ACCESS_TOKEN);
    // Gives up once another 1 s Retry-After no longer fits the 3 s deadline (slack: a loaded machine).
    assertThat(tookMs).isBetween(1500L, 6000L);
  }

  @Test
  void simulateResolvesTheAzureDemo() throws Exception {
    CliRun run = CliRun.run(Map.of(), "resolve", "--provider", "azure", "--simulate", "-D", "clusterresolver.azure.job-tag=role");
    assertThat(run.code).as("%s", run).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out);
    assertThat(cluster(json)).isEqualTo(Map.of("chief", List.of("10.1.0.4:8888"),
        "worker", List.of("10.1.0.5:8888", "10.1.0.6:8888", "10.1.0.7:8888")));
    assertThat(json.at("/task/type").asText()).isEqualTo("chief");
    assertThat(json.at("/environment").asText()).isEqualTo("azure");
    assertThat(json.at("/accelerators/GPU").asInt()).isEqualTo(8);
    assertThat(run.err).contains("simulated Azure").doesNotContain(SimulatedAzure.ACCESS_TOKEN);
  }
}
