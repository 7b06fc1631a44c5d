package io.clusterresolver.azure;

import io.clusterresolver.testkit.Fault;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.Resolution;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverContext;
import io.clusterresolver.testkit.AzureScenarios;
import io.clusterresolver.testkit.Loopback;
import io.clusterresolver.testkit.SimulatedAzure;
import io.clusterresolver.testkit.SimulatedVm;
import io.clusterresolver.testkit.Together;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The azure provider against SimulatedAzure with the real SDK over HTTPS; expectations from the world's own fields. */
class AzureProviderTest {

  static SimulatedAzure azure;

  @BeforeAll
  static void start() {
    azure = AzureTestSupport.start();
  }

  @AfterAll
  static void stop() {
    azure.close();
  }

  @BeforeEach
  void reset() {
    azure.clear().clearFaults().resetCounts().latency(Duration.ZERO).identifyAs(null).expandNeedsFilter(false);
    SkuAccelerators.clear();
    AzureMemberSource.clearExpandRefused();
  }

  private static boolean llm(SimulatedVm vm) {
    return "llm".equals(vm.tags().get("cluster"));
  }

  @Test
  void aMixedResourceGroupGivesTheExactClusterFromOneVmAndOneNicListing() {
    AzureScenarios.mixedResourceGroup(azure, 330);
    List<SimulatedVm> members = Expected.members(azure, vm -> llm(vm) && vm.tags().containsKey("role"));
    SimulatedVm me = members.get(members.size() / 2);
    azure.identifyAs(azure.resourceId(me).toUpperCase());
    azure.resetCounts();

    Resolution r = AzureTestSupport.resolver(azure, "tags", "cluster=llm", "job-tag", "role").resolve();

    Map<String, List<String>> expected = Expected.cluster(members, vm -> vm.tags().get("role"), Expected::privateIp);
    assertThat(Expected.asMap(r.clusterSpec())).isEqualTo(expected);
    String myJob = me.tags().get("role");
    assertThat(r.taskType()).contains(myJob);
    assertThat(r.taskId().getAsInt()).isEqualTo(expected.get(myJob).indexOf(Expected.privateIp(me) + ":8888"));
    long nics = azure.vms().stream().mapToLong(vm -> vm.nics().size()).sum();
    Set<String> locations = members.stream().map(SimulatedVm::location).collect(Collectors.toSet());
    assertThat(azure.callCounts()).containsOnly(
        Map.entry("ListVirtualMachines", Expected.pages(azure.vms().size())),
        Map.entry("ListNetworkInterfaces", Expected.pages(nics)),
        Map.entry("ListResourceSkus", locations.size()),
        Map.entry("IMDS", 1));
    assertThat(azure.requests()).filteredOn(q -> q.action().equals("ListVirtualMachines"))
        .allSatisfy(q -> assertThat(q.parameters()).containsEntry("$expand", "instanceView"));
  }

  @Test
  void tagNamesMatchExactlyUnlessAskedToIgnoreCase() {
    AzureScenarios.mixedResourceGroup(azure, 120);
    List<SimulatedVm> exact = Expected.members(azure, AzureProviderTest::llm);
    List<SimulatedVm> anyCase = Expected.members(azure, vm -> vm.tags().entrySet().stream()
        .anyMatch(t -> t.getKey().equalsIgnoreCase("cluster") && t.getValue().equals("llm")));
    assertThat(anyCase.size()).isGreaterThan(exact.size());

    assertThat(Expected.asMap(AzureTestSupport.resolver(azure, "tags", "cluster=llm").clusterSpec()))
        .isEqualTo(Expected.cluster(exact, vm -> "worker", Expected::privateIp));
    assertThat(Expected.asMap(AzureTestSupport.resolver(azure, "tags", "CLUSTER=llm",
        "tag-names-case-insensitive", "true").clusterSpec()))
        .isEqualTo(Expected.cluster(anyCase, vm -> "worker", Expected::privateIp));
    assertThat(AzureTestSupport.resolver(azure, "tags", "CLUSTER=llm").clusterSpec().totalTasks()).isZero();
  }

