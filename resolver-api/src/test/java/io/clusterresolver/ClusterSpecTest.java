package io.clusterresolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ClusterSpecTest {

  private static final ClusterSpec PS_WORKER = ClusterSpec.of(Map.of(
      "worker", List.of("w0:1", "w1:1", "w2:1"), "ps", List.of("p0:1", "p1:1")));

  @Test
  void accessorsOfDenseJobs() {
    assertThat(PS_WORKER.jobs()).containsExactly("ps", "worker");
    assertThat(PS_WORKER.numTasks("worker")).isEqualTo(3);
    assertThat(PS_WORKER.taskIndices("worker")).containsExactly(0, 1, 2);
    assertThat(PS_WORKER.taskAddress("ps", 1)).isEqualTo("p1:1");
    assertThat(PS_WORKER.jobTasks("worker")).containsExactly("w0:1", "w1:1", "w2:1");
    assertThat(PS_WORKER.totalTasks()).isEqualTo(5);
    assertThat(PS_WORKER.hasJob("ps")).isTrue();
    assertThat(PS_WORKER.hasJob("chief")).isFalse();
  }

  @Test
  void sparseJobsKeepTheirIndices() {
    Map<Integer, String> sparse = new LinkedHashMap<>();
    sparse.put(3, "w3:1");
    sparse.put(1, "w1:1");
    ClusterSpec spec = ClusterSpec.of(Map.of("worker", sparse));
    assertThat(spec.taskIndices("worker")).containsExactly(1, 3);
    assertThat(spec.jobTasks("worker")).containsExactly(null, "w1:1", null, "w3:1");
    assertThat(spec.asMap().get("worker")).isInstanceOf(SortedMap.class)
        .isEqualTo(new TreeMap<>(Map.of(1, "w1:1", 3, "w3:1")));
    assertThatThrownBy(() -> spec.taskAddress("worker", 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("worker").hasMessageContaining("0");
  }

  @Test
  void asMapGivesListsForDenseJobsAndSortedMapsOtherwise() {
    ClusterSpec spec = ClusterSpec.builder()
        .addJob("worker", List.of("a:1", "b:1"))
        .addTask("dense-as-map", 1, "y:1").addTask("dense-as-map", 0, "x:1")
        .addEmptyJob("empty")
        .build();
    Map<String, Object> map = spec.asMap();
    assertThat(map.get("worker")).isEqualTo(List.of("a:1", "b:1"));
    assertThat(map.get("dense-as-map")).isEqualTo(List.of("x:1", "y:1"));
    assertThat(map.get("empty")).isInstanceOf(SortedMap.class).isEqualTo(Map.of());
    assertThat(map.keySet()).containsExactly("dense-as-map", "empty", "worker");
    assertThatThrownBy(() -> map.put("x", List.of())).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void equalityIsByContent() {
    Map<String, Object> reversed = new LinkedHashMap<>();
    reversed.put("ps", Map.of(0, "p0:1", 1, "p1:1"));
    reversed.put("worker", List.of("w0:1", "w1:1", "w2:1"));
    ClusterSpec same = ClusterSpec.of(reversed);
    assertThat(same).isEqualTo(PS_WORKER).hasSameHashCodeAs(PS_WORKER);
    assertThat(ClusterSpec.of(Map.of("worker", List.of("w0:1")))).isNotEqualTo(ClusterSpec.of(Map.of("other", List.of("w0:1"))));
    assertThat(ClusterSpec.of(Map.of("w", List.of()))).isNotEqualTo(ClusterSpec.empty());
    assertThat(PS_WORKER).isNotEqualTo(PS_WORKER.asMap());
  }

  @Test
  void aJobWithoutTasksStillCounts() {
    ClusterSpec spec = ClusterSpec.of(Map.of("worker", List.of()));
    assertThat(spec.isEmpty()).isFalse();
    assertThat(spec.jobs()).containsExactly("worker");
    assertThat(spec.numTasks("worker")).isZero();
    assertThat(spec.jobTasks("worker")).isEmpty(); // D2: TensorFlow crashes here
    assertThat(ClusterSpec.of(Map.of()).isEmpty()).isTrue();
    assertThat(ClusterSpec.empty().jobs()).isEmpty();
  }

  @Test
  void jobsAreSortedByCodePoint() { // D1
    Map<String, Object> jobs = new LinkedHashMap<>();
    jobs.put("b", List.of("b:1"));
    jobs.put("a", List.of("a:1"));
    jobs.put("B", List.of("B:1"));
    jobs.put("wörker", List.of("x:1"));
    assertThat(ClusterSpec.of(jobs).jobs()).containsExactly("B", "a", "b", "wörker");
    // U+1F600 (a surrogate pair in UTF-16) sorts after U+FF5E by code point, not before it
    Map<String, Object> astral = new LinkedHashMap<>();
    astral.put("\uD83D\uDE00", List.of("x:1"));
    astral.put("\uFF5E", List.of("y:1"));
    assertThat(ClusterSpec.of(astral).jobs()).containsExactly("\uFF5E", "\uD83D\uDE00");
  }

  @Test
  void unknownJobOrTaskNamesIt() {
    assertThatThrownBy(() -> PS_WORKER.numTasks("chief"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'chief'");
    assertThatThrownBy(() -> PS_WORKER.taskAddress("worker", 7))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("7").hasMessageContaining("'worker'");
    assertThatThrownBy(() -> PS_WORKER.jobTasks("x")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PS_WORKER.taskIndices("x")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void typedInputsOnly() { // D3
    Map<String, Object> stringKeys = new HashMap<>();
    stringKeys.put("worker", Map.of("1", "w1:1"));
    assertThatThrownBy(() -> ClusterSpec.of(stringKeys))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("worker");
    assertThatThrownBy(() -> ClusterSpec.of(Map.of("worker", "w0:1")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'worker'");
    Map<String, Object> nullTasks = new HashMap<>();
    nullTasks.put("worker", null);
    assertThatThrownBy(() -> ClusterSpec.of(nullTasks)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ClusterSpec.of(Map.of("worker", List.of(1))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("worker");
    assertThatThrownBy(() -> ClusterSpec.of(Map.of("worker", Arrays.asList("a:1", null))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aTaskGivenTwiceIsAnError() {
    assertThatThrownBy(() -> ClusterSpec.builder().addTask("w", 1, "a:1").addTask("w", 1, "b:1"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1").hasMessageContaining("'w'");
    assertThatThrownBy(() -> ClusterSpec.builder().addTask("w", 2, "a:1").addTask("w", 0, "c:1")
        .addTask("w", 2, "b:1").build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void addJobContinuesAfterTheHighestIndex() {
    ClusterSpec spec = ClusterSpec.builder().addTask("w", 4, "e:1").addJob("w", List.of("f:1")).build();
    assertThat(spec.taskIndices("w")).containsExactly(4, 5);
  }

  @Test
  void extremeIndicesWork() {
    ClusterSpec spec = ClusterSpec.builder().addTask("w", Integer.MAX_VALUE, "big:1").addTask("w", -3, "neg:1").build();
    assertThat(spec.taskIndices("w")).containsExactly(-3, Integer.MAX_VALUE);
    assertThat(spec.taskAddress("w", Integer.MAX_VALUE)).isEqualTo("big:1");
    assertThatThrownBy(() -> spec.jobTasks("w")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void buildsAHundredThousandTasks() {
    List<String> addresses = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      addresses.add("10.0." + (i / 256) + "." + (i % 256) + ":8888");
    }
    ClusterSpec dense = ClusterSpec.builder().addJob("worker", addresses).build();
    assertThat(dense.numTasks("worker")).isEqualTo(100_000);
    assertThat(dense.taskAddress("worker", 99_999)).isEqualTo(addresses.get(99_999));

    ClusterSpec.Builder reversed = ClusterSpec.builder();
    for (int i = 99_999; i >= 0; i--) {
      reversed.addTask("worker", i, addresses.get(i));
    }
    ClusterSpec fromReversed = reversed.build();
    assertThat(fromReversed).isEqualTo(dense);
    assertThat(fromReversed.asMap().get("worker")).isEqualTo(addresses);
    assertThat(ClusterSpec.of(dense.asMap())).isEqualTo(dense);
  }
}
