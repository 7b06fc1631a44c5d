package io.clusterresolver.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.internal.PropertyTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalClusterResolverProviderTest {

  @TempDir
  Path bin;

  private ClusterResolver local(Map<String, String> properties, Map<String, String> environment) {
    return ClusterResolvers.create("local", properties, environment);
  }

  private void fakeNvidiaSmi(String script) throws Exception {
    Path smi = bin.resolve("nvidia-smi");
    Files.writeString(smi, "#!/bin/sh\n" + script + "\n");
    Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void thisHostAsOneWorker() {
    ClusterResolver resolver = local(Map.of(), Map.of("HOSTNAME", "node1", "PATH", ""));
    assertThat(resolver.clusterSpec()).isEqualTo(ClusterSpec.of(Map.of("worker", List.of("node1:8888"))));
    assertThat(resolver.taskType()).contains("worker");
    assertThat(resolver.taskId()).isEqualTo(OptionalInt.of(0));
    assertThat(resolver.master()).isEmpty();
    assertThat(resolver.master("worker", 0, "grpc")).isEqualTo("grpc://node1:8888");
    assertThat(resolver.numAccelerators()).isEmpty();
    assertThat(resolver.environment()).isEmpty();
  }

  @Test
  void propertiesChangeTheTask() {
    ClusterResolver resolver = local(Map.of(
        "clusterresolver.local.host", "10.0.0.5", "clusterresolver.local.port", "2222",
        "clusterresolver.local.job", "chief", "clusterresolver.local.rpc-layer", "grpc",
        "clusterresolver.local.gpus", "4"), Map.of());
    assertThat(resolver.clusterSpec().asMap()).isEqualTo(Map.of("chief", List.of("10.0.0.5:2222")));
    assertThat(resolver.master("chief", 0, null)).isEqualTo("grpc://10.0.0.5:2222");
    assertThat(resolver.numAccelerators()).isEqualTo(Map.of("GPU", 4));
    assertThatThrownBy(() -> resolver.master("worker", 0, null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void badPropertiesAreReportedTogether() {
    assertThatThrownBy(() -> local(Map.of("clusterresolver.local.port", "-1", "clusterresolver.local.gpus", "x"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clusterresolver.local.port").hasMessageContaining("clusterresolver.local.gpus");
  }

  @Test
  void countsGpusWithNvidiaSmiOnThePath() throws Exception {
    fakeNvidiaSmi("echo '0, NVIDIA A100'; echo '1, NVIDIA A100'");
    ClusterResolver resolver = local(Map.of(), Map.of("PATH", bin.toString(), "HOSTNAME", "h"));
    assertThat(resolver.numAccelerators()).isEqualTo(Map.of("GPU", 2));
    assertThat(resolver.numAccelerators("worker", 0)).isEqualTo(Map.of("GPU", 2));
  }

  @Test
  void cudaVisibleDevicesNarrowsTheGpus() throws Exception {
    fakeNvidiaSmi("echo '0, A'; echo '1, A'; echo '2, A'");
    assertThat(local(Map.of(), Map.of("PATH", bin.toString(), "CUDA_VISIBLE_DEVICES", "2")).numAccelerators())
        .isEqualTo(Map.of("GPU", 1));
    ClusterResolver none = local(Map.of(), Map.of("PATH", bin.toString(), "CUDA_VISIBLE_DEVICES", ""));
    assertThat(none.numAccelerators()).isEmpty();
    assertThat(none.visibleDevices()).contains(List.of());
  }

  @Test
  void aFailingOrHangingNvidiaSmiMeansNoGpus() throws Exception {
    fakeNvidiaSmi("echo 'NVIDIA-SMI has failed'; exit 9");
    assertThat(local(Map.of(), Map.of("PATH", bin.toString())).numAccelerators()).isEmpty();
    fakeNvidiaSmi("sleep 5");
    long start = System.nanoTime();
    assertThat(local(Map.of("clusterresolver.local.nvidia-smi-timeout", "200ms"), Map.of("PATH", bin.toString()))
        .numAccelerators()).isEmpty();
    assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(4_000);
  }

  @Test
  void readmeTableMatchesTheDeclarations() throws Exception {
    LocalClusterResolverProvider provider = new LocalClusterResolverProvider();
    assertThat(PropertyTable.verifyReadme(
        Path.of("README.md"), provider.name(), provider.properties(), Boolean.getBoolean("update.readme")))
        .isEmpty();
  }
}