  @Test
  void publicAddressesComeFromOnePublicIpListingOnlyWhenAsked() {
    azure.addTypical(0, 5, b -> b);
    azure.addTypical(5, 1, b -> b.clearNics().nic(new SimulatedVm.Nic("vm-0005-nic", "10.9.9.9", null, true)));
    List<SimulatedVm> members = Expected.members(azure, vm -> true);
    azure.resetCounts();

    var spec = AzureTestSupport.resolver(azure, "address", "public-ipv4").clusterSpec();

    assertThat(Expected.asMap(spec)).isEqualTo(Expected.cluster(members, vm -> "worker", vm -> vm.nics().get(0).publicIp()));
    assertThat(azure.callCount("ListPublicIPAddresses")).isEqualTo(1);
    azure.resetCounts();
    AzureTestSupport.resolver(azure).clusterSpec();
    assertThat(azure.callCount("ListPublicIPAddresses")).isZero();
  }

  @Test
  void aUniformScaleSetIsTwoListingsOrderedByIntegerInstanceId() {
    AzureScenarios.uniformScaleSet(azure, "vmss-rg", "trainers", 150);
    azure.addTypical(0, 3, b -> b.resourceGroup("vmss-rg"));
    SimulatedVm me = azure.vms().stream().filter(vm -> "10".equals(vm.instanceId())).findFirst().orElseThrow();
    azure.identifyAs(azure.resourceId(me));
    azure.resetCounts();

    ClusterResolver resolver = AzureTestSupport.resolver(azure, "resource-group", "vmss-rg", "scale-set", "trainers");
    Resolution r = resolver.resolve();

    List<String> expected = azure.vms().stream().filter(vm -> vm.instanceId() != null)
        .sorted(java.util.Comparator.comparingInt(vm -> Integer.parseInt(vm.instanceId())))
        .map(vm -> vm.nics().get(0).privateIp() + ":8888").collect(Collectors.toList());
    assertThat(r.clusterSpec().jobTasks("worker")).isEqualTo(expected);
    assertThat(r.taskId().getAsInt()).isEqualTo(10);
    assertThat(r.accelerators()).isEqualTo(Map.of("GPU", 1));
    assertThat(azure.callCount("ListVirtualMachineScaleSetVMs") + azure.callCount("ListVirtualMachineScaleSetNetworkInterfaces"))
        .isEqualTo(4);
    assertThat(azure.callCount("GetVirtualMachineScaleSet")).isEqualTo(1);
    assertThat(azure.callCount("ListVirtualMachines") + azure.callCount("ListNetworkInterfaces")).isZero();

    azure.resetCounts();
    resolver.clusterSpec();
    assertThat(azure.callCounts()).containsOnly(Map.entry("ListVirtualMachineScaleSetVMs", 2),
        Map.entry("ListVirtualMachineScaleSetNetworkInterfaces", 2));
  }

  @Test
  void aUniformScaleSetsPublicAddressesComeFromItsOwnPublicIpListing() {
    AzureScenarios.uniformScaleSet(azure, "vmss-rg", "trainers", 12);
    azure.update(vm -> "5".equals(vm.instanceId()), b -> b.powerState("deallocated"));
    List<String> expected = azure.vms().stream().filter(vm -> vm.powerState().equals("running"))
        .sorted(java.util.Comparator.comparingInt(vm -> Integer.parseInt(vm.instanceId())))
        .map(vm -> vm.nics().get(0).publicIp() + ":8888").collect(Collectors.toList());
    azure.resetCounts();

    var spec = AzureTestSupport.resolver(azure, "resource-group", "vmss-rg", "scale-set", "trainers",
        "address", "public-ipv4").clusterSpec();

    assertThat(spec.jobTasks("worker")).isEqualTo(expected);
    assertThat(azure.callCount("ListVirtualMachineScaleSetPublicIPAddresses")).isEqualTo(1);
    assertThat(azure.callCount("ListPublicIPAddresses")).isZero();
  }

