package com.example.app;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.runtime.TaskServer;
import java.time.Duration;
import java.util.Map;

/**
 * The README's library section as a program: find the cluster this process is part of, say which
 * task it is, and serve that task. Inside a Slurm job step the slurm provider answers from the
 * step's environment; elsewhere another provider on the class path (here only local).
 *
 * <p>Usage: {@code java -cp ... com.example.app.App [MIN_TASKS [SERVE_SECONDS]]}.
 */
public final class App {
  private App() {}

  public static void main(String[] args) throws Exception {
    int minTasks = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    long serveSeconds = args.length > 1 ? Long.parseLong(args[1]) : 0;

    ClusterResolver resolver = ClusterResolvers.detect();        // or create("slurm", properties)
    Resolution r = resolver.resolve();                            // one query of the source of truth
    ClusterSpec cluster = r.clusterSpec();
    String me = r.taskType().orElse("worker") + ":" + r.taskId().orElse(0);
    Map<String, Integer> accelerators = r.accelerators();

    // Launchers start before every member is up: wait (with backoff) until minTasks are there.
    Resolution formed = ClusterResolvers.await(resolver, minTasks, Duration.ofSeconds(30));

    System.out.println("environment: " + r.environment());
    System.out.println("cluster: " + cluster.asMap());
    System.out.println("me: " + me);
    System.out.println("master: " + r.master());
    System.out.println("accelerators: " + accelerators);
    System.out.println("formed: " + formed.clusterSpec().totalTasks() + " tasks");

    // This process's task server, at its own address of the cluster (loopback unless told otherwise).
    try (TaskServer server = TaskServer.forResolver(resolver).start()) {
      System.out.println("serving: " + server.taskName() + " on port " + server.port());
      Thread.sleep(Duration.ofSeconds(serveSeconds).toMillis());
    }
  }
}
