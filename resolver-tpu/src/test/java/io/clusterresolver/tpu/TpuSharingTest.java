package io.clusterresolver.tpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.Resolution;
import io.clusterresolver.testkit.SimulatedTpu;
import io.clusterresolver.testkit.SimulatedTpuNode;
import io.clusterresolver.testkit.Together;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Processes of one TPU VM share one nodes.get, worker ports and accelerators included. */
class TpuSharingTest {

  private SimulatedTpu tpu;

  @BeforeEach
  void start() {
    tpu = SimulatedTpu.start();
  }

  @AfterEach
  void stop() {
    tpu.close();
  }

  @Test
  void twoResolversOnOneHostShareOneNodesGetAndAnotherNodeIsAskedForItself(@TempDir Path dir) throws Exception {
    tpu.add(SimulatedTpuNode.builder("pod").acceleratorType("v4-32").endpoint("10.130.0.7", 8470, null)
        .endpoint("10.130.0.5", 9999, null).endpoint("10.130.0.6", 0, null).endpoint("10.130.0.4", 8470, null).build());
    tpu.add(SimulatedTpuNode.builder("other").acceleratorType("v4-8").workers("10.131.0.1").build());
    tpu.identifyAs("pod", 1);
    tpu.latency(Duration.ofMillis(500));
    tpu.resetCounts();
    String shared = dir.toString();
    List<Callable<Resolution>> processes = List.of(
        TpuTestSupport.resolver(tpu, "pod", "shared-listing-dir", shared)::resolve,
        TpuTestSupport.resolver(tpu, "pod", "shared-listing-dir", shared)::resolve);

    List<Resolution> resolutions = Together.call(processes, Duration.ofSeconds(60));

    // The API's ports, a port of 0 taking the default 8470; v4-32 is 16 chips over 4 hosts; this VM is worker 1.
    assertThat(resolutions).allSatisfy(r -> {
      assertThat(r.clusterSpec().jobTasks("worker"))
          .containsExactly("10.130.0.7:8470", "10.130.0.5:9999", "10.130.0.6:8470", "10.130.0.4:8470");
      assertThat(r.taskId()).hasValue(1);
      assertThat(r.accelerators()).isEqualTo(Map.of("TPU", 4));
    });
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).as("one nodes.get for both processes").isEqualTo(1);

    // Another node is another query.
    assertThat(TpuTestSupport.resolver(tpu, "other", "shared-listing-dir", shared).clusterSpec().jobTasks("worker"))
        .containsExactly("10.131.0.1:8470");
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).isEqualTo(2);
  }
}