  @Test
  void aFlexibleScaleSetIsTheVmsPointingAtIt() {
    azure.scaleSet(new SimulatedAzure.ScaleSet("flex", "cluster-rg", false, "eastus", "Standard_D4s_v3"));
    azure.addTypical(0, 12, b -> b);
    azure.update(vm -> Integer.parseInt(vm.name().substring(3)) % 3 != 0, b -> b.scaleSet("flex"));
    azure.update(vm -> vm.name().equals("vm-0004"), b -> b.powerState("stopped"));
    List<SimulatedVm> members = Expected.members(azure, vm -> "flex".equals(vm.scaleSet()));

    var spec = AzureTestSupport.resolver(azure, "scale-set", "flex").clusterSpec();

    assertThat(Expected.asMap(spec)).isEqualTo(Expected.cluster(members, vm -> "worker", Expected::privateIp));
    assertThat(azure.callCount("ListVirtualMachineScaleSetVMs")).isZero();
    assertThat(azure.requests()).filteredOn(q -> q.action().equals("ListVirtualMachines"))
        .allSatisfy(q -> assertThat(q.parameters().get("$filter")).isEqualToIgnoringCase(
            "'virtualMachineScaleSet/id' eq '/subscriptions/" + azure.subscription()
                + "/resourceGroups/cluster-rg/providers/Microsoft.Compute/virtualMachineScaleSets/flex'"));
  }

  @Test
  void aFlexibleScaleSetsMembersAreRankedByCreationTimeThenIdWhateverOrderArmListsThem() {
    azure.scaleSet(new SimulatedAzure.ScaleSet("flex", "cluster-rg", false, "eastus", "Standard_D4s_v3"));
    java.time.Instant epoch = java.time.Instant.parse("2026-01-01T00:00:00Z");
    // Listed in name order, created in the opposite order within each three, every third in the same second.
    azure.addTypical(0, 8, b -> b.scaleSet("flex")
        .timeCreated(epoch.plusSeconds(30 - 10L * (Integer.parseInt(b.build().name().substring(3)) % 3))));
    List<SimulatedVm> members = Expected.members(azure, vm -> "flex".equals(vm.scaleSet()));
    SimulatedVm me = members.get(5);
    azure.identifyAs(azure.resourceId(me));

    Resolution r = AzureTestSupport.resolver(azure, "scale-set", "flex").resolve();

    assertThat(Expected.asMap(r.clusterSpec())).isEqualTo(Expected.cluster(members, vm -> "worker", Expected::privateIp));
    assertThat(r.taskId().getAsInt()).isEqualTo(5);
  }

  @Test
  void whenArmRefusesExpandWithoutAFilterTheSubscriptionIsListedWithStatusOnlyFromThenOn() {
    azure.expandNeedsFilter(true);
    azure.addTypical(0, 6, b -> b);
    azure.addTypical(6, 4, b -> b.resourceGroup("other-rg"));
    azure.update(vm -> vm.name().equals("vm-0002"), b -> b.resourceGroup("CLUSTER-RG"));
    List<SimulatedVm> members = Expected.members(azure, vm -> vm.resourceGroup().equalsIgnoreCase("cluster-rg"));
    azure.resetCounts();

    ClusterResolver resolver = AzureTestSupport.resolver(azure);
    assertThat(Expected.asMap(resolver.clusterSpec())).isEqualTo(Expected.cluster(members, vm -> "worker", Expected::privateIp));
    assertThat(azure.callCount("ListVirtualMachines")).isEqualTo(2);
    azure.resetCounts();
    assertThat(Expected.asMap(resolver.clusterSpec())).isEqualTo(Expected.cluster(members, vm -> "worker", Expected::privateIp));
    assertThat(azure.requests()).filteredOn(q -> q.action().equals("ListVirtualMachines")).singleElement()
        .satisfies(q -> assertThat(q.parameters()).containsEntry("statusOnly", "true").doesNotContainKey("$expand"));
  }

  @Test
  void theWholeSubscriptionIsListedWithStatusOnly() {
    azure.addTypical(0, 4, b -> b.resourceGroup("rg-a"));
    azure.addTypical(4, 4, b -> b.resourceGroup("rg-b").powerState(b.build().name().endsWith("5") ? "deallocated" : "running"));
    List<SimulatedVm> members = Expected.members(azure, vm -> true);
    azure.resetCounts();

    var spec = AzureTestSupport.resolver(azure, "resource-group", null).clusterSpec();

    assertThat(Expected.asMap(spec)).isEqualTo(Expected.cluster(members, vm -> "worker", Expected::privateIp));
    assertThat(azure.requests()).filteredOn(q -> q.action().equals("ListVirtualMachines"))
        .singleElement().satisfies(q -> {
          assertThat(q.parameters()).containsEntry("statusOnly", "true");
          assertThat(q.path()).doesNotContainIgnoringCase("resourceGroups");
        });
  }

