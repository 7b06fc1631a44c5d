package io.clusterresolver.tensorflow;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ConfigurationException;
import java.util.Map;

/**
 * One TensorFlow server in its own JVM, for the integration tests: resolves with the provider named
 * by the first argument (its environment is the provider's: TF_CONFIG, a Slurm step's variables),
 * prints the tf-server line once it serves, and serves until killed.
 */
public final class ServerMain {
  private ServerMain() {}

  public static void main(String[] args) throws InterruptedException {
    try {
      TensorFlowServer server =
          TensorFlowServer.start(ClusterResolvers.create(args[0], Map.of()).resolve());
      System.out.println("tensorflow server " + server.taskName() + " at " + server.target());
      System.out.flush();
      server.awaitTermination();
    } catch (ConfigurationException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    } catch (ClusterResolverException e) {
      System.err.println(e.getMessage());
      System.exit(3);
    }
  }
}
