package io.clusterresolver.tpu;

import io.clusterresolver.testkit.Fault;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.Resolution;
import io.clusterresolver.testkit.LogCapture;
import io.clusterresolver.testkit.SimulatedTpu;
import io.clusterresolver.testkit.SimulatedTpuNode;
import io.clusterresolver.testkit.SimulatedTpuNode.State;
import io.clusterresolver.testkit.Together;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The tpu provider against a simulated Cloud TPU API and metadata server, through the real client. */
class TpuProviderTest {

  private SimulatedTpu tpu;

  @BeforeEach
  void start() {
    tpu = SimulatedTpu.start();
  }

  @AfterEach
  void stop() {
    tpu.close();
  }

  /** The expected workers from the simulated node's own endpoints, in its order. */
  private List<String> expectedWorkers(String node) {
    List<String> out = new ArrayList<>();
    for (SimulatedTpuNode.Endpoint e : tpu.node(node).endpoints()) {
      out.add(e.ipAddress() + ":" + e.port());
    }
    return out;
  }

  @Test
  void aV4PodSliceIsItsWorkersInApiOrderWithFourChipsPerHostFromOneCall() {
    tpu.add(SimulatedTpuNode.builder("pod").acceleratorType("v4-32")
        .workers("10.130.0.7", "10.130.0.5", "10.130.0.6", "10.130.0.4").build());
    tpu.identifyAs("pod", 2);
    tpu.resetCounts();

    Resolution r = TpuTestSupport.resolver(tpu, "pod").resolve();

    assertThat(r.clusterSpec().jobs()).containsExactly("worker");
    assertThat(r.clusterSpec().jobTasks("worker"))
        .containsExactly("10.130.0.7:8470", "10.130.0.5:8470", "10.130.0.6:8470", "10.130.0.4:8470")
        .isEqualTo(expectedWorkers("pod"));
    // v4-32: 32 TensorCores = 16 chips over 4 hosts.
    assertThat(r.accelerators()).isEqualTo(Map.of("TPU", 4));
    assertThat(r.taskType()).contains("worker");
    assertThat(r.taskId()).isEqualTo(OptionalInt.of(2));
    assertThat(r.environment()).isEqualTo("google");
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).isEqualTo(1);
    assertThat(tpu.callsWithoutToken()).as("credentials=none sends no token").isEqualTo(1);
  }

  @ParameterizedTest(name = "{0} with {1} worker(s): TPU {2} per host")
  @CsvSource({
      // type, workers, TPU per host (from the issue: TensorCores on v2/v3, chips on v4 and later;
      // a suffix of at most 8 is one host; 4 chips per host beyond)
      "v2-8, 1, 8",
      "v3-8, 1, 8",
      "v6e-8, 1, 8",
      "v4-8, 1, 4",
      "v5litepod-4, 1, 4",
      "v5litepod-16, 4, 4",
      "v5e-16, 4, 4",
      "v5p-16, 2, 4",
      "v3-32, 4, 8",
      "v2-32, 4, 8",
      "v6e-64, 16, 4",
      "v4-32, 4, 4",
      // more workers listed than divide the slice evenly: the per-host rule (4 chips, or 8 TensorCores)
      "v4-32, 3, 4",
      "v3-32, 3, 8"})
  void acceleratorsPerHost(String type, int workers, int perHost) {
    String[] ips = new String[workers];
    for (int i = 0; i < workers; i++) {
      ips[i] = "10.1.0." + (50 - i);
    }
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType(type).workers(ips).build());
    ClusterResolver resolver = TpuTestSupport.resolver(tpu, "n");
    assertThat(resolver.clusterSpec().numTasks("worker")).isEqualTo(workers);
    for (int i = 0; i < workers; i++) {
      assertThat(resolver.numAccelerators("worker", i)).isEqualTo(Map.of("TPU", perHost));
    }
  }

  @Test
  void theListedWorkersAreTheAuthoritativeHostCount() {
    // A v5litepod-16 (16 chips) that lists only 2 workers: 8 chips each, not the usual 4.
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType("v5litepod-16").workers("10.0.0.2", "10.0.0.1").build());
    assertThat(TpuTestSupport.resolver(tpu, "n").numAccelerators("worker", 1)).isEqualTo(Map.of("TPU", 8));
  }

  @Test
  void anUnknownAcceleratorTypeReportsNoTpuCount() {
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType("v9z-8").workers("10.0.0.2").build());
    assertThat(TpuTestSupport.resolver(tpu, "n").numAccelerators("worker", 0)).isEmpty();
  }

  @Test
  void masterIsWorkerZeroWithTheRpcLayerAndTheTaskOverridesWin() {
    tpu.add(SimulatedTpuNode.builder("pod").acceleratorType("v4-32")
        .workers("10.130.0.7", "10.130.0.5", "10.130.0.6", "10.130.0.4").build());
    // This VM is no worker of the node (the metadata server gives another IP): TensorFlow's task 0.
    tpu.identifyAs(null, -1);
    assertThat(TpuTestSupport.resolver(tpu, "pod").master()).isEqualTo("grpc://10.130.0.7:8470");
    assertThat(TpuTestSupport.resolver(tpu, "pod", "rpc-layer", "grpc+loas").master())
        .isEqualTo("grpc+loas://10.130.0.7:8470");
    assertThat(TpuTestSupport.resolver(tpu, "pod", "rpc-layer", "").master()).isEqualTo("10.130.0.7:8470");
    assertThat(TpuTestSupport.resolver(tpu, "pod", "task-id", "3").master()).isEqualTo("grpc://10.130.0.4:8470");
    assertThat(TpuTestSupport.resolver(tpu, "pod").master("worker", 1, "http")).isEqualTo("http://10.130.0.5:8470");
    assertThatThrownBy(() -> TpuTestSupport.resolver(tpu, "pod").master("worker", 4, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4");
  }

  @Test
  void portOverrideReplacesTheApiPortAndAMissingPortIs8470() {
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType("v4-16").endpoint("10.0.0.9", 0, null)
        .endpoint("10.0.0.8", 9999, "34.1.2.3").build());
    assertThat(TpuTestSupport.resolver(tpu, "n").clusterSpec().jobTasks("worker"))
        .containsExactly("10.0.0.9:8470", "10.0.0.8:9999");
    assertThat(TpuTestSupport.resolver(tpu, "n", "port", "2222").clusterSpec().jobTasks("worker"))
        .containsExactly("10.0.0.9:2222", "10.0.0.8:2222");
  }

  @ParameterizedTest
  @EnumSource(value = State.class, names = {"CREATING", "STARTING", "RESTARTING", "REPAIRING", "REIMAGING",
      "UNHIDING", "STATE_UNSPECIFIED", "UNKNOWN"})
  void aNodeNotReadyYetIsARetryableErrorNamingTheState(State state) {
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType("v4-32").state(state).workers("10.0.0.1").build());
    Throwable t = catchThrowable(() -> TpuTestSupport.resolver(tpu, "n").clusterSpec());
    assertThat(t).isExactlyInstanceOf(ClusterResolverException.class)
        .hasMessageContaining(state.name()).hasMessageContaining("retryable")
        .hasMessageContaining(tpu.resourceName("n")).hasMessageNotContaining("recreated");
    assertThat(((ClusterResolverException) t).isRetryable()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(value = State.class, names = {"PREEMPTED", "TERMINATED", "DELETING", "HIDING", "HIDDEN"})
  void aTerminalNodeIsANonRetryableErrorSayingItMustBeRecreatedEvenWithItsOldEndpoints(State state) {
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType("v5p-16").state(state).workers("10.0.0.1", "10.0.0.2").build());
    Throwable t = catchThrowable(() -> TpuTestSupport.resolver(tpu, "n").resolve());
    assertThat(t).isExactlyInstanceOf(ClusterResolverException.class)
        .hasMessageContaining(state.name()).hasMessageContaining("must be recreated")
        .hasMessageNotContaining("this is retryable");
    assertThat(((ClusterResolverException) t).isRetryable()).as("waiting cannot bring it back").isFalse();
  }

  @ParameterizedTest
  @EnumSource(value = State.class, names = {"STOPPED", "STOPPING"})
  void aStoppedNodeHasNoWorkersButStaysRetryableSinceItMayBeStartedAgain(State state) {
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType("v5p-16").state(state).workers("10.0.0.1", "10.0.0.2").build());
    Throwable t = catchThrowable(() -> TpuTestSupport.resolver(tpu, "n").resolve());
    assertThat(t).isExactlyInstanceOf(ClusterResolverException.class)
        .hasMessageContaining(state.name()).hasMessageContaining("started again").hasMessageNotContaining("10.0.0.1");
    assertThat(((ClusterResolverException) t).isRetryable()).isTrue();
  }

  @Test
  void readyButUnhealthyResolvesEveryWorkerAndWarnsWithTheDescription() {
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType("v4-16").health(SimulatedTpuNode.Health.UNHEALTHY_MAINTENANCE)
        .healthDescription("The TPU had a maintenance event at 2026-11-24T20:00:00Z").workers("10.0.0.2", "10.0.0.1")
        .build());
    try (LogCapture logs = new LogCapture()) {
      ClusterSpec spec = TpuTestSupport.resolver(tpu, "n").clusterSpec();
      assertThat(spec.jobTasks("worker")).isEqualTo(expectedWorkers("n"));
      assertThat(logs.messages()).anySatisfy(m -> assertThat(m).contains("UNHEALTHY_MAINTENANCE")
          .contains("The TPU had a maintenance event at 2026-11-24T20:00:00Z"));
    }
  }

  @Test
  void aResolverSaysTheUnhealthyWarningOnceThoughEveryResolveAsksTheApi() {
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType("v4-16").health(SimulatedTpuNode.Health.UNHEALTHY_MAINTENANCE)
        .healthDescription("The TPU had a maintenance event").workers("10.0.0.2", "10.0.0.1").build());
    try (LogCapture logs = new LogCapture()) {
      ClusterResolver resolver = TpuTestSupport.resolver(tpu, "n");
      int before = tpu.requests().size();
      resolver.clusterSpec();
      resolver.clusterSpec();
      assertThat(tpu.requests().size() - before).as("membership is never cached").isGreaterThanOrEqualTo(2);
      assertThat(logs.messages()).filteredOn(m -> m.contains("UNHEALTHY_MAINTENANCE")).hasSize(1);
    }
  }

  @Test
  void anUnknownNodeIsAConfigurationErrorNamingTheNodeAndLocation() {
    Throwable t = catchThrowable(() -> TpuTestSupport.resolver(tpu, "no-such-node").clusterSpec());
    assertThat(t).isInstanceOf(ConfigurationException.class).hasMessageContaining("no-such-node")
        .hasMessageContaining(tpu.zone()).hasMessageContaining(tpu.project())
        .hasMessageContaining("clusterresolver.tpu.name");
  }

  @Test
  void aFullResourceNameNeedsNoProjectOrZone() {
    tpu.put("other-project", "europe-west4-a", SimulatedTpuNode.builder("far").acceleratorType("v3-8")
        .workers("10.2.0.1").build());
    ClusterResolver r = TpuTestSupport.resolver(tpu, "projects/other-project/locations/europe-west4-a/nodes/far",
        "project", null, "zone", null);
    assertThat(r.clusterSpec().jobTasks("worker")).containsExactly("10.2.0.1:8470");
  }

  @Test
  void projectAndZoneDefaultToTheMetadataServer() {
    tpu.add(SimulatedTpuNode.builder("n").workers("10.0.0.1").build());
    ClusterResolver r = TpuTestSupport.resolver(tpu, "n", "project", null, "zone", null);
    assertThat(r.clusterSpec().jobTasks("worker")).containsExactly("10.0.0.1:8470");
    tpu.metadataDown(true);
    assertThatThrownBy(() -> TpuTestSupport.resolver(tpu, "n", "project", null, "zone", null))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.tpu.project")
        .hasMessageContaining("clusterresolver.tpu.zone");
  }

  @Test
  void withoutApiTheMetadataAttributesGiveTheSameAnswer() {
    tpu.add(SimulatedTpuNode.builder("pod").acceleratorType("v5litepod-16")
        .workers("10.130.0.7", "10.130.0.5", "10.130.0.6", "10.130.0.4").build());
    tpu.identifyAs("pod", 3);
    Resolution fromApi = TpuTestSupport.resolver(tpu, "pod").resolve();
    tpu.resetCounts();
    Resolution fromMetadata = TpuTestSupport.resolver(tpu, "pod", "api", "false").resolve();
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).isZero();
    assertThat(fromMetadata).isEqualTo(fromApi);
    assertThat(fromMetadata.taskId()).isEqualTo(OptionalInt.of(3));
    assertThat(fromMetadata.accelerators()).isEqualTo(Map.of("TPU", 4));
    // No name at all on a TPU VM: its own node.
    assertThat(TpuTestSupport.resolver(tpu, null).resolve()).isEqualTo(fromApi);
  }

  @Test
  void withoutApplicationDefaultCredentialsATpuVmReadsItsMetadata() {
    tpu.add(SimulatedTpuNode.builder("pod").acceleratorType("v4-16").workers("10.0.0.5", "10.0.0.4").build());
    tpu.identifyAs("pod", 1);
    tpu.resetCounts();
    // credentials unset: ADC, of which the test JVM has none (no key file, no gcloud login, NO_GCE_CHECK).
    ClusterResolver r = TpuTestSupport.resolver(tpu, "pod", "credentials", null);
    assertThat(r.clusterSpec().jobTasks("worker")).containsExactly("10.0.0.5:8470", "10.0.0.4:8470");
    assertThat(r.taskId()).isEqualTo(OptionalInt.of(1));
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).isZero();

    // Not on a TPU VM: no credentials is the user's to fix (exit 2), saying how.
    tpu.identifyAs(null, -1);
    Throwable t = catchThrowable(() -> TpuTestSupport.resolver(tpu, "pod", "credentials", null).clusterSpec());
    assertThat(t).isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.tpu.credentials");
  }

  @Test
  void withoutApiOffATpuVmTheErrorSaysWhatToSet() {
    tpu.identifyAs(null, -1);
    assertThat(catchThrowable(() -> TpuTestSupport.resolver(tpu, "pod", "api", "false").clusterSpec()))
        .isExactlyInstanceOf(ClusterResolverException.class).hasMessageContaining("worker-network-endpoints")
        .hasMessageContaining("clusterresolver.tpu.name");
  }

  @Test
  void metadataWorkersTakeThePortProperty() {
    tpu.add(SimulatedTpuNode.builder("pod").acceleratorType("v4-16").workers("10.0.0.5", "10.0.0.4").build());
    tpu.identifyAs("pod", 0);
    assertThat(TpuTestSupport.resolver(tpu, "pod", "api", "false", "port", "9000").clusterSpec().jobTasks("worker"))
        .containsExactly("10.0.0.5:9000", "10.0.0.4:9000");
  }

  @Test
  void ipv6WorkersAreBracketed() {
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType("v4-16").workers("fd20::5", "fd20::4").build());
    assertThat(TpuTestSupport.resolver(tpu, "n").clusterSpec().jobTasks("worker"))
        .containsExactly("[fd20::5]:8470", "[fd20::4]:8470");
  }

  @Test
  void aBadKubeEndpointListNamesTheVariable() {
    assertThatThrownBy(() -> TpuTestSupport.resolver(tpu, null,
        Map.of("KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS", "grpc://10.0.0.1:8470,grpc://bad host")))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS")
        .hasMessageContaining("bad host");
  }

  @Test
  void aServiceAccountKeyFileSignsInAtItsTokenUri(@TempDir Path dir) throws Exception {
    tpu.add(SimulatedTpuNode.builder("n").workers("10.0.0.1").build());
    tpu.requireToken(true);
    Path key = dir.resolve("key.json");
    String pem = TpuTestSupport.writeServiceAccountKey(tpu, key);
    ClusterResolver r = TpuTestSupport.resolver(tpu, "n", "credentials", key.toString());
    assertThat(r.clusterSpec().jobTasks("worker")).containsExactly("10.0.0.1:8470");
    assertThat(tpu.callCount(SimulatedTpu.TOKEN)).isEqualTo(1);
    assertThat(tpu.callsWithToken()).isEqualTo(1);
    assertThat(r.toString()).doesNotContain(pem.split("\n")[3]);

    // credentials=none against an API that requires a token: 401, named, exit 3.
    Throwable t = catchThrowable(() -> TpuTestSupport.resolver(tpu, "n").clusterSpec());
    assertThat(t).isExactlyInstanceOf(ClusterResolverException.class).hasMessageContaining("401")
        .hasMessageContaining("UNAUTHENTICATED").hasMessageContaining("check the credentials");
  }

  @Test
  void aMissingKeyFileIsAConfigurationErrorNamingTheKey() {
    assertThatThrownBy(() -> TpuTestSupport.resolver(tpu, "n", "credentials", "/no/such/key.json"))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.tpu.credentials")
        .hasMessageContaining("/no/such/key.json");
  }

  @Test
  void throttlingIsRetriedAndAPersistentFailureNamesStatusRequestIdAndAttempts() {
    tpu.add(SimulatedTpuNode.builder("n").workers("10.0.0.1").build());
    tpu.inject(Fault.throttled().times(2));
    tpu.resetCounts();
    assertThat(TpuTestSupport.resolver(tpu, "n").clusterSpec().jobTasks("worker")).containsExactly("10.0.0.1:8470");
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).isEqualTo(3);

    tpu.inject(Fault.serverError().always());
    Throwable t = catchThrowable(() -> TpuTestSupport.resolver(tpu, "n").clusterSpec());
    assertThat(t).isExactlyInstanceOf(ClusterResolverException.class).hasMessageContaining("tpu")
        .hasMessageContaining("nodes.get").hasMessageContaining("HTTP 500").hasMessageContaining("INTERNAL")
        .hasMessageContaining("request id").hasMessageNotContaining("request id (none)")
        .hasMessageContaining(TpuApi.MAX_ATTEMPTS + " attempts");
  }

  @Test
  void aBrokenAnswerIsNamedAndNeverAPartialCluster() {
    tpu.add(SimulatedTpuNode.builder("n").workers("10.0.0.1").build());
    tpu.inject(Fault.malformedBody().always());
    assertThat(catchThrowable(() -> TpuTestSupport.resolver(tpu, "n").clusterSpec()))
        .isExactlyInstanceOf(ClusterResolverException.class).hasMessageContaining("nodes.get")
        .hasMessageContaining("not the API's format");
    tpu.clearFaults().inject(Fault.connectionReset().always());
    assertThat(catchThrowable(() -> TpuTestSupport.resolver(tpu, "n").clusterSpec()))
        .isExactlyInstanceOf(ClusterResolverException.class).hasMessageContaining("nodes.get")
        .hasMessageContaining("clusterresolver.tpu.endpoint");
  }

  @Test
  void aSlowApiEndsAtTheTimeout() {
    tpu.add(SimulatedTpuNode.builder("n").workers("10.0.0.1").build());
    tpu.inject(Fault.slow(Duration.ofSeconds(5)).always());
    long start = System.nanoTime();
    Throwable t = catchThrowable(() -> TpuTestSupport.resolver(tpu, "n", "timeout", "700ms").clusterSpec());
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4));
    assertThat(t).isInstanceOf(ClusterResolverException.class).hasMessageContaining("tpu");
  }

  @Test
  void tensorFlowsVariablesNameTheWorkers() {
    tpu.add(SimulatedTpuNode.builder("env-node").workers("10.3.0.2", "10.3.0.1").build());
    // KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS wins over TPU_NAME; grpc:// entries, the port defaulting to 8470.
    ClusterResolver kube = TpuTestSupport.resolver(tpu, null, Map.of("KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS",
        "grpc://10.120.27.5:8470,grpc://10.120.27.6", "TPU_NAME", "env-node"));
    assertThat(kube.clusterSpec().jobTasks("worker")).containsExactly("10.120.27.5:8470", "10.120.27.6:8470");
    ClusterResolver byName = TpuTestSupport.resolver(tpu, null, Map.of("TPU_NAME", "env-node"));
    assertThat(byName.clusterSpec().jobTasks("worker")).isEqualTo(expectedWorkers("env-node"));
    ClusterResolver byConfig = TpuTestSupport.resolver(tpu, null, Map.of("TPU_CONFIG",
        "{\"tpu_node_name\": \"env-node\", \"project\": \"" + tpu.project() + "\", \"zone\": \"" + tpu.zone() + "\"}"),
        "project", null, "zone", null);
    assertThat(byConfig.clusterSpec().jobTasks("worker")).isEqualTo(expectedWorkers("env-node"));
    // The property wins over the variables.
    ClusterResolver property = TpuTestSupport.resolver(tpu, "grpc://10.0.0.1:1234",
        Map.of("TPU_NAME", "env-node"));
    assertThat(property.clusterSpec().jobTasks("worker")).containsExactly("10.0.0.1:1234");
    assertThatThrownBy(() -> TpuTestSupport.resolver(tpu, null, Map.of("TPU_CONFIG", "{not json")))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("TPU_CONFIG");
  }

  @Test
  void localIsAnEmptyClusterWithNothingRemote() {
    ClusterResolver local = TpuTestSupport.resolver(tpu, "local");
    assertThat(local.clusterSpec().isEmpty()).isTrue();
    assertThat(local.master()).isEmpty();
    assertThat(local.master("worker", 1, "http")).isEmpty();
    // TensorFlow's TPUClusterResolver: task_type = job_name ('worker'), task_id = 0, also for 'local'.
    assertThat(local.taskType()).contains("worker");
    assertThat(local.taskId()).hasValue(0);
    assertThat(local.resolve().taskType()).contains("worker");
    assertThat(local.resolve().taskId()).hasValue(0);
    assertThat(local.numAccelerators()).isEmpty();
    assertThat(tpu.callCount(SimulatedTpu.NODES_GET)).isZero();
  }

  @Test
  void noNameAnywhereAndNoTpuVmIsAConfigurationErrorAtCreation() {
    tpu.identifyAs(null, -1); // the metadata server answers, but describes no TPU VM
    assertThatThrownBy(() -> TpuTestSupport.resolver(tpu, null))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.tpu.name")
        .hasMessageContaining("TPU_NAME").hasMessageContaining(tpu.metadataEndpoint().toString());
    // no metadata server at all: the same, without waiting for a resolve
    assertThatThrownBy(() -> TpuTestSupport.resolver(tpu, null, "metadata-endpoint", "http://127.0.0.1:9"))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.tpu.name");
  }

  @Test
  void severalNodeNamesAreAnErrorOfTheirOwn() {
    assertThatThrownBy(() -> TpuTestSupport.resolver(tpu, "tpu-a,tpu-b"))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.tpu.name")
        .hasMessageContaining("several TPU nodes").hasMessageContaining("tpu-a,tpu-b");
  }

  @Test
  void invalidNamesAreRejectedNamingTheKey() {
    for (String bad : List.of("two words", "", "grpc://10.0.0.1:99999", "projects/p/nodes/x")) {
      assertThatThrownBy(() -> TpuTestSupport.resolver(tpu, bad), bad)
          .isInstanceOf(ConfigurationException.class).hasMessageContaining("clusterresolver.tpu.name");
    }
  }

  @Test
  void everyCallAsksAgain() {
    tpu.add(SimulatedTpuNode.builder("n").acceleratorType("v4-16").workers("10.0.0.2", "10.0.0.1").build());
    ClusterResolver r = TpuTestSupport.resolver(tpu, "n");
    assertThat(r.clusterSpec().numTasks("worker")).isEqualTo(2);
    tpu.setState("n", State.REPAIRING);
    assertThatThrownBy(r::clusterSpec).hasMessageContaining("REPAIRING");
    tpu.update("n", b -> b.state(State.READY).workers("10.0.0.3", "10.0.0.2", "10.0.0.1"));
    assertThat(r.clusterSpec().jobTasks("worker")).isEqualTo(expectedWorkers("n"));
  }

  @Test
  void detectionFollowsTensorFlowsVariablesAndStaysOffGoogleCloud() throws Exception {
    TpuClusterResolverProvider p = new TpuClusterResolverProvider();
    assertThat(p.isAvailable(io.clusterresolver.spi.ResolverContext.of(io.clusterresolver.spi.PropertySources.of(
        Map.of(), Map.of(), Map.of("TPU_NAME", "x"), Map.of())))).isTrue();
    tpu.add(SimulatedTpuNode.builder("pod").acceleratorType("v4-8").workers("10.0.0.1").build());
    tpu.identifyAs("pod", 0);
    assertThat(p.isAvailable(io.clusterresolver.spi.ResolverContext.of(io.clusterresolver.spi.PropertySources.of(
        Map.of("clusterresolver.tpu.metadata-endpoint", tpu.metadataEndpoint().toString()), Map.of(), Map.of(),
        Map.of())))).isTrue();
    tpu.identifyAs(null, -1);
    assertThat(p.isAvailable(io.clusterresolver.spi.ResolverContext.of(io.clusterresolver.spi.PropertySources.of(
        Map.of("clusterresolver.tpu.metadata-endpoint", tpu.metadataEndpoint().toString()), Map.of(), Map.of(),
        Map.of())))).isFalse();
    Files.exists(Path.of("/"));
  }

  /** GCE_METADATA_HOST names a metadata server as gce's detection reads it (Google's libraries read it so too). */
  @Test
  void detectionAsksTheServerGceMetadataHostNamesForTheAcceleratorType() {
    TpuClusterResolverProvider p = new TpuClusterResolverProvider();
    String host = "127.0.0.1:" + tpu.metadataEndpoint().getPort();
    tpu.add(SimulatedTpuNode.builder("pod").acceleratorType("v4-8").workers("10.0.0.1").build());
    tpu.identifyAs("pod", 0);
    assertThat(p.isAvailable(io.clusterresolver.spi.ResolverContext.of(io.clusterresolver.spi.PropertySources.of(
        Map.of(), Map.of(), Map.of("GCE_METADATA_HOST", host), Map.of())))).isTrue();
    tpu.identifyAs(null, -1);
    assertThat(p.isAvailable(io.clusterresolver.spi.ResolverContext.of(io.clusterresolver.spi.PropertySources.of(
        Map.of(), Map.of(), Map.of("GCE_METADATA_HOST", host), Map.of()))))
        .as("a Compute Engine VM that is not a TPU VM has no accelerator-type").isFalse();
  }

  /** Processes of one TPU VM share one nodes.get, worker ports and accelerators included. */
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
