package io.clusterresolver.benchmarks;

import io.clusterresolver.testkit.KubernetesDemoSimulation;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The baseline for a cold {@code resolve --provider kubernetes --simulate}: the same demo
 * simulation, then the raw fabric8 client's first pods list (no provider, no command), in this
 * fresh JVM. Prints the pod count on stdout and the time of each phase on stderr. Run it under
 * {@link ColdStart} for a new process per run:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.ColdStart --runs 10 --warmup 2 -- \
 *     java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.KubernetesFirstList
 * </pre>
 */
public final class KubernetesFirstList {

  private KubernetesFirstList() {}

  public static void main(String[] args) throws Exception {
    long t0 = System.nanoTime();
    try (KubernetesDemoSimulation sim = KubernetesDemoSimulation.start()) {
      long t1 = System.nanoTime();
      Map<String, String> p = sim.properties();
      String token = Files.readString(Path.of(p.get("clusterresolver.kubernetes.token-file")), StandardCharsets.UTF_8);
      Config config = Config.empty();
      config.setMasterUrl(p.get("clusterresolver.kubernetes.endpoint"));
      config.setOauthToken(token.trim());
      try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        long t2 = System.nanoTime();
        PodList pods = client.pods().inNamespace(KubernetesDemoSimulation.NAMESPACE).withLabel("app", "trainer").list();
        long t3 = System.nanoTime();
        System.out.println(pods.getItems().size());
        System.err.printf("simulation %d ms, client %d ms, first list %d ms, total %d ms since main%n",
            (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000, (t3 - t0) / 1_000_000);
      }
    }
  }
}
