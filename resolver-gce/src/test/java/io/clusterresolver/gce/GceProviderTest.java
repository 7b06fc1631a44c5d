package io.clusterresolver.gce;

import io.clusterresolver.testkit.Fault;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.Resolution;
import io.clusterresolver.testkit.GceScenarios;
import io.clusterresolver.testkit.LogCapture;
import io.clusterresolver.testkit.Loopback;
import io.clusterresolver.testkit.SimulatedGce;
import io.clusterresolver.testkit.SimulatedGceInstance;
import io.clusterresolver.testkit.Together;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gce provider with the real google-cloud-compute client against {@link SimulatedGce}. */
class GceProviderTest {

  SimulatedGce gce;

  @BeforeEach
  void start() {
    gce = SimulatedGce.start();
    MachineTypeGpus.clear();
  }

  @AfterEach
  void stop() {
    gce.close();
  }

  /**
   * How long a resolve may take where its time is not what a test asserts: far above what it needs even on a machine
   * at load 30, where a first call with a key file's token and RSA signature took over 5 s (the support's default).
   */
  private static final String UNHURRIED = "60s";

  /** {@link GceTestSupport#resolver}, with the {@link #UNHURRIED} timeout unless the test gives one. */
  private static ClusterResolver resolver(SimulatedGce gce, String... keyValues) {
    List<String> given = List.of(keyValues);
    for (int i = 0; i < given.size(); i += 2) {
      if (given.get(i).equals("timeout")) {
        return GceTestSupport.resolver(gce, keyValues);
      }
    }
    List<String> unhurried = new ArrayList<>(given);
    unhurried.addAll(List.of("timeout", UNHURRIED));
    return GceTestSupport.resolver(gce, unhurried.toArray(String[]::new));
  }

  /** GPUs of the simulation's catalog types used below (Compute Engine's documented counts). */
  private static int bundledGpus(String machineType) {
    switch (machineType) {
      case "a2-highgpu-1g":
        return 1;
      case "g2-standard-24":
        return 2;
      default:
        return 0;
    }
  }

  /** The expected members of {@code cluster=train}, computed from the fixture's own fields. */
  private static List<SimulatedGceInstance> expectedMembers(List<SimulatedGceInstance> all) {
    return all.stream()
        .filter(i -> "train".equals(i.labels().get("cluster")))
        .filter(i -> i.status().equals("RUNNING"))
        .filter(i -> !i.labels().containsKey("tpu_name") && !i.labels().containsKey("tpu_cores"))
        .filter(i -> i.networkIp().isPresent())
        .sorted(Comparator.comparing((SimulatedGceInstance i) -> i.creationTimestamp().toInstant())
            .thenComparing(i -> new BigInteger(i.idText())))
        .collect(Collectors.toList());
  }

  @Test
  void aLargeProjectIsTwoAggregatedListPagesAndTheExactCluster() {
    GceScenarios.largeProject(gce, 1200);
    List<SimulatedGceInstance> expected = expectedMembers(gce.instances());
    SimulatedGceInstance me = expected.get(345);
    gce.identifyAs(me.name());
    gce.resetCounts();

    Resolution r = resolver(gce, "labels", "cluster=train").resolve();

    assertThat(r.clusterSpec().jobs()).containsExactly("worker");
    assertThat(r.clusterSpec().jobTasks("worker"))
        .containsExactlyElementsOf(expected.stream().map(i -> i.networkIp().get() + ":8888").collect(Collectors.toList()));
    assertThat(r.taskType()).contains("worker");
    assertThat(r.taskId()).hasValue(345);
    int gpus = me.acceleratorCount() + bundledGpus(me.machineType());
    assertThat(r.accelerators()).isEqualTo(gpus == 0 ? Map.of() : Map.of("GPU", gpus));
    // Between 501 and 1,000 matching instances: two pages of at most 500.
    assertThat(gce.callCount("instances.aggregatedList")).isEqualTo(2);
    assertThat(gce.callCount("instances.get")).isZero();
    List<String> typeRequests = gce.requests().stream().filter(q -> q.operation().equals("machineTypes.get"))
        .map(SimulatedGce.RecordedRequest::path).collect(Collectors.toList());
    assertThat(typeRequests).doesNotHaveDuplicates().hasSizeLessThanOrEqualTo(8).isNotEmpty();
    SimulatedGce.RecordedRequest first = gce.requests().stream()
        .filter(q -> q.operation().equals("instances.aggregatedList")).findFirst().orElseThrow();
    assertThat(first.parameters()).containsEntry("maxResults", "500").containsEntry("returnPartialSuccess", "true")
        .containsEntry("filter", "(labels.cluster = \"train\") AND (status = \"RUNNING\")");

    // Membership is asked again; machine types are not (for the JVM).
    resolver(gce, "labels", "cluster=train").clusterSpec();
    assertThat(gce.callCount("instances.aggregatedList")).isEqualTo(4);
    assertThat(gce.callCount("machineTypes.get")).isEqualTo(typeRequests.size());
  }

