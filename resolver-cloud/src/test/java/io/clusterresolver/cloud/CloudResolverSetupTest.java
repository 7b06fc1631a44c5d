package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.cloud.internal.RelayServers;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.TaskProperties;
import io.clusterresolver.testkit.Loopback;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The provider skeleton as a provider uses it: problems, layout words, shared listings and the relay. */
class CloudResolverSetupTest {

  private static final ConfigProperty<String> ZONE = ConfigProperty.string("zone").build();
  private static final ConfigProperty<String> TOKEN = ConfigProperty.string("token").secret().build();
  private static final ConfigProperty<String> ENDPOINT = ConfigProperty.string("endpoint").build();
  private static final ConfigProperty<String> TASKS_PER_VM = CloudProperties.tasksPerMember("tasks-per-vm");
  private static final ConfigProperty<String> JOB_LABEL = ConfigProperty.string("job-label").build();

  /** A provider's declarations as the kit asks for them: its own, the layout, the sharing. */
  private static final List<ConfigProperty<?>> DECLARED = declare(List.of(ZONE, TOKEN, ENDPOINT),
      CloudProperties.layout(TASKS_PER_VM), CloudProperties.sharing());

  /** A provider with its own job tag and no {@code job} property (like gce). */
  private static final List<ConfigProperty<?>> LABELLED = declare(List.of(ZONE, JOB_LABEL, TASKS_PER_VM,
      CloudProperties.JOBS, CloudProperties.ORDER, CloudProperties.PORT, CloudProperties.TIMEOUT),
      TaskProperties.ALL, CloudProperties.sharing());

  @TempDir
  Path tmp;

  /** The cloud: three VMs, its listings counted. */
  private final AtomicInteger listings = new AtomicInteger();
  private final MemberSource cloud = () -> {
    listings.incrementAndGet();
    return List.of(vm("vm-1", "10.0.0.1", 1, "ps"), vm("vm-2", "10.0.0.2", 2, "worker"),
        vm("vm-3", "10.0.0.3", 3, "worker"));
  };

  @AfterEach
  void stopRelays() {
    RelayServers.stopAll();
  }

  @SafeVarargs
  private static List<ConfigProperty<?>> declare(List<ConfigProperty<?>>... parts) {
    List<ConfigProperty<?>> all = new ArrayList<>();
    for (List<ConfigProperty<?>> part : parts) {
      all.addAll(part);
    }
    return List.copyOf(all);
  }

  private static Member vm(String id, String address, long created, String role) {
    return Member.builder(id, address).creationTime(Instant.ofEpochSecond(created)).label("role", role).build();
  }

