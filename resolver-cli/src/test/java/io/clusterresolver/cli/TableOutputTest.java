package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TableOutputTest {

  @Test
  void listsEveryTaskInRankOrderAndMarksThisOne() {
    CliRun run = CliRun.run(Map.of(), "resolve", "--provider", "fixture", "--format", "table",
        "-D", "clusterresolver.fixture.hosts=h1,h2", "-D", "clusterresolver.fixture.tasks-per-host=2",
        "-D", "clusterresolver.fixture.task-type=worker", "-D", "clusterresolver.fixture.task-id=1",
        "-D", "clusterresolver.fixture.gpus=2");
    assertThat(run.code).as("%s", run).isZero();
    // The fixture puts the first task in chief and the rest in worker: h1:2222 | h1:2223, h2:2222, h2:2223.
    assertThat(run.out.lines()).containsExactly(
        "provider fixture, environment fixture, rpc layer grpc, 4 tasks",
        "   RANK  JOB     INDEX  ADDRESS  ACCELERATORS",
        "   0     chief   0      h1:2222",
        "   1     worker  0      h1:2223",
        "*  2     worker  1      h2:2222  GPU=2",
        "   3     worker  2      h2:2223");
  }
}
