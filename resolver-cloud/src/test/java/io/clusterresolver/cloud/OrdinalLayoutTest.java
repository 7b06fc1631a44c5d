package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import io.clusterresolver.cloud.internal.Listing;
import org.junit.jupiter.api.Test;

/**
 * A member's own port and ordinal, sparse jobs by ordinal, and the default task. Expected clusters
 * are written as TensorFlow writes them: {@code ClusterSpec({"worker": {0: "a:p", 2: "c:p"}})} is a
 * sparse job of two tasks with indices 0 and 2, and a task's address is its host and port.
 */
class OrdinalLayoutTest {

  private static Member pod(String name, String ip, Integer ordinal, long created) {
    Member.Builder b = Member.builder(name, ip).name(name).creationTime(Instant.ofEpochSecond(created));
    if (ordinal != null) {
      b.ordinal(ordinal);
    }
    return b.build();
  }

  private static final ClusterLayout BY_ORDINAL = ClusterLayout.builder().port(2222).indexByOrdinal().build();

  @Test
  void theOrdinalIsTheTaskIndexAndAMissingMemberLeavesAGap() {
    // StatefulSet trainer with pod 1 not ready: TF's {"worker": {0: ..., 2: ..., 3: ...}}.
    Placement p = BY_ORDINAL.place(List.of(pod("trainer-3", "10.0.0.4", 3, 1), pod("trainer-0", "10.0.0.1", 0, 9),
        pod("trainer-2", "10.0.0.3", 2, 5)));
    ClusterSpec expected = ClusterSpec.of(Map.of("worker",
        Map.of(0, "10.0.0.1:2222", 2, "10.0.0.3:2222", 3, "10.0.0.4:2222")));
    assertThat(p.spec()).isEqualTo(expected);
    assertThat(p.spec().taskIndices("worker")).containsExactly(0, 2, 3);
    assertThat(p.spec().numTasks("worker")).isEqualTo(3);
    assertThat(p.spec().jobTasks("worker")).containsExactly("10.0.0.1:2222", null, "10.0.0.3:2222", "10.0.0.4:2222");
    assertThatThrownBy(() -> p.spec().taskAddress("worker", 1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(p.renumbered()).isFalse();
    assertThat(p.task("worker", 2).map(t -> t.member().id())).contains("trainer-2");
  }

  @Test
  void aRepeatedOrMissingOrdinalNumbersTasksInMemberOrderAndSaysSo() {
    // Two StatefulSets both with pod 0: ordinal, then creation time, then id order; indices 0..n-1.
    Placement repeated = BY_ORDINAL.place(List.of(pod("b-0", "10.0.1.1", 0, 5), pod("a-0", "10.0.0.1", 0, 5),
        pod("a-1", "10.0.0.2", 1, 1)));
    assertThat(repeated.spec()).isEqualTo(ClusterSpec.of(Map.of("worker",
        List.of("10.0.0.1:2222", "10.0.1.1:2222", "10.0.0.2:2222"))));
    assertThat(repeated.renumbered()).isTrue();

    // A pod without an ordinal goes after those with one.
    Placement missing = BY_ORDINAL.place(List.of(pod("loose", "10.0.9.9", null, 0), pod("a-4", "10.0.0.5", 4, 9)));
    assertThat(missing.spec().jobTasks("worker")).containsExactly("10.0.0.5:2222", "10.0.9.9:2222");
    assertThat(missing.renumbered()).isTrue();

    // No ordinal anywhere: nothing to warn about.
    Placement none = BY_ORDINAL.place(List.of(pod("x", "10.0.0.2", null, 2), pod("y", "10.0.0.1", null, 1)));
    assertThat(none.spec().jobTasks("worker")).containsExactly("10.0.0.1:2222", "10.0.0.2:2222");
    assertThat(none.renumbered()).isFalse();
  }

  @Test
  void withAJobTagOrCountsOrdinalsOnlyOrderAndTasksAreDense() {
    List<Member> members = List.of(
        pod("w-3", "10.0.0.4", 3, 0).toBuilder().label("role", "worker").build(),
        pod("w-1", "10.0.0.2", 1, 0).toBuilder().label("role", "worker").build(),
        pod("c-0", "10.0.0.1", 0, 0).toBuilder().label("role", "chief").build());
    ClusterSpec tagged = ClusterLayout.builder().jobs(JobAssignment.fromTag("role")).indexByOrdinal().build()
        .place(members).spec();
    assertThat(tagged).isEqualTo(ClusterSpec.of(Map.of("chief", List.of("10.0.0.1:8888"),
        "worker", List.of("10.0.0.2:8888", "10.0.0.4:8888"))));
    ClusterSpec counted = ClusterLayout.builder().jobs(JobAssignment.parseCounts("chief:1,worker:*")).indexByOrdinal()
        .build().place(members).spec();
    assertThat(counted).isEqualTo(tagged);
  }

  @Test
  void withoutIndexByOrdinalOrdinalsStillOrderAndTasksAreDense() {
    ClusterSpec spec = ClusterLayout.builder().port(2222).build().place(List.of(pod("t-5", "10.0.0.6", 5, 0),
        pod("t-2", "10.0.0.3", 2, 9))).spec();
    assertThat(spec).isEqualTo(ClusterSpec.of(Map.of("worker", List.of("10.0.0.3:2222", "10.0.0.6:2222"))));
  }

  @Test
  void severalTasksPerMemberTakeConsecutiveIndicesFromTheOrdinal() {
    ClusterLayout layout = ClusterLayout.builder().port(2222).tasksPerMember(TasksPerMember.fixed(2)).indexByOrdinal()
        .build();
    ClusterSpec spec = layout.place(List.of(pod("t-0", "10.0.0.1", 0, 0), pod("t-2", "10.0.0.3", 2, 0))).spec();
    assertThat(spec).isEqualTo(ClusterSpec.of(Map.of("worker", Map.of(0, "10.0.0.1:2222", 1, "10.0.0.1:2223",
        4, "10.0.0.3:2222", 5, "10.0.0.3:2223"))));
    assertThatThrownBy(() -> ClusterLayout.builder().tasksPerMember(TasksPerMember.perAccelerator()).indexByOrdinal()
        .build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fixed number of tasks");
  }

  @Test
  void aMembersOwnPortWinsOverTheLayoutsAndItsLocalTasksCountFromIt() {
    List<Member> members = List.of(Member.builder("a", "10.0.0.1").creationTime(Instant.ofEpochSecond(1)).port(9000)
        .build(), Member.builder("b", "fd00::2").creationTime(Instant.ofEpochSecond(2)).build());
    ClusterSpec spec = ClusterLayout.builder().port(2222).tasksPerMember(TasksPerMember.fixed(2)).build()
        .place(members).spec();
    assertThat(spec.jobTasks("worker"))
        .containsExactly("10.0.0.1:9000", "10.0.0.1:9001", "[fd00::2]:2222", "[fd00::2]:2223");
    assertThatThrownBy(() -> Member.builder("a", "h").port(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Port 0");
    assertThatThrownBy(() -> Member.builder("a", "h").ordinal(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
  }

  @Test
  void portAndOrdinalAreValuesOfTheMember() {
    Member plain = Member.builder("a", "10.0.0.1").build();
    Member full = plain.toBuilder().port(9000).ordinal(3).build();
    assertThat(plain.port()).isEqualTo(OptionalInt.empty());
    assertThat(plain.ordinal()).isEqualTo(OptionalInt.empty());
    assertThat(full.port()).isEqualTo(OptionalInt.of(9000));
    assertThat(full.ordinal()).isEqualTo(OptionalInt.of(3));
    assertThat(full).isNotEqualTo(plain).isEqualTo(full.toBuilder().build());
    assertThat(full.hashCode()).isEqualTo(full.toBuilder().build().hashCode());
    assertThat(full.toBuilder().port(9001).build()).isNotEqualTo(full);
    assertThat(full.toString()).contains("port 9000").contains("ordinal 3");
  }

  @Test
  void aSharedListingKeepsPortAndOrdinal() throws Exception {
    List<Member> members = List.of(Member.builder("a", "10.0.0.1").port(9000).ordinal(3).build(),
        Member.builder("b", "10.0.0.2").build());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new Listing(1, 2, members).writeTo(new DataOutputStream(bytes), "q");
    Listing read = Listing.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), "q");
    assertThat(read.members()).isEqualTo(members);
  }

  // The default task, as TensorFlow's TPUClusterResolver: a process that is no worker of the node is
  // worker 0 (its master is worker 0); one that is a worker is its own index.

  private static final List<Member> WORKERS = List.of(
      Member.builder("0", "10.1.0.7").ordinal(0).accelerators("TPU", 4).build(),
      Member.builder("1", "10.1.0.5").ordinal(1).accelerators("TPU", 4).build(),
      Member.builder("2", "10.1.0.6").ordinal(2).accelerators("TPU", 4).build());

  private static MemberClusterResolver.Builder node(List<Member> workers, String identity) {
    return MemberClusterResolver.builder("tpu", () -> workers)
        .layout(ClusterLayout.builder().port(8470).indexByOrdinal().build())
        .selfIdentity(() -> Optional.ofNullable(identity))
        .defaultTask("worker", 0);
  }

  @Test
  void aProcessThatIsNoMemberIsTheDefaultTask() {
    MemberClusterResolver client = node(WORKERS, "10.128.0.99").build();
    Resolution r = client.resolve();
    assertThat(r.taskType()).contains("worker");
    assertThat(r.taskId()).hasValue(0);
    assertThat(r.accelerators()).isEqualTo(Map.of("TPU", 4));
    assertThat(client.master()).isEqualTo("grpc://10.1.0.7:8470");
    assertThat(client.taskType()).contains("worker");
    assertThat(client.taskId()).hasValue(0);
    assertThat(client.numAccelerators()).isEqualTo(Map.of("TPU", 4));

    MemberClusterResolver worker2 = node(WORKERS, "10.1.0.6").build();
    assertThat(worker2.resolve().taskId()).hasValue(2);
    assertThat(worker2.master()).isEqualTo("grpc://10.1.0.6:8470");
    assertThat(worker2.master("worker", 1, "http")).isEqualTo("http://10.1.0.5:8470");

    // Overrides win, each on its own.
    assertThat(node(WORKERS, "10.1.0.6").taskId(1).build().master()).isEqualTo("grpc://10.1.0.5:8470");
    assertThat(node(WORKERS, "10.1.0.6").taskType("chief").build().resolve().taskId()).hasValue(2);
    assertThatThrownBy(() -> node(WORKERS, null).taskId(7).build().numAccelerators())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("7");

    // Without a default task such a process has none.
    MemberClusterResolver plain = MemberClusterResolver.builder("gce", () -> WORKERS)
        .selfIdentity(() -> Optional.of("10.128.0.99")).build();
    assertThat(plain.resolve().taskType()).isEmpty();
    assertThat(plain.master()).isEmpty();
  }

  @Test
  void withADefaultTaskNoMemberAtAllMeansAloneWithNothingRemote() {
    AtomicInteger listings = new AtomicInteger();
    MemberClusterResolver local = MemberClusterResolver.builder("tpu", () -> {
      listings.incrementAndGet();
      return List.of();
    }).defaultTask("worker", 0).build();
    // TF's TPUClusterResolver('local'): an empty ClusterSpec, master '', task worker/0.
    assertThat(local.clusterSpec().isEmpty()).isTrue();
    assertThat(local.master()).isEmpty();
    assertThat(local.master("worker", 1, "http")).isEmpty();
    assertThat(local.numAccelerators()).isEmpty();
    Resolution r = local.resolve();
    assertThat(r.taskType()).contains("worker");
    assertThat(r.taskId()).hasValue(0);
    assertThat(local.taskId()).hasValue(0);
    int before = listings.get();
    assertThat(local.taskType()).as("one fixed job: known without a listing").contains("worker");
    assertThat(listings.get()).isEqualTo(before);

    // Without a default task an empty listing keeps its empty job, as before.
    assertThat(MemberClusterResolver.builder("gce", ArrayList::new).build().clusterSpec())
        .isEqualTo(ClusterSpec.builder().addEmptyJob("worker").build());
  }
}
