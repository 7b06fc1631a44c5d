package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The kit declares the shared properties around a cloud's own ({@link CloudProperties#declarations}),
 * and the setup reads the layout by those declarations. The expected orders are the module READMEs':
 * gce's table, kubernetes' and tpu's (their shared rows as they stood before the kit placed them).
 */
class CloudDeclarationsTest {

  private static final ConfigProperty<String> ZONES = ConfigProperty.string("zones").description("z").build();
  private static final ConfigProperty<String> ADDRESS = CloudProperties.address(AddressType.PRIVATE_IPV4,
      AddressType.PRIVATE_IPV4);
  private static final ConfigProperty<String> ENDPOINT = CloudProperties.endpoint("API endpoint");
  private static final ConfigProperty<String> CREDENTIALS = ConfigProperty.string("credentials").description("c").build();
  private static final ConfigProperty<String> JOB_LABEL = CloudProperties.jobLabel("Label whose value is the job");
  private static final ConfigProperty<String> TASKS_PER_VM = CloudProperties.tasksPerMember("tasks-per-vm");

  /** The sharing rows every cloud README ends with. */
  private static final List<String> SHARING = List.of("shared-listing", "shared-listing-max-age",
      "shared-listing-dir", "relay", "relay-serve", "relay-max-age", "relay-wait", "relay-secret",
      "relay-secret-file", "relay-insecure");

  private static List<String> names(CloudProperties.Declarations declarations) {
    return declarations.all().stream().map(ConfigProperty::name).toList();
  }

  private static List<String> then(List<String> first, List<String> rest) {
    return java.util.stream.Stream.concat(first.stream(), rest.stream()).toList();
  }

