package io.clusterresolver.benchmarks;

import com.google.api.gax.core.NoCredentialsProvider;
import com.google.cloud.tpu.v2.NetworkEndpoint;
import com.google.cloud.tpu.v2.Node;
import com.google.cloud.tpu.v2.TpuClient;
import com.google.cloud.tpu.v2.TpuSettings;
import io.clusterresolver.testkit.TpuDemoSimulation;

/**
 * The baseline of the cold {@code resolve --provider tpu --simulate}: the same demo simulation started
 * in-process, then the raw {@code google-cloud-tpu} client's first call — build a {@link TpuClient}
 * over HttpJson with no credentials, one {@code nodes.get}, print the workers — in a fresh JVM. Run
 * it under {@link ColdStart} next to the command:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.ColdStart --runs 10 --warmup 2 -- \
 *     java -cp benchmarks/target/benchmarks.jar io.clusterresolver.benchmarks.TpuRawFirstCall
 * </pre>
 */
public final class TpuRawFirstCall {

  private TpuRawFirstCall() {}

  public static void main(String[] args) throws Exception {
    try (TpuDemoSimulation simulation = TpuDemoSimulation.start()) {
      TpuSettings settings = TpuSettings.newHttpJsonBuilder()
          .setEndpoint(simulation.tpu().endpoint().toString())
          .setCredentialsProvider(NoCredentialsProvider.create())
          .build();
      long start = System.nanoTime();
      try (TpuClient client = TpuClient.create(settings)) {
        Node node = client.getNode(simulation.tpu().resourceName(TpuDemoSimulation.NODE));
        StringBuilder out = new StringBuilder(node.getState().name());
        for (NetworkEndpoint e : node.getNetworkEndpointsList()) {
          out.append(' ').append(e.getIpAddress()).append(':').append(e.getPort());
        }
        System.out.println(out);
      }
      System.err.printf("client + first nodes.get: %.0f ms%n", (System.nanoTime() - start) / 1e6);
    }
  }
}