  @Test
  void creationTimestampsAreComparedAsInstantsAcrossADaylightSavingChange() {
    // 01:30 EDT (05:30Z) is earlier than 01:10 EST (06:10Z), though its text sorts after it.
    gce.add(SimulatedGceInstance.builder("late", 2).networkIp("10.0.0.2")
            .creationTimestamp(OffsetDateTime.of(2025, 11, 2, 1, 10, 0, 0, ZoneOffset.ofHours(-5))).build(),
        SimulatedGceInstance.builder("early", 9).networkIp("10.0.0.9")
            .creationTimestamp(OffsetDateTime.of(2025, 11, 2, 1, 30, 0, 0, ZoneOffset.ofHours(-4))).build(),
        // Same instant as "late": the numeric id breaks the tie (20 before 100, though the text "100" sorts before "20").
        SimulatedGceInstance.builder("tie-big", 100).networkIp("10.0.0.100")
            .creationTimestamp(OffsetDateTime.of(2025, 11, 2, 6, 10, 0, 0, ZoneOffset.UTC)).build(),
        SimulatedGceInstance.builder("tie-small", 20).networkIp("10.0.0.20")
            .creationTimestamp(OffsetDateTime.of(2025, 11, 2, 7, 10, 0, 0, ZoneOffset.ofHours(1))).build());
    assertThat(resolver(gce).clusterSpec().jobTasks("worker"))
        .containsExactly("10.0.0.9:8888", "10.0.0.2:8888", "10.0.0.20:8888", "10.0.0.100:8888");
  }

  @Test
  void anUnreachableZoneInAPartialAnswerIsAnErrorNamingIt() {
    gce.addTypical(0, 3, b -> b.zone("us-east1-b"));
    gce.unreachable("europe-west4-a");
    assertThatThrownBy(() -> resolver(gce).clusterSpec()).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("zones/europe-west4-a").hasMessageContaining("gce");
    gce.reachable("europe-west4-a");
    assertThat(resolver(gce).clusterSpec().numTasks("worker")).isEqualTo(3);
  }

  @Test
  void instanceGroupModeIsOneGroupListingAndOneInstanceListingNeverOneGetPerMember() {
    gce.pageCap(200);
    gce.addTypical(0, 450, b -> b.zone("us-east1-b"));
    gce.addTypical(450, 20, b -> b.zone("us-east1-b").status("STOPPED"));
    List<String> members = new ArrayList<>();
    for (int i = 0; i < 470; i += 2) {
      members.add("vm-" + i);
    }
    gce.defineInstanceGroup("us-east1-b", "trainers", members);
    gce.resetCounts();

    List<String> tasks = resolver(gce, "instance-group", "trainers", "zones", "us-east1-b").clusterSpec()
        .jobTasks("worker");

    // Members are the group's running instances, in creation order (typical i is created at second i).
    List<String> expected = gce.instances().stream().filter(i -> members.contains(i.name()))
        .filter(i -> i.status().equals("RUNNING")).map(i -> i.networkIp().get() + ":8888").collect(Collectors.toList());
    assertThat(tasks).containsExactlyElementsOf(expected).hasSize(225);
    // 225 running members: 2 pages of 200; the zone's 450 running instances: 3 pages.
    assertThat(gce.callCount("instanceGroups.listInstances")).isEqualTo(2);
    assertThat(gce.callCount("instances.list")).isEqualTo(3);
    assertThat(gce.callCount("instances.get")).isZero();
    // (The first request of the resolve is the metadata server's identity, asked as the listing starts.)
    assertThat(gce.requests()).filteredOn(q -> q.operation().equals("instanceGroups.listInstances")).first()
        .extracting(SimulatedGce.RecordedRequest::body).asString().contains("\"instanceState\":\"RUNNING\"");
  }

