package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.Resolution;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ClusterLayoutTest {

  private static Member m(String id, String address, long created) {
    return Member.builder(id, address).creationTime(Instant.ofEpochSecond(created)).build();
  }

  @Test
  void defaultOrderIsCreationTimeThenIdAndIndependentOfInputOrder() {
    List<Member> members = new ArrayList<>(List.of(
        m("i-c", "10.0.0.3", 100), m("i-b", "10.0.0.2", 50), m("i-a", "10.0.0.1", 100),
        Member.builder("i-0", "10.0.0.9").build()));
    ClusterSpec first = ClusterLayout.defaults().place(members).spec();
    Collections.reverse(members);
    ClusterSpec second = ClusterLayout.defaults().place(members).spec();
    assertThat(first.jobTasks("worker"))
        .containsExactly("10.0.0.2:8888", "10.0.0.1:8888", "10.0.0.3:8888", "10.0.0.9:8888");
    assertThat(second).isEqualTo(first);
  }

  @Test
  void addressOrderIsNumericWithIpv4BeforeIpv6BeforeNames() {
    List<Member> members = List.of(m("a", "10.0.0.10", 0), m("b", "10.0.0.9", 0), m("c", "fd00::2", 0),
        m("d", "fd00::10", 0), m("e", "node10", 0), m("f", "node2", 0), m("g", "9.255.255.255", 0));
    ClusterSpec spec = ClusterLayout.builder().order(MemberOrder.ADDRESS).build().place(members).spec();
    assertThat(spec.jobTasks("worker")).containsExactly("9.255.255.255:8888", "10.0.0.9:8888", "10.0.0.10:8888",
        "[fd00::2]:8888", "[fd00::10]:8888", "node2:8888", "node10:8888");
  }

  @Test
  void nameOrderIsNaturalAndTagOrderUsesIntegerValues() {
    List<Member> members = List.of(
        Member.builder("x", "h1").name("node10").label("rank", "10").build(),
        Member.builder("y", "h2").name("node9").label("rank", "9").build(),
        Member.builder("z", "h3").name("node100").label("rank", "-1").build());
    assertThat(ClusterLayout.builder().order(MemberOrder.parse("name")).build().place(members).spec()
        .jobTasks("worker")).containsExactly("h2:8888", "h1:8888", "h3:8888");
    assertThat(ClusterLayout.builder().order(MemberOrder.parse("tag:rank")).build().place(members).spec()
        .jobTasks("worker")).containsExactly("h3:8888", "h2:8888", "h1:8888");
  }

  @Test
  void tagOrderWithMissingOrNonIntegerValueFailsNamingTheMember() {
    ClusterLayout layout = ClusterLayout.builder().order(MemberOrder.byTag("rank")).build();
    assertThatThrownBy(() -> layout.place(List.of(
        Member.builder("i-1", "h1").label("rank", "1").build(), Member.builder("i-2", "h2").build())))
        .isInstanceOf(ClusterResolverException.class).hasMessageContaining("i-2").hasMessageContaining("rank");
    assertThatThrownBy(() -> layout.place(List.of(
        Member.builder("i-1", "h1").label("rank", "1").build(), Member.builder("i-2", "h2").label("rank", "x").build())))
        .isInstanceOf(ClusterResolverException.class).hasMessageContaining("'x'");
    assertThatThrownBy(() -> MemberOrder.parse("newest")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tag:KEY");
  }

  @Test
  void jobCountsTakeTasksInJobNameOrderAndRestFillsItsPlace() {
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      members.add(m("i-" + i, "10.0.0." + i, i));
    }
    ClusterSpec spec = ClusterLayout.builder().jobs(JobAssignment.parseCounts("chief:1,worker:*,ps:2"))
        .build().place(members).spec();
    // chief < ps < worker in code-point order: chief takes member 0, ps 1-2, worker (the rest) 3-4.
    assertThat(spec.jobTasks("chief")).containsExactly("10.0.0.0:8888");
    assertThat(spec.jobTasks("ps")).containsExactly("10.0.0.1:8888", "10.0.0.2:8888");
    assertThat(spec.jobTasks("worker")).containsExactly("10.0.0.3:8888", "10.0.0.4:8888");

    ClusterSpec exact = ClusterLayout.builder().jobs(JobAssignment.parseCounts("chief:1,worker:2"))
        .build().place(members).spec();
    assertThat(exact.totalTasks()).isEqualTo(3);

    assertThatThrownBy(() -> ClusterLayout.builder().jobs(JobAssignment.parseCounts("chief:1,worker:9"))
        .build().place(members))
        .isInstanceOf(ClusterResolverException.class).hasMessageContaining("need at least 10 tasks")
        .hasMessageContaining("provide 5");
  }

  @Test
  void jobCountsParsingRejectsBadInput() {
    assertThatThrownBy(() -> JobAssignment.parseCounts("chief")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("chief");
    assertThatThrownBy(() -> JobAssignment.parseCounts("a:*,b:*")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> JobAssignment.parseCounts("a:1,a:2")).hasMessageContaining("twice");
    assertThatThrownBy(() -> JobAssignment.parseCounts("a:-1")).hasMessageContaining("negative");
    assertThat(JobAssignment.parseCounts("chief:1, worker:*").toString()).isEqualTo("chief:1,worker:*");
  }

  @Test
  void emptyFleetGivesEmptyDeclaredJobs() {
    ClusterSpec spec = ClusterLayout.defaults().place(List.of()).spec();
    assertThat(spec.jobs()).containsExactly("worker");
    assertThat(spec.numTasks("worker")).isZero();
  }

  @Test
  void jobTagNamesJobsAndLeavesOutUntaggedMembers() {
    List<Member> members = List.of(
        Member.builder("i-1", "h1").creationTime(Instant.ofEpochSecond(1)).label("role", "ps").build(),
        Member.builder("i-2", "h2").creationTime(Instant.ofEpochSecond(2)).label("role", "worker").build(),
        Member.builder("i-3", "h3").creationTime(Instant.ofEpochSecond(3)).build(),
        Member.builder("i-4", "h4").creationTime(Instant.ofEpochSecond(4)).label("role", "worker").build());
    Placement placement = ClusterLayout.builder().jobs(JobAssignment.fromTag("role")).build().place(members);
    assertThat(placement.spec().asMap())
        .isEqualTo(Map.of("ps", List.of("h1:8888"), "worker", List.of("h2:8888", "h4:8888")));
    assertThat(placement.leftOut()).extracting(Member::id).containsExactly("i-3");
  }

  @Test
  void tasksPerAcceleratorUseConsecutivePortsAndShareAccelerators() {
    List<Member> members = List.of(
        Member.builder("i-1", "10.0.0.1").creationTime(Instant.ofEpochSecond(1)).accelerators("GPU", 4).build(),
        Member.builder("i-2", "fd00::1").creationTime(Instant.ofEpochSecond(2)).build());
    Placement placement = ClusterLayout.builder().tasksPerMember(TasksPerMember.parse("accelerator")).port(2222)
        .build().place(members);
    assertThat(placement.spec().jobTasks("worker")).containsExactly("10.0.0.1:2222", "10.0.0.1:2223",
        "10.0.0.1:2224", "10.0.0.1:2225", "[fd00::1]:2222");
    assertThat(placement.task("worker", 3).orElseThrow().accelerators()).isEqualTo(Map.of("GPU", 1));
    assertThat(placement.task("worker", 4).orElseThrow().accelerators()).isEmpty();
    assertThat(placement.tasksOn("i-1")).extracting(Placement.Task::localIndex).containsExactly(0, 1, 2, 3);

    Placement two = ClusterLayout.builder().tasksPerMember(TasksPerMember.fixed(2)).build().place(members);
    assertThat(two.task("worker", 0).orElseThrow().accelerators()).isEqualTo(Map.of("GPU", 2));
    assertThat(two.spec().numTasks("worker")).isEqualTo(4);
    assertThatThrownBy(() -> TasksPerMember.parse("0")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TasksPerMember.parse("gpu")).hasMessageContaining("accelerator");
  }

  @Test
  void selfMatchesIdFirstThenNameOrAddress() {
    List<Member> members = List.of(
        Member.builder("i-1", "10.0.0.1").creationTime(Instant.ofEpochSecond(1)).name("i-2").build(),
        Member.builder("i-2", "10.0.0.2").creationTime(Instant.ofEpochSecond(2)).build());
    Placement placement = ClusterLayout.defaults().place(members);
    assertThat(placement.self("i-2").orElseThrow().index()).isEqualTo(1);
    assertThat(placement.self("10.0.0.1").orElseThrow().index()).isEqualTo(0);
    assertThat(placement.self("i-9")).isEmpty();
    assertThat(placement.self(null)).isEmpty();
  }

  @Test
  void duplicateIdsAreAnError() {
    assertThatThrownBy(() -> ClusterLayout.defaults().place(List.of(m("i-1", "a", 1), m("i-1", "b", 2))))
        .isInstanceOf(ClusterResolverException.class).hasMessageContaining("i-1");
  }

  private static final ConfigProperty<String> TASKS = CloudProperties.tasksPerMember("tasks-per-instance");
  private static final List<ConfigProperty<?>> PROPS = CloudProperties.layout(TASKS);

  private static ClusterLayout fromConfig(ResolverConfig config) {
    List<String> problems = new ArrayList<>();
    ClusterLayout layout = ClusterLayout.fromConfig(config, TASKS, problems);
    if (!problems.isEmpty()) {
      throw ResolverConfig.problems("demo", problems);
    }
    return layout;
  }

  private static ResolverConfig config(Map<String, String> props) {
    return ResolverConfig.resolve("demo", PROPS, PropertySources.of(props, Map.of(), Map.of(), Map.of()));
  }

  @Test
  void fromConfigReadsSharedPropertiesAndReportsAllProblemsAtOnce() {
    ClusterLayout layout = fromConfig(config(Map.of(
        "clusterresolver.demo.order", "address", "clusterresolver.demo.jobs", "chief:1,worker:*",
        "clusterresolver.demo.tasks-per-instance", "2", "clusterresolver.demo.port", "2000")));
    assertThat(layout.order()).isSameAs(MemberOrder.ADDRESS);
    assertThat(layout.jobs().counts()).containsEntry("chief", 1);
    assertThat(layout.tasksPerMember().toString()).isEqualTo("2");
    assertThat(layout.port()).isEqualTo(2000);

    assertThatThrownBy(() -> fromConfig(config(Map.of(
        "clusterresolver.demo.order", "random", "clusterresolver.demo.jobs", "chief",
        "clusterresolver.demo.job-tag", "role", "clusterresolver.demo.tasks-per-instance", "lots"))))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("4 problems")
        .hasMessageContaining("clusterresolver.demo.order")
        .hasMessageContaining("clusterresolver.demo.tasks-per-instance")
        .hasMessageContaining("clusterresolver.demo.jobs")
        .hasMessageContaining("Set only one of");
  }

  @Test
  void memberResolverAsksTheSourceOnEveryCallAndFindsItself() {
    List<Member> fleet = new ArrayList<>(List.of(m("i-1", "10.0.0.1", 1), m("i-2", "10.0.0.2", 2)));
    AtomicInteger calls = new AtomicInteger();
    MemberClusterResolver resolver = MemberClusterResolver.builder("demo", () -> {
      calls.incrementAndGet();
      return List.copyOf(fleet);
    }).selfIdentity(() -> Optional.of("i-2")).environment("demo").build();

    assertThat(resolver.clusterSpec().numTasks("worker")).isEqualTo(2);
    assertThat(resolver.taskType()).contains("worker");
    assertThat(resolver.taskId()).hasValue(1);
    assertThat(resolver.master()).isEqualTo("grpc://10.0.0.2:8888");
    assertThat(resolver.master("worker", 0, "")).isEqualTo("10.0.0.1:8888");
    assertThat(resolver.environment()).isEqualTo("demo");

    fleet.add(0, m("i-0", "10.0.0.0", 0));
    assertThat(resolver.clusterSpec().numTasks("worker")).isEqualTo(3);
    assertThat(resolver.taskId()).hasValue(2);
    assertThat(calls.get()).isEqualTo(7);
    assertThatThrownBy(() -> resolver.numAccelerators("worker", 7)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void memberResolverOverridesWinAndUnknownSelfGivesEmptyMaster() {
    List<Member> fleet = List.of(
        Member.builder("i-1", "10.0.0.1").creationTime(Instant.ofEpochSecond(1)).accelerators("GPU", 8).build());
    MemberClusterResolver resolver = MemberClusterResolver.builder("demo", () -> fleet)
        .configure(config(Map.of("clusterresolver.demo.task-type", "worker", "clusterresolver.demo.task-id", "0",
            "clusterresolver.demo.rpc-layer", "")), TASKS, new ArrayList<>())
        .build();
    assertThat(resolver.master()).isEqualTo("10.0.0.1:8888");
    assertThat(resolver.numAccelerators()).isEqualTo(Map.of("GPU", 8));
    assertThat(resolver.rpcLayer()).isEmpty();

    MemberClusterResolver anonymous = MemberClusterResolver.builder("demo", () -> fleet).build();
    assertThat(anonymous.master()).isEmpty();
    assertThat(anonymous.taskType()).isEmpty();
    assertThat(anonymous.numAccelerators()).isEmpty();
    assertThat(anonymous.numAccelerators("worker", 0)).isEqualTo(Map.of("GPU", 8));
  }

  @Test
  void resolveListsOnceAndEveryPartComesFromThatListing() {
    // The fleet changes on every listing: a resolver that listed twice would mix two fleets.
    AtomicInteger calls = new AtomicInteger();
    MemberSource growing = () -> {
      int n = calls.incrementAndGet();
      List<Member> members = new ArrayList<>();
      for (int i = 0; i < n + 1; i++) {
        members.add(Member.builder("i-" + i, "10.0.0." + i).creationTime(Instant.ofEpochSecond(100 - i))
            .accelerators("GPU", i + 1).build());
      }
      return members;
    };
    MemberClusterResolver resolver = MemberClusterResolver.builder("demo", growing)
        .selfIdentity(() -> Optional.of("i-0")).build();

    Resolution r = resolver.resolve();

    assertThat(calls.get()).isEqualTo(1);
    // First listing: i-1 (created at 99) then i-0 (created at 100); this process is i-0 with 1 GPU.
    assertThat(r.clusterSpec().jobTasks("worker")).containsExactly("10.0.0.1:8888", "10.0.0.0:8888");
    assertThat(r.taskType()).contains("worker");
    assertThat(r.taskId()).hasValue(1);
    assertThat(r.accelerators()).isEqualTo(Map.of("GPU", 1));
    assertThat(r.rpcLayer()).contains("grpc");
    assertThat(r.master()).isEqualTo("grpc://10.0.0.0:8888");
  }

  @Test
  void jobCountsTakeTasksInJobNameOrderWhateverOrderTheyAreWritten() {
    List<Member> fleet = List.of(m("i-1", "10.0.0.1", 1), m("i-2", "10.0.0.2", 2), m("i-3", "10.0.0.3", 3));
    ClusterLayout layout = ClusterLayout.builder().jobs(JobAssignment.parseCounts("worker:*,ps:1")).build();
    ClusterSpec spec = layout.place(fleet).spec();
    // K8: jobs in code-point order, so ps (before worker) takes the first member.
    assertThat(spec.jobTasks("ps")).containsExactly("10.0.0.1:8888");
    assertThat(spec.jobTasks("worker")).containsExactly("10.0.0.2:8888", "10.0.0.3:8888");
  }

  @Test
  void ipv6MembersAreBracketedAndPortsPastTheRangeAreAConfigurationError() {
    Member v6 = Member.builder("i-1", "fd00::1").creationTime(Instant.ofEpochSecond(1)).build();
    assertThat(ClusterLayout.defaults().place(List.of(v6)).spec().jobTasks("worker")).containsExactly("[fd00::1]:8888");
    ClusterLayout high = ClusterLayout.builder().port(65535).tasksPerMember(TasksPerMember.fixed(2)).build();
    assertThatThrownBy(() -> high.place(List.of(v6)))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("65536");
    Member bad = Member.builder("i-2", "a b").creationTime(Instant.ofEpochSecond(1)).build();
    assertThatThrownBy(() -> ClusterLayout.defaults().place(List.of(bad)))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("i-2")
        .hasMessageContaining("a space");
  }
}