  @Test
  void aPlainCloudsOwnComeFirstThenTheLayoutItsAccessTheLimitsAndSharing() {
    CloudProperties.Declarations d = CloudProperties.declarations(ZONES, ADDRESS).tasksPerMember(TASKS_PER_VM)
        .then(ENDPOINT, CREDENTIALS).build();

    assertThat(names(d)).containsExactlyElementsOf(then(List.of("zones", "address", "job", "job-tag", "jobs",
        "order", "tasks-per-vm", "port", "rpc-layer", "task-type", "task-id", "endpoint", "credentials", "timeout",
        "max-answer-mib"), SHARING));
    assertThat(d.jobTag()).isSameAs(CloudProperties.JOB_TAG);
    assertThat(d.tasksPerMember()).containsSame(TASKS_PER_VM);
    assertThat(d.indexByOrdinal()).isFalse();
    assertThat(d.all()).contains(CloudProperties.PORT, CloudProperties.TIMEOUT, CloudProperties.MAX_ANSWER_MIB)
        .containsAll(CloudProperties.sharing());
    assertThatThrownBy(() -> d.all().add(ZONES)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void gcesTableIsTheKitsOrder() {
    // resolver-gce/README.md, rows in order.
    CloudProperties.Declarations d = CloudProperties.declarations(ZONES, ADDRESS).jobTag(JOB_LABEL)
        .tasksPerMember(CloudProperties.tasksPerMember("tasks-per-instance")).then(ENDPOINT, CREDENTIALS).build();

    assertThat(names(d)).containsExactlyElementsOf(then(List.of("zones", "address", "job-label", "jobs", "order",
        "tasks-per-instance", "port", "rpc-layer", "task-type", "task-id", "endpoint", "credentials", "timeout",
        "max-answer-mib"), SHARING));
    assertThat(d.jobTag()).isSameAs(JOB_LABEL);
  }

  @Test
  void membersThatCarryTheirIndexDeclareNoOrderAndOneJobNoJobWords() {
    ConfigProperty<Integer> tpuPort = CloudProperties.port(8470, "Port of each worker");
    CloudProperties.Declarations pods = CloudProperties.declarations(ZONES).jobTag(JOB_LABEL).indexByOrdinal()
        .then(ENDPOINT).build();
    CloudProperties.Declarations workers = CloudProperties.declarations(ZONES).oneJob().indexByOrdinal()
        .port(tpuPort).then(ENDPOINT, CREDENTIALS).build();

    assertThat(names(pods)).containsExactlyElementsOf(then(List.of("zones", "job-label", "jobs", "port",
        "rpc-layer", "task-type", "task-id", "endpoint", "timeout", "max-answer-mib"), SHARING));
    assertThat(pods.indexByOrdinal()).isTrue();
    assertThat(pods.tasksPerMember()).isEmpty();
    assertThat(names(workers)).containsExactlyElementsOf(then(List.of("zones", "port", "rpc-layer", "task-type",
        "task-id", "endpoint", "credentials", "timeout", "max-answer-mib"), SHARING));
    assertThat(workers.all()).contains(tpuPort).doesNotContain(CloudProperties.PORT);
  }

  @Test
  void aSharedPropertyGivenAsTheCloudsOwnIsRefusedNamingIt() {
    assertThatThrownBy(() -> CloudProperties.declarations(ZONES, CloudProperties.port(1234, "mine")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'port'");
    assertThatThrownBy(() -> CloudProperties.declarations(ZONES).then(CloudProperties.TIMEOUT).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'timeout'");
  }

  private static ResolverConfig config(CloudProperties.Declarations declarations, String... keyValues) {
    Map<String, String> properties = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      properties.put("clusterresolver.mycloud." + keyValues[i], keyValues[i + 1]);
    }
    return ResolverConfig.resolve("mycloud", declarations.all(), PropertySources.withEnvironment(properties, Map.of()));
  }

  private static ClusterSpec resolve(CloudProperties.Declarations declarations, List<Member> members,
      String... keyValues) {
    CloudResolverSetup setup = CloudResolverSetup.start(config(declarations, keyValues), declarations);
    setup.requireValid();
    return setup.unsharedResolver(() -> members, SelfIdentity.cached(Optional::empty), "").clusterSpec();
  }

  private static Member member(String id, String address, long created, String role, Integer ordinal) {
    Member.Builder b = Member.builder(id, address).creationTime(Instant.ofEpochSecond(created)).label("role", role);
    return ordinal == null ? b.build() : b.ordinal(ordinal).build();
  }

  @Test
  void theSetupTakesTheJobLabelTheTasksPerMemberAndTheOrdinalsFromTheDeclarations() {
    List<Member> vms = List.of(member("b", "10.0.0.2", 2, "worker", null), member("a", "10.0.0.1", 1, "ps", null));
    CloudProperties.Declarations labelled = CloudProperties.declarations(ZONES).jobTag(JOB_LABEL)
        .tasksPerMember(TASKS_PER_VM).build();
    // TensorFlow's ClusterSpec({"ps": ["10.0.0.1:9000", "10.0.0.1:9001"], "worker": [...]}): job from the label,
    // two tasks per VM on consecutive ports.
    assertThat(resolve(labelled, vms, "job-label", "role", "tasks-per-vm", "2", "port", "9000"))
        .isEqualTo(ClusterSpec.of(Map.of("ps", List.of("10.0.0.1:9000", "10.0.0.1:9001"),
            "worker", List.of("10.0.0.2:9000", "10.0.0.2:9001"))));

    List<Member> pods = List.of(member("p-3", "10.0.0.4", 1, "w", 3), member("p-0", "10.0.0.1", 9, "w", 0));
    CloudProperties.Declarations byOrdinal = CloudProperties.declarations(ZONES).oneJob().indexByOrdinal().build();
    // A missing pod leaves a gap: {"worker": {0: ..., 3: ...}}.
    assertThat(resolve(byOrdinal, pods))
        .isEqualTo(ClusterSpec.of(Map.of("worker", Map.of(0, "10.0.0.1:8888", 3, "10.0.0.4:8888"))));
    // Declared with an order, ordinals still order the pods but leave no gap.
    CloudProperties.Declarations inOrder = CloudProperties.declarations(ZONES).oneJob().build();
    assertThat(resolve(inOrder, pods))
        .isEqualTo(ClusterSpec.of(Map.of("worker", List.of("10.0.0.1:8888", "10.0.0.4:8888"))));
  }

  @Test
  void aProblemOfTheDeclaredLayoutNamesTheDeclaredKey() {
    CloudProperties.Declarations d = CloudProperties.declarations(ZONES).jobTag(JOB_LABEL).indexByOrdinal()
        .tasksPerMember(TASKS_PER_VM).build();
    CloudResolverSetup blankLabel = CloudResolverSetup.start(config(d, "job-label", " "), d);
    assertThatThrownBy(blankLabel::requireValid).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.mycloud.job-label is empty: name a label");
    // By ordinal, one task per accelerator cannot be: the problem names the declared tasks-per-member key.
    CloudResolverSetup perAccelerator = CloudResolverSetup.start(config(d, "tasks-per-vm", "accelerator"), d);
    assertThatThrownBy(perAccelerator::requireValid).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.mycloud.tasks-per-vm");
    CloudProperties.Declarations ordered = CloudProperties.declarations(ZONES).jobTag(JOB_LABEL)
        .tasksPerMember(TASKS_PER_VM).build();
    CloudResolverSetup.start(config(ordered, "tasks-per-vm", "accelerator"), ordered).requireValid();
  }
}