  @Test
  void anEmptyGroupIsAnEmptyJob() {
    gce.addTypical(0, 2, b -> b.zone("us-east1-b"));
    gce.defineInstanceGroup("us-east1-b", "empty", List.of());
    ClusterResolver resolver = resolver(gce, "instance-group", "empty", "zones", "us-east1-b");
    assertThat(resolver.clusterSpec().jobs()).containsExactly("worker");
    assertThat(resolver.clusterSpec().numTasks("worker")).isZero();
    assertThat(gce.callCount("instances.list")).isZero();
  }

  @Test
  void orderByAddressIsNumeric() {
    gce.add(SimulatedGceInstance.typical(0).networkIp("10.2.0.1").build(),
        SimulatedGceInstance.typical(1).networkIp("10.10.0.1").build(),
        SimulatedGceInstance.typical(2).networkIp("9.0.0.1").build());
    assertThat(resolver(gce, "order", "address").clusterSpec().jobTasks("worker"))
        .containsExactly("9.0.0.1:8888", "10.2.0.1:8888", "10.10.0.1:8888");
  }

  @Test
  void aGroupMemberMissingFromTheListingIsAnErrorNamingIt() {
    gce.addTypical(0, 2, b -> b.zone("us-east1-b"));
    gce.defineInstanceGroup("us-east1-b", "trainers", List.of("vm-0", "vm-gone", "vm-1"));
    assertThatThrownBy(() -> resolver(gce, "instance-group", "trainers", "zones", "us-east1-b").clusterSpec())
        .isInstanceOf(ClusterResolverException.class).hasMessageContaining("vm-gone").hasMessageContaining("trainers");
  }

  @Test
  void zonesAreListedOneZoneEach() {
    gce.addTypical(0, 6, b -> b.zone("us-east1-b"));
    gce.addTypical(6, 4, b -> b.zone("us-east1-c"));
    gce.addTypical(10, 5, b -> b.zone("asia-east1-a"));
    gce.resetCounts();
    assertThat(resolver(gce, "zones", "us-east1-b,us-east1-c").clusterSpec().numTasks("worker")).isEqualTo(10);
    assertThat(gce.callCount("instances.list")).isEqualTo(2);
    assertThat(gce.callCount("instances.aggregatedList")).isZero();
  }

  @Test
  void addressesOfNic0AndMembersWithoutTheChosenOneLeftOutAndLoggedOnce() {
    gce.add(SimulatedGceInstance.typical(0).natIp("34.1.2.3").ipv6("2600:1900::1").otherNic("192.168.0.1").build(),
        SimulatedGceInstance.typical(1).build(),
        SimulatedGceInstance.typical(2).networkIp(null).ipv6("2600:1900::2").build());
    try (LogCapture logs = new LogCapture()) {
      ClusterResolver internal = resolver(gce);
      assertThat(internal.clusterSpec().jobTasks("worker")).containsExactly("10.128.0.0:8888", "10.128.0.1:8888");
      internal.clusterSpec();
      assertThat(logs.messages().stream().filter(m -> m.contains("vm-2"))).hasSize(1);
    }
    assertThat(resolver(gce, "address", "external").clusterSpec().jobTasks("worker")).containsExactly("34.1.2.3:8888");
    assertThat(resolver(gce, "address", "public-ipv4").clusterSpec().jobTasks("worker"))
        .containsExactly("34.1.2.3:8888");
    assertThat(resolver(gce, "address", "ipv6").clusterSpec().jobTasks("worker"))
        .containsExactly("[2600:1900::1]:8888", "[2600:1900::2]:8888");
  }

