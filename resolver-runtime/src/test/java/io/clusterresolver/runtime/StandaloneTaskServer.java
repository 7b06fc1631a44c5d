package io.clusterresolver.runtime;

import io.clusterresolver.ClusterSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A task server in its own JVM, for tests with separate processes: {@code job task
 * job=host:port,host:port;job2=...}. Prints {@code READY} once serving; runs until killed.
 */
public final class StandaloneTaskServer {
  private StandaloneTaskServer() {}

  public static void main(String[] args) throws Exception {
    ClusterSpec.Builder cluster = ClusterSpec.builder();
    for (String job : args[2].split(";")) {
      String[] parts = job.split("=", 2);
      cluster.addJob(parts[0], List.of(parts[1].split(",")));
    }
    TaskServer server =
        TaskServer.builder(cluster.build(), args[0], Integer.parseInt(args[1]))
            .function("upper", in -> new String(in, StandardCharsets.UTF_8).toUpperCase()
                .getBytes(StandardCharsets.UTF_8))
            .start();
    System.out.println("READY " + server.port());
    System.out.flush();
    server.awaitTermination();
  }

  /** Starts it in a new JVM with this test classpath. */
  static Process launch(String job, int task, ClusterSpec cluster) throws Exception {
    StringBuilder spec = new StringBuilder();
    for (String j : cluster.jobs()) {
      if (spec.length() > 0) {
        spec.append(';');
      }
      spec.append(j).append('=').append(String.join(",", cluster.jobTasks(j)));
    }
    String java = System.getProperty("java.home") + "/bin/java";
    return new ProcessBuilder(
            java, "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
            StandaloneTaskServer.class.getName(), job, Integer.toString(task), spec.toString())
        .redirectErrorStream(true)
        .start();
  }
}
