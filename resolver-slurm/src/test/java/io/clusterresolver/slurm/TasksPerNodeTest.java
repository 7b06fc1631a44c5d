package io.clusterresolver.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TasksPerNodeTest {

  @Test
  void expandsCountsAndRepeats() {
    assertThat(TasksPerNode.expand("2")).containsExactly(2);
    assertThat(TasksPerNode.expand("2(x3),1")).containsExactly(2, 2, 2, 1);
    assertThat(TasksPerNode.expand("3(x2),2,11(x4)")).containsExactly(3, 3, 2, 11, 11, 11, 11);
    assertThat(TasksPerNode.expand("2(x1)")).containsExactly(2);
    assertThat(TasksPerNode.expand("0,1")).containsExactly(0, 1);
    assertThat(TasksPerNode.expand("8(x10000)")).hasSize(10_000);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "2(x)", "2 (x2)", "2(x2) ", " 2", "2,,3", "2(x-1)", "1.5", "1(2)", "2(x0)", "-1",
      "2(x3", "x", "99999999999",
      "\u0663", "2(x\u0663)"}) // D3: only ASCII digits, as Slurm writes them
  void rejectsMalformedLists(String list) {
    assertThatThrownBy(() -> TasksPerNode.expand(list))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + list + "'");
  }

  @Test
  void boundsTheNumberOfNodes() {
    assertThatThrownBy(() -> TasksPerNode.expand("1(x2000000000)"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than");
  }
}