  @Test
  void tpuVmHostsAreNotMembersAndLabelsAreExact() {
    gce.add(SimulatedGceInstance.typical(0).label("cluster", "a").build(),
        SimulatedGceInstance.typical(1).label("cluster", "a").label("tpu_name", "pod").build(),
        SimulatedGceInstance.typical(2).label("cluster", "a").label("tpu_cores", "8").build(),
        SimulatedGceInstance.typical(3).label("cluster", "ab").build(),
        SimulatedGceInstance.typical(4).label("cluster", "a").status("STOPPED").build());
    assertThat(resolver(gce, "labels", "cluster=a").clusterSpec().jobTasks("worker")).containsExactly("10.128.0.0:8888");
    assertThat(resolver(gce, "labels", "cluster=a", "states", "running,stopped").clusterSpec().jobTasks("worker"))
        .containsExactly("10.128.0.0:8888", "10.128.0.4:8888");
  }

  @Test
  void gpusFromGuestAcceleratorsAndBundledMachineTypesAndJobLabels() {
    gce.add(SimulatedGceInstance.typical(0).machineType("a2-highgpu-8g").label("role", "chief").build(),
        SimulatedGceInstance.typical(1).machineType("n1-standard-8").guestAccelerators("nvidia-tesla-t4", 4)
            .label("role", "worker").build(),
        SimulatedGceInstance.typical(2).machineType("g2-standard-4").label("role", "worker").build(),
        SimulatedGceInstance.typical(3).build());
    ClusterResolver resolver = resolver(gce, "job-label", "role");
    assertThat(resolver.numAccelerators("chief", 0)).isEqualTo(Map.of("GPU", 8));
    assertThat(resolver.numAccelerators("worker", 0)).isEqualTo(Map.of("GPU", 4));
    assertThat(resolver.numAccelerators("worker", 1)).isEqualTo(Map.of("GPU", 1));
    assertThat(resolver.clusterSpec().jobs()).containsExactly("chief", "worker");
    assertThat(resolver(gce, "tasks-per-instance", "accelerator").clusterSpec().numTasks("worker"))
        .isEqualTo(8 + 4 + 1 + 1);
  }

  @Test
  void authorizationIsAbsentWithCredentialsNoneAndABearerTokenWithAKey(@TempDir Path dir) {
    gce.addTypical(0, 2, b -> b);
    gce.identifyAs("vm-1");
    assertThat(resolver(gce).resolve().taskId()).hasValue(1);
    assertThat(gce.requests()).filteredOn(q -> q.operation().startsWith("instances."))
        .isNotEmpty().allSatisfy(q -> assertThat(q.header("Authorization")).isNull());
    assertThat(gce.requests()).filteredOn(q -> q.operation().equals("metadata"))
        .isNotEmpty().allSatisfy(q -> assertThat(q.header("Metadata-Flavor")).isEqualTo("Google"));

    gce.resetCounts().requireAuthorization(true);
    assertThatThrownBy(() -> resolver(gce).clusterSpec()).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("HTTP 401");
    GceTestSupport.KeyFile key = new GceTestSupport.KeyFile(dir, gce);
    gce.resetCounts();
    assertThat(resolver(gce, "credentials", key.path.toString()).clusterSpec().numTasks("worker")).isEqualTo(2);
    assertThat(gce.callCount("oauth2.token")).isEqualTo(1);
    assertThat(gce.requests()).filteredOn(q -> q.operation().startsWith("instances."))
        .isNotEmpty().allSatisfy(q -> assertThat(gce.issuedTokens())
            .contains(q.header("Authorization").substring("Bearer ".length())));
  }

