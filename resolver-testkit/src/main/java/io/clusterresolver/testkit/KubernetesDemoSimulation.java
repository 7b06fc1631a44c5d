package io.clusterresolver.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The {@code kubernetes} demo: a {@link SimulatedKubernetes} with namespace {@code ml} holding the
 * StatefulSet {@code trainer} (pods {@code trainer-0} to {@code trainer-4}, 8 GPUs each, a named
 * port {@code grpc} 2222; {@code trainer-2} is not ready, so the job has a gap), a Pending pod, a
 * terminating pod, and a pod of another app; namespace {@code other} holds a decoy with the same
 * labels. The bearer token is written to a temporary file that {@code token-file} points at. Run
 * with {@code POD_NAME=trainer-1} to be that pod.
 */
public final class KubernetesDemoSimulation extends DemoSimulation<SimulatedKubernetes> {

  /** The demo's namespace. */
  public static final String NAMESPACE = "ml";

  private final Path tokenDir;

  private KubernetesDemoSimulation(SimulatedKubernetes kubernetes, Path tokenDir) {
    super("kubernetes", kubernetes, properties(kubernetes, tokenDir));
    this.tokenDir = tokenDir;
  }

  /** Starts the demo. */
  public static KubernetesDemoSimulation start() {
    SimulatedKubernetes k = SimulatedKubernetes.start();
    String token = "demo-" + UUID.randomUUID();
    k.acceptTokens(Map.of(token, "system:serviceaccount:ml:trainer"));
    Instant created = Instant.parse("2025-06-01T12:00:00Z");
    for (int i = 0; i < 5; i++) {
      k.add(SimulatedPod.builder(NAMESPACE, "trainer-" + i).statefulSet("trainer", i).label("app", "trainer")
          .created(created.plusSeconds(i)).podIps("10.8.0." + (10 + i)).hostIp("192.168.1." + (i % 2 + 1))
          .port("grpc", 2222).limit("nvidia.com/gpu", "8").ready(i != 2).build());
    }
    k.add(SimulatedPod.builder(NAMESPACE, "trainer-5").statefulSet("trainer", 5).label("app", "trainer")
        .created(created.plusSeconds(5)).phase("Pending").ready(false).port("grpc", 2222).build());
    k.add(SimulatedPod.builder(NAMESPACE, "trainer-old-x7k2p").label("app", "trainer").created(created.minusSeconds(60))
        .podIps("10.8.0.99").terminating(created.plusSeconds(30)).port("grpc", 2222).build());
    k.add(SimulatedPod.builder(NAMESPACE, "dashboard-6d4cf56db6-abcde").label("app", "dashboard")
        .podIps("10.8.0.50").port("http", 8080).build());
    k.add(SimulatedPod.builder("other", "trainer-0").statefulSet("trainer", 0).label("app", "trainer")
        .podIps("10.9.0.10").port("grpc", 2222).build());
    try {
      Path dir = Files.createTempDirectory("cluster-resolver-k8s-demo");
      Files.writeString(dir.resolve("token"), token, StandardCharsets.UTF_8);
      Files.writeString(dir.resolve("namespace"), NAMESPACE, StandardCharsets.UTF_8);
      return new KubernetesDemoSimulation(k, dir);
    } catch (IOException e) {
      k.close();
      throw new UncheckedIOException(e);
    }
  }

  /** The simulated API server, to change the pods while it runs. */
  public SimulatedKubernetes kubernetes() {
    return simulation();
  }

  private static Map<String, String> properties(SimulatedKubernetes kubernetes, Path tokenDir) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("clusterresolver.kubernetes.endpoint", kubernetes.endpoint().toString());
    p.put("clusterresolver.kubernetes.token-file", tokenDir.resolve("token").toString());
    p.put("clusterresolver.kubernetes.selector", "app=trainer");
    p.put("clusterresolver.kubernetes.port-name", "grpc");
    return p;
  }

  @Override
  public String description() {
    return "simulated Kubernetes API server at " + kubernetes().endpoint() + ": namespace " + NAMESPACE
        + ", StatefulSet trainer with trainer-2 not ready (a gap), a pending and a terminating pod, decoys in"
        + " another app and namespace; run with POD_NAME=trainer-1 to be that pod";
  }

  @Override
  public void close() {
    super.close();
    try {
      for (String f : new String[] {"token", "namespace"}) {
        Files.deleteIfExists(tokenDir.resolve(f));
      }
      Files.deleteIfExists(tokenDir);
    } catch (IOException e) {
      // a temporary directory left behind is harmless
    }
  }

  /** Registers the demo for {@link Simulation#startDemo(String)}. */
  public static final class Factory extends Starter {
    /** For {@link java.util.ServiceLoader}. */
    public Factory() {
      super("kubernetes", KubernetesDemoSimulation::start);
    }
  }
}
