package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TableOutputTest {

  @Test
  void controlCharactersInJobNamesAreEscapedNotSentToTheTerminal() {
    // A job name with an ANSI "clear screen", a carriage return and a right-to-left override (issue 20).
    String job = "evil\u001b[2J\rfake\u202e";
    CliRun run = CliRun.run(Map.of("TF_CONFIG", "{\"cluster\": {\"" + job.replace("\u001b", "\\u001b")
        .replace("\r", "\\r").replace("\u202e", "\\u202e") + "\": [\"h1:2222\"]}}"), "resolve", "--format", "table");
    assertThat(run.code).as("%s", run).isZero();
    assertThat(run.out).doesNotContain("\u001b").doesNotContain("\r").doesNotContain("\u202e")
        .contains("evil\\u001b[2J\\u000dfake\\u202e");
  }

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