  @Test
  void throttlingIsRetriedWithinTheDeadlineAndPersistentThrottlingNamesTheReason() {
    gce.addTypical(0, 3, b -> b);
    gce.inject(Fault.throttled().status(429).times(2));
    assertThat(resolver(gce).clusterSpec().numTasks("worker")).isEqualTo(3);
    assertThat(gce.callCount("instances.aggregatedList")).isEqualTo(3);

    gce.inject(Fault.throttled().status(429).always());
    assertThatThrownBy(() -> resolver(gce).clusterSpec()).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("instances.aggregatedList (page 1)").hasMessageContaining("HTTP 429")
        .hasMessageContaining("rateLimitExceeded").hasMessageContaining("throttling");
  }

  @Test
  void computeEnginesRateQuotaAnswerIsThrottlingRetriedNotAPermissionError() {
    gce.addTypical(0, 3, b -> b);
    // Compute Engine answers a project over its per-minute quota with 403 rateLimitExceeded (usageLimits).
    gce.inject(Fault.throttled().times(2));
    assertThat(resolver(gce, "timeout", "20s").clusterSpec().numTasks("worker")).isEqualTo(3);
    assertThat(gce.callCount("instances.aggregatedList")).isEqualTo(3);

    gce.resetCounts();
    gce.inject(Fault.throttled().always());
    assertThatThrownBy(() -> resolver(gce, "timeout", "4s").clusterSpec()).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("instances.aggregatedList (page 1)").hasMessageContaining("HTTP 403 rateLimitExceeded")
        .hasMessageContaining("throttling").hasMessageNotContaining("check the credentials")
        .hasMessageContaining("after " + gce.callCount("instances.aggregatedList") + " attempts");
    assertThat(gce.callCount("instances.aggregatedList")).as("1 s, 2 s of backoff (jittered) within 4 s")
        .isBetween(2, 3);

    // A real permission error is still one: not retried, and it names the permissions.
    gce.clearFaults();
    gce.resetCounts();
    gce.inject(Fault.credentialsRejected());
    assertThatThrownBy(() -> resolver(gce).clusterSpec()).hasMessageContaining("check the credentials");
    assertThat(gce.callCount("instances.aggregatedList")).isEqualTo(1);
  }

  @Test
  void aFailedPageFailsTheResolveNeverAPartialCluster() {
    gce.pageCap(5);
    gce.addTypical(0, 12, b -> b);
    gce.inject(Fault.serverError().onPage(2).always());
    assertThatThrownBy(() -> resolver(gce).clusterSpec()).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("page 2").hasMessageContaining("HTTP 500").hasMessageContaining("backendError");
    gce.clearFaults();
    assertThat(resolver(gce).clusterSpec().numTasks("worker")).isEqualTo(12);
  }

  @Test
  void machineTypesAndTheIdentityAreAskedWhileThePagesComeAndTheirFailuresFailTheResolve() throws Exception {
    gce.pageCap(2);
    gce.add(SimulatedGceInstance.typical(0).machineType("a2-highgpu-8g").build(),
        SimulatedGceInstance.typical(1).build(), SimulatedGceInstance.typical(2).build(),
        SimulatedGceInstance.typical(3).machineType("g2-standard-4").build());
    gce.identifyAs(SimulatedGceInstance.typical(1).build().name());
    gce.inject(Fault.serverError().onOperation("instances.aggregatedList").onPage(2).always());
    assertThatThrownBy(() -> resolver(gce).resolve()).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("page 2").hasMessageContaining("HTTP 500");
    // Asked after the last page, the type on page 1 would not have been asked at all, nor the one never read.
    assertThat(gce.requests()).filteredOn(q -> q.operation().equals("machineTypes.get"))
        .extracting(SimulatedGce.RecordedRequest::path).singleElement().asString().endsWith("/a2-highgpu-8g");
    for (long end = System.nanoTime() + 60_000_000_000L; gce.callCount("metadata") == 0 && System.nanoTime() < end; ) {
      Thread.sleep(10); // the identity is asked on a thread of its own, which the failed resolve does not wait for
    }
    assertThat(gce.callCount("metadata")).as("the identity, asked when the listing started").isPositive();

    // A failed machine type fails the resolve, named, when its member's GPUs are taken; nothing of it is kept.
    MachineTypeGpus.clear();
    gce.clearFaults().resetCounts();
    gce.inject(Fault.serverError().onOperation("machineTypes.get").always());
    assertThatThrownBy(() -> resolver(gce).resolve()).isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("machineTypes.get").hasMessageContaining("HTTP 500");

    gce.clearFaults().resetCounts();
    Resolution r = resolver(gce).resolve();
    assertThat(r.taskId()).hasValue(1);
    assertThat(r.clusterSpec().numTasks("worker")).isEqualTo(4);
    assertThat(gce.callCount("machineTypes.get")).isEqualTo(2);
  }