  private static ResolverConfig config(List<ConfigProperty<?>> declared, String... keyValues) {
    Map<String, String> properties = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      properties.put("clusterresolver.mycloud." + keyValues[i], keyValues[i + 1]);
    }
    return ResolverConfig.resolve("mycloud", declared, PropertySources.withEnvironment(properties, Map.of()));
  }

  /** A resolver as a factory builds it: the setup, the provider's own check, its source. */
  private MemberClusterResolver resolver(MemberSource source, String resolved, String... keyValues) {
    CloudResolverSetup setup = CloudResolverSetup.start(config(DECLARED, keyValues), DECLARED, TASKS_PER_VM);
    setup.endpoint(ENDPOINT);
    setup.requireValid();
    return setup.resolver(source, SelfIdentity.cached(() -> Optional.of("vm-2")), "mycloud", resolved);
  }

  /** {@link #resolver} sharing this test's listing folder, accepting listings up to an hour old. */
  private MemberClusterResolver sharing(String resolved, String... keyValues) {
    List<String> all = new ArrayList<>(List.of(keyValues));
    all.addAll(List.of("shared-listing-dir", tmp.resolve("listings").toString(), "shared-listing-max-age", "1h"));
    return resolver(cloud, resolved, all.toArray(new String[0]));
  }

  @Test
  void everyProblemIsReportedAtOnceNamingItsKey() {
    CloudResolverSetup setup = CloudResolverSetup.start(config(DECLARED, "endpoint", "ftp://x", "order", "shoe-size",
        "tasks-per-vm", "0", "timeout", "0s", "relay", "10.0.0.5:7777"), DECLARED, TASKS_PER_VM);
    assertThat(setup.endpoint(ENDPOINT)).isNull();
    setup.problems().add("clusterresolver.mycloud.zone is not set: set it, like z1"); // the provider's own
    assertThatThrownBy(setup::requireValid)
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("mycloud")
        .hasMessageContaining("clusterresolver.mycloud.endpoint: 'ftp://x' is not an http:// or https:// URL")
        .hasMessageContaining("clusterresolver.mycloud.order")
        .hasMessageContaining("clusterresolver.mycloud.tasks-per-vm")
        .hasMessageContaining("clusterresolver.mycloud.timeout")
        .hasMessageContaining("clusterresolver.mycloud.relay needs a secret")
        .hasMessageContaining("clusterresolver.mycloud.zone is not set");
  }

  /** A zone from {@code zone}, else MYCLOUD_ZONE, else the metadata server (answering {@code metadata}, asks counted). */
  private static String zone(CloudResolverSetup setup, Optional<String> metadata, AtomicInteger asked) {
    return setup.lookup(ZONE, "zone", "z1")
        .orEnvironment("MYCLOUD_ZONE", "OTHER_ZONE")
        .orMetadata("the metadata server", () -> {
          asked.incrementAndGet();
          return metadata;
        })
        .matching(java.util.regex.Pattern.compile("z[0-9]+"), "zone name (z and digits, like z1)");
  }

  private static CloudResolverSetup setup(Map<String, String> environment, String... keyValues) {
    Map<String, String> properties = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      properties.put("clusterresolver.mycloud." + keyValues[i], keyValues[i + 1]);
    }
    return CloudResolverSetup.start(ResolverConfig.resolve("mycloud", DECLARED,
        PropertySources.withEnvironment(properties, environment)), DECLARED, TASKS_PER_VM);
  }

  @Test
  void anotherPlaceIsAskedInItsTurnAndNamedInTheProblem() {
    AtomicInteger asked = new AtomicInteger();
    java.util.function.Function<CloudResolverSetup, String> zone = setup -> setup.lookup(ZONE, "zone", "z1")
        .orEnvironment("MYCLOUD_ZONE")
        .or("MYCLOUD_CONFIG (zone)", () -> Optional.ofNullable(setup.problems().isEmpty() ? "z4" : null))
        .orMetadata("the metadata server", () -> {
          asked.incrementAndGet();
          return Optional.of("z3");
        })
        .get();
    assertThat(zone.apply(setup(Map.of("MYCLOUD_ZONE", "z2")))).isEqualTo("z2");
    assertThat(zone.apply(setup(Map.of()))).isEqualTo("z4");
    assertThat(asked).hasValue(0);

    CloudResolverSetup nowhere = setup(Map.of());
    nowhere.problems().add("an earlier problem");
    assertThat(zone.apply(nowhere)).isNull();
    assertThat(asked).hasValue(0);
    assertThat(nowhere.problems()).containsExactly("an earlier problem", "clusterresolver.mycloud.zone is not set and"
        + " no zone was found in MYCLOUD_ZONE, MYCLOUD_CONFIG (zone) or the metadata server: set it, like z1");
  }

  @Test
  void aValueLeftToThePlatformComesFromThePropertyTheEnvironmentOrTheMetadataServerInThatOrder() {
    AtomicInteger asked = new AtomicInteger();
    assertThat(zone(setup(Map.of("MYCLOUD_ZONE", "z2"), "zone", "z1"), Optional.of("z3"), asked)).isEqualTo("z1");
    assertThat(zone(setup(Map.of("OTHER_ZONE", "z2")), Optional.of("z3"), asked)).isEqualTo("z2");
    assertThat(asked).hasValue(0);
    assertThat(zone(setup(Map.of()), Optional.of("z3"), asked)).isEqualTo("z3");
    assertThat(asked).hasValue(1);

    CloudResolverSetup nowhere = setup(Map.of());
    assertThat(zone(nowhere, Optional.empty(), asked)).isNull();
    assertThat(nowhere.problems()).containsExactly("clusterresolver.mycloud.zone is not set and no zone was found in"
        + " MYCLOUD_ZONE, OTHER_ZONE or the metadata server: set it, like z1");

    // A configuration already wrong gets its error without waiting on the metadata server.
    CloudResolverSetup wrong = setup(Map.of(), "order", "shoe-size");
    assertThat(zone(wrong, Optional.of("z3"), asked)).isNull();
    assertThat(asked).hasValue(2);
    assertThat(wrong.problems()).hasSize(2).last().asString().startsWith("clusterresolver.mycloud.zone is not set");

    CloudResolverSetup invalid = setup(Map.of("MYCLOUD_ZONE", "europe"));
    assertThat(zone(invalid, Optional.of("z3"), asked)).isNull();
    assertThat(invalid.problems())
        .containsExactly("clusterresolver.mycloud.zone: 'europe' is not a zone name (z and digits, like z1)");
  }

  @Test
  void aResolverNeedsTheConfigurationChecked() {
    CloudResolverSetup setup = CloudResolverSetup.start(config(DECLARED), DECLARED, TASKS_PER_VM);
    assertThatThrownBy(() -> setup.resolver(cloud, SelfIdentity.none(), "mycloud"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("requireValid()");
  }

  @Test
  void theLayoutAndTaskOverridesComeFromTheSharedProperties() {
    MemberClusterResolver resolver = resolver(cloud, "r", "job-tag", "role", "port", "2000", "tasks-per-vm", "2",
        "shared-listing", "false", "rpc-layer", "grpc+verbs");
    var resolution = resolver.resolve();
    assertThat(resolution.clusterSpec().jobTasks("ps")).containsExactly("10.0.0.1:2000", "10.0.0.1:2001");
    assertThat(resolution.clusterSpec().jobTasks("worker"))
        .containsExactly("10.0.0.2:2000", "10.0.0.2:2001", "10.0.0.3:2000", "10.0.0.3:2001");
    assertThat(resolution.taskType()).contains("worker"); // vm-2, by its identity
    assertThat(resolution.taskId()).hasValue(0);
    assertThat(resolver.master(null, null, null)).isEqualTo("grpc+verbs://10.0.0.2:2000");
    assertThat(resolver.environment()).isEqualTo("mycloud");
  }

  @Test
  void aProviderNamesItsOwnJobTag() {
    CloudResolverSetup labelled = CloudResolverSetup.start(config(LABELLED, "job-label", "role", "shared-listing",
        "false"), LABELLED, TASKS_PER_VM, JOB_LABEL);
    labelled.requireValid();
    assertThat(labelled.resolver(cloud, SelfIdentity.none(), "").clusterSpec().jobTasks("ps"))
        .containsExactly("10.0.0.1:8888");

    CloudResolverSetup unset = CloudResolverSetup.start(config(LABELLED, "shared-listing", "false"), LABELLED,
        TASKS_PER_VM, JOB_LABEL);
    unset.requireValid();
    assertThat(unset.resolver(cloud, SelfIdentity.none(), "").clusterSpec().jobTasks(ClusterLayout.DEFAULT_JOB))
        .hasSize(3);

    CloudResolverSetup both = CloudResolverSetup.start(config(LABELLED, "job-label", "role", "jobs", "ps:1,worker:*"),
        LABELLED, TASKS_PER_VM, JOB_LABEL);
    assertThatThrownBy(both::requireValid).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("Set only one of clusterresolver.mycloud.job-label and clusterresolver.mycloud.jobs");
  }

  @Test
  void anOrderOfTheProvidersOwnAppliesOnlyWhenOrderIsUnset() {
    MemberSource ranked = () -> List.of(
        Member.builder("vm-a", "10.0.0.1").creationTime(Instant.ofEpochSecond(1)).label("rank", "2").build(),
        Member.builder("vm-b", "10.0.0.2").creationTime(Instant.ofEpochSecond(2)).label("rank", "1").build());
    CloudResolverSetup byRank = CloudResolverSetup.start(config(DECLARED, "shared-listing", "false"), DECLARED,
        TASKS_PER_VM).orderUnlessSet(MemberOrder.byTag("rank"));
    byRank.requireValid();
    assertThat(byRank.resolver(ranked, SelfIdentity.none(), "").clusterSpec().jobTasks("worker"))
        .containsExactly("10.0.0.2:8888", "10.0.0.1:8888");

    CloudResolverSetup setByUser = CloudResolverSetup.start(config(DECLARED, "shared-listing", "false", "order",
        "creation-time"), DECLARED, TASKS_PER_VM).orderUnlessSet(MemberOrder.byTag("rank"));
    setByUser.requireValid();
    assertThat(setByUser.resolver(ranked, SelfIdentity.none(), "").clusterSpec().jobTasks("worker"))
        .containsExactly("10.0.0.1:8888", "10.0.0.2:8888");
  }

  @Test
  void processesShareAListingOnlyForTheSameDeclaredQueryAndSecretsStayHashed() throws IOException {
    String token = "s3cr3t-token-value-of-mycloud";
    sharing("eu", "zone", "z1", "token", token).clusterSpec();
    assertThat(listings).hasValue(1);
    // Another process of this job (another task): the same query, so the listing is shared.
    sharing("eu", "zone", "z1", "token", token, "task-type", "ps", "task-id", "0").clusterSpec();
    assertThat(listings).hasValue(1);
    // A declared property, a secret or a value found elsewhere that differs: another query, its own listing.
    sharing("eu", "zone", "z2", "token", token).clusterSpec();
    assertThat(listings).hasValue(2);
    sharing("eu", "zone", "z1", "token", "another-token-value-of-mycloud").clusterSpec();
    assertThat(listings).hasValue(3);
    sharing("us", "zone", "z1", "token", token).clusterSpec();
    assertThat(listings).hasValue(4);
    sharing("eu", "zone", "z1", "token", token, "port", "2000").clusterSpec();
    assertThat(listings).hasValue(5);

    List<Path> files;
    try (Stream<Path> list = Files.list(tmp.resolve("listings"))) {
      files = list.collect(Collectors.toList());
    }
    assertThat(files).isNotEmpty();
    for (Path file : files) {
      String content = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      assertThat(content).as(file.toString()).doesNotContain(token).doesNotContain("another-token");
    }
  }

  @Test
  void withSharedListingOffEveryResolveLists() {
    MemberClusterResolver resolver = resolver(cloud, "eu", "shared-listing", "false");
    resolver.clusterSpec();
    resolver.clusterSpec();
    assertThat(listings).hasValue(2);
  }

  @Test
  void aHostWithoutTheCloudGetsTheListingThroughTheRelay() {
    String relay = Loopback.freeAddress();
    MemberClusterResolver serving = resolver(cloud, "eu", "relay", relay, "relay-insecure", "true",
        "shared-listing", "false");
    assertThat(serving.clusterSpec().jobTasks("worker")).hasSize(3);
    MemberSource unreachable = () -> {
      throw new ClusterResolverException("mycloud: this host cannot list the cloud");
    };
    MemberClusterResolver asking = resolver(unreachable, "eu", "relay", relay, "relay-insecure", "true",
        "relay-serve", "false", "shared-listing", "false");
    assertThat(asking.clusterSpec().jobTasks("worker"))
        .containsExactly("10.0.0.1:8888", "10.0.0.2:8888", "10.0.0.3:8888");
    assertThat(listings).hasValue(2); // the relay listed for the asking host
  }

  /** A provider whose member is one task carrying its index (like kubernetes and tpu): no order, no tasks-per-member. */
  private static final List<ConfigProperty<?>> ONE_TASK = declare(List.of(ZONE, CloudProperties.PORT,
      CloudProperties.TIMEOUT), TaskProperties.ALL, CloudProperties.sharing());

  /** Three pods, ordinals 3, 0 and 2 (ordinal 1 is missing), created newest first. */
  private final MemberSource pods = () -> {
    listings.incrementAndGet();
    return List.of(pod("p-3", "10.0.0.3", 1, 3), pod("p-0", "10.0.0.1", 2, 0), pod("p-2", "10.0.0.2", 3, 2));
  };

  private static Member pod(String id, String address, long created, int ordinal) {
    return Member.builder(id, address).creationTime(Instant.ofEpochSecond(created)).ordinal(ordinal).build();
  }

  @Test
  void membersCarryingTheirIndexLeaveGapsAndAProcessOutsideTakesTheDefaultTask() {
    CloudResolverSetup setup = CloudResolverSetup.start(config(ONE_TASK, "port", "2222", "shared-listing", "false"),
        ONE_TASK).indexByOrdinal().defaultTask("worker", 0).description("three pods");
    setup.requireValid();
    MemberClusterResolver resolver = setup.resolver(pods, SelfIdentity.cached(() -> Optional.of("a-client")), "k");
    var resolution = resolver.resolve();
    // Ordinal i is task i: the missing ordinal 1 is a gap, not a renumbering of those after it.
    assertThat(resolution.clusterSpec().taskIndices("worker")).containsExactly(0, 2, 3);
    assertThat(resolution.clusterSpec().jobTasks("worker"))
        .containsExactly("10.0.0.1:2222", null, "10.0.0.2:2222", "10.0.0.3:2222");
    assertThat(resolution.taskType()).contains("worker"); // not a pod: TF's TPU client is worker 0
    assertThat(resolution.taskId()).hasValue(0);
    assertThat(resolver.toString()).contains("three pods");
  }

  @Test
  void withoutTheOrderPropertyTheMembersKeepTheLayoutsOrderAndTheTimeoutStaysUsable() {
    CloudResolverSetup setup = CloudResolverSetup.start(config(ONE_TASK, "timeout", "0s"), ONE_TASK);
    assertThat(setup.timeout()).isEqualTo(java.time.Duration.ofSeconds(30));
    assertThatThrownBy(setup::requireValid).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.mycloud.timeout: '0ms' must be positive");

    CloudResolverSetup plain = CloudResolverSetup.start(config(ONE_TASK, "timeout", "5s", "shared-listing", "false"),
        ONE_TASK);
    assertThat(plain.timeout()).isEqualTo(java.time.Duration.ofSeconds(5));
    plain.requireValid();
    // Members without an ordinal in creation-time order, the layout's default: vm-b (older) before vm-a.
    MemberSource unnumbered = () -> List.of(vm("vm-a", "10.0.0.1", 2, "worker"), vm("vm-b", "10.0.0.2", 1, "worker"));
    assertThat(plain.resolver(unnumbered, SelfIdentity.none(), "k").clusterSpec().jobTasks("worker"))
        .containsExactly("10.0.0.2:8888", "10.0.0.1:8888");
  }

  @Test
  void indexingByOrdinalWithATaskPerAcceleratorIsAProblemNamingTheProperty() {
    CloudResolverSetup setup = CloudResolverSetup.start(config(DECLARED, "tasks-per-vm", TasksPerMember.PER_ACCELERATOR),
        DECLARED, TASKS_PER_VM).indexByOrdinal();
    assertThatThrownBy(setup::requireValid).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.mycloud.tasks-per-vm");
  }

  @Test
  void anEmptyJobTagIsAProblemInTheProvidersWords() {
    CloudResolverSetup labelled = CloudResolverSetup.start(config(LABELLED, "job-label", " "), LABELLED, TASKS_PER_VM,
        JOB_LABEL);
    assertThatThrownBy(labelled::requireValid).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.mycloud.job-label is empty: name a label, like role");
  }

  @Test
  void anUnsharedResolverListsForItselfWhateverSharingSays() throws IOException {
    for (int i = 0; i < 2; i++) {
      CloudResolverSetup setup = CloudResolverSetup.start(config(ONE_TASK, "shared-listing-dir",
          tmp.resolve("listings").toString(), "shared-listing-max-age", "1h"), ONE_TASK);
      setup.requireValid();
      assertThat(setup.unsharedResolver(pods, SelfIdentity.none(), "k").clusterSpec().jobTasks("worker")).hasSize(3);
    }
    assertThat(listings).hasValue(2);
    if (Files.exists(tmp.resolve("listings"))) {
      try (Stream<Path> files = Files.list(tmp.resolve("listings"))) {
        assertThat(files).as("listing files").isEmpty();
      }
    }
  }

  @Test
  void noProviderImportsTheKitsInternals() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<String> offenders = new ArrayList<>();
    int providers = 0;
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.filter(m -> m.getFileName().toString().startsWith("resolver-")).sorted()
          .collect(Collectors.toList())) {
        String name = module.getFileName().toString();
        Path main = module.resolve("src/main/java");
        // The kit itself, and the CLI (ours: it serves a relay), may use them.
        if (name.equals("resolver-cloud") || name.equals("resolver-cli") || !Files.isDirectory(main)) {
          continue;
        }
        providers++;
        try (Stream<Path> files = Files.walk(main)) {
          for (Path file : files.filter(f -> f.toString().endsWith(".java")).collect(Collectors.toList())) {
            if (Files.readString(file).contains("io.clusterresolver.cloud.internal")) {
              offenders.add(root.relativize(file).toString());
            }
          }
        }
      }
    }
    assertThat(providers).as("modules scanned under " + root).isGreaterThanOrEqualTo(5);
    assertThat(offenders).as("main sources importing io.clusterresolver.cloud.internal").isEmpty();
  }
}
