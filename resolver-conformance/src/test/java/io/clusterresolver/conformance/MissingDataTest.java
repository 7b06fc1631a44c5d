package io.clusterresolver.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/** A conformance directory with an area's file missing, or a file no area knows, fails: never a skip. */
class MissingDataTest {

  @TempDir
  Path dir;

  @AfterEach
  void restore() {
    System.clearProperty(ConformanceData.PROPERTY);
  }

  private void useDirectory() throws Exception {
    Files.writeString(dir.resolve("README.md"), "conformance data");
    System.setProperty(ConformanceData.PROPERTY, dir.toString());
  }

  private static void execute(DynamicNode node) throws Throwable {
    ((DynamicTest) node).getExecutable().execute();
  }

  @Test
  void anAbsentVectorFileFails() throws Exception {
    useDirectory();
    List<DynamicNode> nodes = VectorRunner.run(ClusterSpecConformanceTest.FILE, ClusterSpecConformanceTest::open)
        .collect(Collectors.toList());
    assertThat(nodes).hasSize(1);
    assertThatThrownBy(() -> execute(nodes.get(0))).isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("tf-vectors/clusterspec.json is not in");
  }

  @Test
  void absentSlurmCapturesAndHostlistsFail() throws Exception {
    useDirectory();
    List<DynamicNode> env = new SlurmEnvConformanceTest().slurmEnv().collect(Collectors.toList());
    assertThatThrownBy(() -> execute(env.get(0))).isInstanceOf(AssertionFailedError.class);
    List<DynamicNode> hostlist = new SlurmHostlistConformanceTest().slurmHostlist().collect(Collectors.toList());
    assertThatThrownBy(() -> execute(hostlist.get(0))).isInstanceOf(AssertionFailedError.class);
  }

  @Test
  void anUnknownFileFails() throws Exception {
    useDirectory();
    Files.createDirectories(dir.resolve("tf-vectors"));
    Files.writeString(dir.resolve("tf-vectors/frobnicate.json"), "{}");
    List<DynamicTest> tests = new InventoryTest().inventory().collect(Collectors.toList());
    DynamicTest unknown = tests.stream().filter(t -> t.getDisplayName().equals("tf-vectors/frobnicate.json"))
        .findFirst().orElseThrow();
    assertThatThrownBy(() -> unknown.getExecutable().execute()).isInstanceOf(AssertionFailedError.class)
        .hasMessageContaining("no conformance area handles tf-vectors/frobnicate.json");
  }
}