  @Test
  void aGivenTaskAsksNoIdentity() {
    gce.addTypical(0, 3, b -> b);
    gce.identifyAs("vm-1");
    Resolution r = resolver(gce, "task-type", "worker", "task-id", "2").resolve();
    assertThat(r.taskId()).hasValue(2);
    assertThat(gce.callCount("metadata")).isZero();
  }

  @Test
  void brokenAnswersAreTypedErrors() {
    gce.addTypical(0, 2, b -> b);
    for (Fault fault : List.of(Fault.truncatedBody(), Fault.malformedBody(), Fault.connectionReset())) {
      gce.clearFaults().inject(fault.always());
      assertThatThrownBy(() -> resolver(gce).clusterSpec()).as("%s", fault)
          .isInstanceOf(ClusterResolverException.class).hasMessageContaining("instances.aggregatedList");
    }
    gce.clearFaults().inject(Fault.slow(Duration.ofSeconds(3)).always());
    assertThatThrownBy(() -> resolver(gce, "timeout", "1s").clusterSpec())
        .isInstanceOf(ClusterResolverException.class);
  }

  @Test
  void configurationMistakesNameTheKey() {
    assertThatThrownBy(() -> resolver(gce, "states", "RUNNING,SLEEPING")).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.gce.states").hasMessageContaining("SLEEPING");
    assertThatThrownBy(() -> resolver(gce, "zones", "us east1")).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.gce.zones");
    assertThatThrownBy(() -> resolver(gce, "instance-group", "g", "zones", "us-east1-b,us-east1-c"))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.gce.instance-group");
    assertThatThrownBy(() -> resolver(gce, "credentials", "/no/such/key.json")).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.gce.credentials");
    assertThatThrownBy(() -> resolver(gce, "labels", "Team=ML")).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.gce.labels");
    assertThatThrownBy(() -> resolver(gce, "jobs", "chief:1", "job-label", "role"))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.gce.job-label");
  }

  @Test
  void theProjectComesFromTheMetadataServerWhenUnset() {
    gce.addTypical(0, 1, b -> b);
    Map<String, String> p = new java.util.LinkedHashMap<>(GceTestSupport.properties(gce));
    p.put("clusterresolver.gce.timeout", UNHURRIED);
    p.remove("clusterresolver.gce.project");
    assertThat(io.clusterresolver.ClusterResolvers.create("gce", p, Map.of()).clusterSpec().numTasks("worker"))
        .isEqualTo(1);
  }

  @Test
  void detectionAsksANamedMetadataServerAndOnlyAGoogleOne() {
    GceClusterResolverProvider provider = new GceClusterResolverProvider();
    assertThat(provider.isAvailable(context(Map.of(), Map.of("GCE_METADATA_HOST", "127.0.0.1:" + gce.endpoint().getPort()))))
        .isTrue();
    assertThat(provider.isAvailable(context(Map.of("clusterresolver.gce.metadata-endpoint", gce.endpoint().toString()),
        Map.of()))).isTrue();
    gce.inject(Fault.malformedBody().onOperation(SimulatedGce.METADATA).always());
    assertThat(provider.isAvailable(context(Map.of(), Map.of("GCE_METADATA_HOST", "127.0.0.1:" + gce.endpoint().getPort()))))
        .as("a 200 without Metadata-Flavor: Google is not the metadata server").isFalse();
    if (!java.nio.file.Files.exists(GceClusterResolverProvider.DMI_PRODUCT_NAME)
        || !io.clusterresolver.cloud.PlatformProbes.fileContains(GceClusterResolverProvider.DMI_PRODUCT_NAME, "Google")) {
      assertThat(provider.isAvailable(context(Map.of(), Map.of()))).isFalse();
    }
  }

