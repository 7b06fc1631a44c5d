package io.clusterresolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code resolve --provider kubernetes} against a simulated API server: the exact cluster from a
 * paged listing, a rotated token picked up while the command runs, and a 403 that prints the RBAC
 * rule to apply. Expected clusters are computed here from the simulated pods' own fields.
 */
class KubernetesResolveCommandTest {

  private static final Instant T0 = Instant.parse("2025-05-01T00:00:00Z");

  private SimulatedKubernetes k8s;
  @TempDir
  Path serviceAccount;
  private String token;

  @BeforeEach
  void start() throws Exception {
    k8s = SimulatedKubernetes.start();
    token = "eyJhbGciOiJSUzI1NiJ9.cli-" + System.nanoTime();
    Files.writeString(serviceAccount.resolve("token"), token, StandardCharsets.UTF_8);
    Files.writeString(serviceAccount.resolve("namespace"), "ml", StandardCharsets.UTF_8);
    k8s.acceptTokens(Map.of(token, "system:serviceaccount:ml:trainer"));
  }

  @AfterEach
  void stop() {
    k8s.close();
  }

  private String[] args(String... more) {
    List<String> args = new ArrayList<>(List.of("resolve", "--provider", "kubernetes",
        "-D", "clusterresolver.kubernetes.endpoint=" + k8s.endpoint(),
        "-D", "clusterresolver.kubernetes.token-file=" + serviceAccount.resolve("token"),
        "-D", "clusterresolver.kubernetes.selector=app=trainer",
        "-D", "clusterresolver.kubernetes.port-name=grpc"));
    args.addAll(List.of(more));
    return args.toArray(new String[0]);
  }

  private void rotate(String newToken) throws Exception {
    Path tmp = Files.createTempFile(serviceAccount, "token", ".tmp");
    Files.writeString(tmp, newToken, StandardCharsets.UTF_8);
    Files.move(tmp, serviceAccount.resolve("token"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void theExactSparseClusterOfA1200PodStatefulSetInThreeListCalls() throws Exception {
    List<SimulatedPod> pods = new ArrayList<>();
    for (int i = 0; i < 1203; i++) {
      if (i == 17 || i == 600 || i == 1101) {
        continue; // deleted pods: the StatefulSet has gaps
      }
      SimulatedPod.Builder b = SimulatedPod.builder("ml", "trainer-" + i).statefulSet("trainer", i)
          .label("app", "trainer").created(T0.plusSeconds(1203 - i)).podIps("10.20." + (i / 200) + "." + (i % 200 + 1))
          .hostIp("192.168.50." + (i % 8 + 1)).port("grpc", 2222).port("metrics", 9090);
      if (i % 97 == 5) {
        b.ready(false);
      } else if (i % 89 == 7) {
        b.terminating(T0.plusSeconds(9000));
      } else if (i % 151 == 9) {
        b.phase("Pending").podIps();
      }
      pods.add(b.build());
    }
    for (int i = 0; i < 20; i++) {
      pods.add(SimulatedPod.builder("other", "trainer-" + i).statefulSet("trainer", i).label("app", "trainer")
          .podIps("10.99.0." + (i + 1)).port("grpc", 2222).build());
      pods.add(SimulatedPod.builder("ml", "web-" + i).statefulSet("web", i).label("app", "web")
          .podIps("10.98.0." + (i + 1)).port("grpc", 2222).build());
    }
    k8s.addAll(pods);
    assertThat(pods.stream().filter(p -> p.namespace().equals("ml") && "trainer".equals(p.labels().get("app"))))
        .as("matching pods (listed at 500 a page)").hasSize(1200);

    CliRun run = CliRun.run(Map.of("POD_NAME", "trainer-42"), args("--format", "json"));

    assertThat(run.code).as("%s", run).isZero();
    assertThat(k8s.listCalls()).isEqualTo(3);
    Map<Integer, String> expected = new TreeMap<>();
    for (SimulatedPod p : pods) {
      if (p.namespace().equals("ml") && "trainer".equals(p.labels().get("app")) && p.phase().equals("Running")
          && p.ready() && p.deletionTimestamp() == null) {
        expected.put(Integer.parseInt(p.name().substring("trainer-".length())), p.podIps().get(0) + ":2222");
      }
    }
    JsonNode worker = new ObjectMapper().readTree(run.out).at("/cluster/worker");
    assertThat(worker.isObject()).as("a sparse job is printed as an object: %s", run.out.substring(0, 200)).isTrue();
    Map<Integer, String> printed = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = worker.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      printed.put(Integer.parseInt(e.getKey()), e.getValue().asText());
    }
    assertThat(printed).isEqualTo(expected);
    assertThat(printed).doesNotContainKeys(17, 600, 1101, 5, 7);
    JsonNode json = new ObjectMapper().readTree(run.out);
    assertThat(json.at("/task/type").asText()).isEqualTo("worker");
    assertThat(json.at("/task/index").asInt()).isEqualTo(42);
    assertThat(run.out).doesNotContain("192.168.50.", "10.99.", "10.98.");
  }

  @Test
  void aRotatedTokenFileIsPickedUpWhileTheCommandWaits() throws Exception {
    for (int i = 0; i < 3; i++) {
      k8s.add(SimulatedPod.builder("ml", "trainer-" + i).statefulSet("trainer", i).label("app", "trainer")
          .podIps("10.21.0." + (i + 1)).port("grpc", 2222).ready(i < 2).build());
    }
    CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(
        () -> CliRun.run(Map.of(), args("--format", "json", "--wait", "30s", "--min-tasks", "3")));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (k8s.listCalls() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    String rotated = "eyJhbGciOiJSUzI1NiJ9.rotated-" + System.nanoTime();
    k8s.acceptTokens(Map.of(rotated, "system:serviceaccount:ml:trainer")); // the old token is refused from now on
    rotate(rotated);
    k8s.update("ml", "trainer-2", b -> b.ready(true));
    CliRun done = run.get(30, TimeUnit.SECONDS);

    assertThat(done.code).as("%s", done).isZero();
    assertThat(new ObjectMapper().readTree(done.out).at("/cluster/worker")).hasSize(3);
    List<String> tokens = k8s.requests().stream().map(SimulatedKubernetes.RecordedRequest::bearerToken).toList();
    assertThat(tokens).contains(token, rotated);
    assertThat(tokens.subList(tokens.indexOf(rotated), tokens.size())).containsOnly(rotated);
    assertThat(done.err).doesNotContain(token).doesNotContain(rotated);
  }

  @Test
  void aForbiddenListIsExit3PrintingTheMissingRbacRule() {
    k8s.forbid("ml");
    CliRun run = CliRun.run(Map.of(), args());
    assertThat(run.code).as("%s", run).isEqualTo(ExitCodes.RESOLUTION_FAILURE);
    assertThat(run.out).isEmpty();
    assertThat(run.err).contains("HTTP 403", "list", "pods", "namespace ml")
        .contains("kind: Role", "verbs: [\"get\", \"list\"]", "kind: RoleBinding", "name: trainer")
        .doesNotContain(token);
  }
}