  @Test
  void gpusComeFromResourceSkusAskedOncePerLocationForTheJvm() {
    azure.addTypical(0, 2, b -> b.size("Standard_ND96asr_v4"));
    azure.addTypical(2, 2, b -> b.size("Standard_NC64as_T4_v3").location("westus2"));
    azure.identifyAs(azure.resourceId(azure.vms().get(2)));
    azure.resetCounts();

    ClusterResolver resolver = AzureTestSupport.resolver(azure, "tasks-per-vm", "accelerator");
    Resolution r = resolver.resolve();

    assertThat(r.clusterSpec().numTasks("worker")).isEqualTo(8 + 8 + 4 + 4);
    assertThat(r.accelerators()).isEqualTo(Map.of("GPU", 1));
    assertThat(azure.callCount("ListResourceSkus")).isEqualTo(2);
    assertThat(azure.requests()).filteredOn(q -> q.action().equals("ListResourceSkus"))
        .extracting(q -> q.parameters().get("$filter")).containsExactlyInAnyOrder("location eq 'eastus'", "location eq 'westus2'");
    azure.resetCounts();
    AzureTestSupport.resolver(azure).clusterSpec();
    assertThat(azure.callCount("ListResourceSkus")).isZero();
  }

  @Test
  void a429StormWithRetryAfterEndsInTheRightClusterWithinTheDeadline() {
    azure.addTypical(0, 250, b -> b);
    List<SimulatedVm> members = Expected.members(azure, vm -> true);
    azure.inject(Fault.throttled().onOperation("ListVirtualMachines").onPage(2).times(2));
    azure.inject(Fault.throttled().onOperation("ListNetworkInterfaces").times(1));
    azure.resetCounts();

    long start = System.nanoTime();
    var spec = AzureTestSupport.resolver(azure, "timeout", "20s").clusterSpec();
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(Expected.asMap(spec)).isEqualTo(Expected.cluster(members, vm -> "worker", Expected::privateIp));
    // The VM listing's two 1 s Retry-After waits; the NIC listing's one runs alongside them (another thread).
    assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(2)).isLessThan(Duration.ofSeconds(20));
    assertThat(azure.callCount("ListVirtualMachines")).isEqualTo(3 + 2);
    assertThat(azure.callCount("ListNetworkInterfaces")).isEqualTo(3 + 1);
  }

  @Test
  void theFirstLocationsSkusAreAskedWhileTheVmsAreStillBeingListed() {
    azure.addTypical(0, 300, b -> b);
    List<SimulatedVm> members = Expected.members(azure, vm -> true);
    // The second VM page answers 2 s late: the SKU listing of the first page's location is asked meanwhile.
    azure.inject(Fault.slow(Duration.ofSeconds(2)).onOperation("ListVirtualMachines").onPage(2).times(1));
    azure.resetCounts();

    var spec = AzureTestSupport.resolver(azure, "timeout", "20s").clusterSpec();

    assertThat(Expected.asMap(spec)).isEqualTo(Expected.cluster(members, vm -> "worker", Expected::privateIp));
    List<String> order = azure.requests().stream().map(q -> q.action()).collect(Collectors.toList());
    assertThat(order).filteredOn("ListVirtualMachines"::equals).hasSize(3);
    assertThat(order.indexOf("ListResourceSkus")).as("calls in order: %s", order)
        .isGreaterThan(order.indexOf("ListVirtualMachines"))
        .isLessThan(order.lastIndexOf("ListVirtualMachines"));
  }

  @Test
  void thisVmIsAskedOfImdsWhileTheVmsAreStillBeingListed() {
    azure.addTypical(0, 300, b -> b);
    List<SimulatedVm> members = Expected.members(azure, vm -> true);
    SimulatedVm me = members.get(7);
    azure.identifyAs(azure.resourceId(me));
    // The second VM page answers 2 s late: this VM's identity is asked meanwhile, not after the listing.
    azure.inject(Fault.slow(Duration.ofSeconds(2)).onOperation("ListVirtualMachines").onPage(2).times(1));
    azure.resetCounts();

    Resolution r = AzureTestSupport.resolver(azure, "timeout", "20s").resolve();

    assertThat(r.taskId().getAsInt()).isEqualTo(r.clusterSpec().jobTasks("worker")
        .indexOf(Expected.privateIp(me) + ":8888"));
    List<String> order = azure.requests().stream().map(q -> q.action()).collect(Collectors.toList());
    assertThat(order).filteredOn("IMDS"::equals).hasSize(1);
    assertThat(order.indexOf("IMDS")).as("calls in order: %s", order)
        .isLessThan(order.lastIndexOf("ListVirtualMachines"));
  }

  @Test
  void taskTypeAndTaskIdFromTheConfigurationAskImdsNothing() {
    azure.addTypical(0, 5, b -> b);
    azure.identifyAs(azure.resourceId(azure.vms().get(0)));
    azure.resetCounts();

    Resolution r = AzureTestSupport.resolver(azure, "task-type", "worker", "task-id", "3").resolve();

    assertThat(r.taskType()).contains("worker");
    assertThat(r.taskId().getAsInt()).isEqualTo(3);
    assertThat(azure.callCount("IMDS")).isZero();
  }

  @Test
  void throttlingPastTheDeadlineIsATypedErrorAtTheDeadlineNamingStatusAndRequestId() {
    azure.addTypical(0, 150, b -> b);
    azure.inject(Fault.throttled().onOperation("ListNetworkInterfaces").always());
    ClusterResolver resolver = AzureTestSupport.resolver(azure, "timeout", "3s");

    long start = System.nanoTime();
    Throwable thrown = catchThrowable(resolver::clusterSpec);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(thrown).isInstanceOf(ClusterResolverException.class);
    assertThat(thrown.getMessage()).contains("azure", "NetworkInterfaces.List (page 1)", "HTTP 429", "TooManyRequests")
        .containsPattern("request id [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
        .doesNotContain(SimulatedAzure.ACCESS_TOKEN);
    // Retried while another 1 s Retry-After still fitted the 3 s deadline, then gave ARM's answer back.
    assertThat(took).isGreaterThan(Duration.ofMillis(1500)).isLessThan(Duration.ofMillis(4500));
    assertThat(azure.callCount("ListNetworkInterfaces")).isGreaterThanOrEqualTo(2);

    azure.clearFaults().inject(Fault.throttled().retryAfter(Duration.ofSeconds(60)).onOperation("ListVirtualMachines").always());
    start = System.nanoTime();
    thrown = catchThrowable(resolver::clusterSpec);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
    assertThat(thrown).isInstanceOf(ClusterResolverException.class).hasMessageContaining("HTTP 429");
  }

  @Test
  void everyFaultKindIsATypedErrorNeverAPartialCluster() {
    azure.addTypical(0, 250, b -> b);
    for (Fault fault : List.of(Fault.serverError().onPage(3).always(), Fault.connectionReset().always(),
        Fault.truncatedBody().onOperation("ListNetworkInterfaces").always(),
        Fault.malformedBody().onPage(2).always(), Fault.slow(Duration.ofSeconds(5)).onPage(2).always())) {
      azure.clearFaults().inject(fault);
      long start = System.nanoTime();
      Throwable thrown = catchThrowable(() -> AzureTestSupport.resolver(azure, "timeout", "2s").clusterSpec());
      assertThat(thrown).as("%s", fault).isInstanceOf(ClusterResolverException.class);
      assertThat(thrown.getMessage()).as("%s", fault).startsWith("azure: ");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("%s", fault).isLessThan(Duration.ofMillis(3500));
    }
  }

  @Test
  void aFailedResolveLeavesNoListingRunningBehindIt() throws InterruptedException {
    azure.addTypical(0, 250, b -> b);
    azure.inject(Fault.slow(Duration.ofSeconds(2)).onOperation("ListNetworkInterfaces").always());
    azure.inject(Fault.malformedBody().onOperation("ListVirtualMachines").onPage(2).always());

    Throwable thrown = catchThrowable(() -> AzureTestSupport.resolver(azure).clusterSpec());

    assertThat(thrown).isInstanceOf(ClusterResolverException.class).hasMessageContaining("VirtualMachines.List");
    assertThat(Thread.getAllStackTraces().keySet()).as("threads alive once the resolve has returned")
        .noneMatch(t -> t.getName().startsWith("cluster-resolver-azure-"));
    Map<String, Integer> counts = Map.copyOf(azure.callCounts());
    Thread.sleep(500);
    assertThat(azure.callCounts()).as("requests after the resolve returned").isEqualTo(counts);
  }

  @Test
  void mistakesAreConfigurationErrorsNamingTheKey() {
    assertThat(catchThrowable(() -> AzureTestSupport.resolver(azure, "resource-group", null, "scale-set", "x")))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.azure.scale-set")
        .hasMessageContaining("clusterresolver.azure.resource-group");
    assertThat(catchThrowable(() -> AzureTestSupport.resolver(azure, "endpoint", "http://127.0.0.1:1")))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.azure.endpoint")
        .hasMessageContaining("https");
    assertThat(catchThrowable(() -> AzureTestSupport.resolver(azure, "subscription", "my-sub")))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.azure.subscription");
  }

  @Test
  void anUnknownResourceGroupIsA404NamingIt() {
    azure.addTypical(0, 1, b -> b);
    Throwable thrown = catchThrowable(() -> AzureTestSupport.resolver(azure, "resource-group", "nope").clusterSpec());
    assertThat(thrown).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("HTTP 404").hasMessageContaining("ResourceGroupNotFound").hasMessageContaining("nope");
  }

  @Test
  void theAzureAssetTagLeadsToAShortImdsProbeAnythingElseToNone(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    ResolverContext context = ResolverContext.of(PropertySources.of(Map.of(), Map.of(), Map.of(), Map.of()));
    java.nio.file.Path other = java.nio.file.Files.writeString(dir.resolve("other"), "Default string\n");
    long start = System.nanoTime();
    assertThat(AzureClusterResolverProvider.isAvailable(context, other)).isFalse();
    assertThat(AzureClusterResolverProvider.isAvailable(context, dir.resolve("missing"))).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1000)); // no network wait
    // With the tag, one probe of the default IMDS (169.254.169.254: nothing answers here) within the probe timeout.
    java.nio.file.Path azureTag = java.nio.file.Files.writeString(dir.resolve("tag"), "7783-7084-3265-9085-8269-3286-77\n");
    start = System.nanoTime();
    assertThat(AzureClusterResolverProvider.isAvailable(context, azureTag)).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(context.probeTimeout().plusMillis(500));
  }

  @Test
  void detectionProbesImdsOnlyWithAHint() {
    azure.addTypical(0, 1, b -> b);
    // A probe timeout of seconds, not the default 90 ms: the machine running the tests may be loaded.
    ResolverContext hinted = ResolverContext.of(PropertySources.of(
        Map.of("clusterresolver.azure.imds-endpoint", azure.imdsEndpoint().toString()), Map.of(), Map.of(), Map.of()))
        .withProbeTimeout(Duration.ofSeconds(3));
    assertThat(new AzureClusterResolverProvider().isAvailable(hinted)).isFalse();
    azure.identifyAs(azure.resourceId(azure.vms().get(0)));
    assertThat(new AzureClusterResolverProvider().isAvailable(hinted)).isTrue();
    assertThat(azure.requests()).filteredOn(q -> q.action().equals("IMDS"))
        .allSatisfy(q -> {
          assertThat(q.header("Metadata")).isEqualTo("true");
          assertThat(q.parameters()).containsEntry("api-version", Imds.API_VERSION);
        });
  }

  @Test
  void hostsShareOneListingThroughTheRelay(@TempDir Path dir) throws Exception {
    AzureScenarios.mixedResourceGroup(azure, 330);
    Map<String, List<String>> expected = Expected.cluster(Expected.members(azure, AzureProviderTest::llm),
        vm -> "worker", Expected::privateIp);
    String relay = Loopback.freeAddress();
    azure.latency(Duration.ofMillis(100));
    azure.resetCounts();
    List<Callable<ClusterSpec>> hosts = new ArrayList<>();
    for (int h = 0; h < 6; h++) {
      hosts.add(AzureTestSupport.resolver(azure, "tags", "cluster=llm", "timeout", "30s", "relay", relay, "relay-secret", "0123456789abcdef-test-relay-secret",
          "relay-wait", "20s", "relay-max-age", "1m", "shared-listing-max-age", "1m", "relay-serve", Boolean.toString(h == 0),
          "shared-listing-dir", dir.resolve("host-" + h).toString())::clusterSpec);
    }
    assertThat(Together.call(hosts, Duration.ofSeconds(60)))
        .allSatisfy(spec -> assertThat(Expected.asMap(spec)).isEqualTo(expected));
    assertThat(azure.callCount("ListVirtualMachines")).as("one VM listing for six hosts")
        .isEqualTo(Expected.pages(azure.vms().size()));
  }
}