  private static io.clusterresolver.spi.ResolverContext context(Map<String, String> properties, Map<String, String> env) {
    return io.clusterresolver.spi.ResolverContext.of(
        io.clusterresolver.spi.PropertySources.of(properties, Map.of(), env, Map.of()));
  }

  @Test
  void withoutCredentialsApplicationDefaultCredentialsAreAskedAndTheirAbsenceIsAConfigurationError() {
    org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("GOOGLE_APPLICATION_CREDENTIALS") == null
        && !java.nio.file.Files.exists(Path.of(System.getProperty("user.home"), ".config", "gcloud",
            "application_default_credentials.json")), "this machine has Application Default Credentials");
    gce.addTypical(0, 1, b -> b);
    Map<String, String> p = new java.util.LinkedHashMap<>(GceTestSupport.properties(gce));
    p.put("clusterresolver.gce.timeout", UNHURRIED);
    p.remove("clusterresolver.gce.credentials");
    assertThatThrownBy(() -> io.clusterresolver.ClusterResolvers.create("gce", p, Map.of()).clusterSpec())
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.gce.credentials");
    assertThat(gce.callCount("instances.aggregatedList")).isZero();
  }

  @Test
  void hostsShareOneListingThroughTheRelayAndAnotherQueryListsForItself(@TempDir Path dir) throws Exception {
    GceScenarios.largeProject(gce, 1200);
    List<SimulatedGceInstance> members = expectedMembers(gce.instances());
    String relay = Loopback.freeAddress();
    gce.latency(Duration.ofMillis(150));
    gce.resetCounts();
    List<Callable<ClusterSpec>> hosts = new ArrayList<>();
    for (int h = 0; h < 8; h++) {
      hosts.add(resolver(gce, "labels", "cluster=train", "timeout", "90s", "relay", relay, "relay-secret", "0123456789abcdef-test-relay-secret", "relay-wait", "60s",
          "relay-max-age", "1m", "shared-listing-max-age", "1m",
          "relay-serve", Boolean.toString(h == 0), "shared-listing-dir", dir.resolve("host-" + h).toString())::clusterSpec);
    }
    // Generous waits: a host that gave up waiting for the relay would list for itself, and the count of listings
    // below would then measure the machine's load, not the relay.
    assertThat(Together.call(hosts, Duration.ofSeconds(180))).allSatisfy(spec -> assertThat(spec.jobTasks("worker"))
        .containsExactlyElementsOf(members.stream().map(i -> i.networkIp().get() + ":8888").collect(Collectors.toList())));
    assertThat(gce.callCount("instances.aggregatedList")).as("one listing of two pages for eight hosts").isEqualTo(2);

    // Another order is another query: the relay does not answer it, the host lists for itself.
    ClusterSpec byId = resolver(gce, "labels", "cluster=train", "order", "id", "relay", relay, "relay-secret", "0123456789abcdef-test-relay-secret", "relay-serve", "false",
        "shared-listing-dir", dir.resolve("host-9").toString()).clusterSpec();
    assertThat(byId.jobTasks("worker")).containsExactlyElementsOf(members.stream()
        .sorted(Comparator.comparing(i -> new BigInteger(i.idText()))).map(i -> i.networkIp().get() + ":8888")
        .collect(Collectors.toList()));
    assertThat(gce.callCount("instances.aggregatedList")).isEqualTo(4);
  }
}
