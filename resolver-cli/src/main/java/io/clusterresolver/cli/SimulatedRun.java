package io.clusterresolver.cli;

import io.clusterresolver.testkit.Simulation;
import java.io.PrintWriter;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@code --simulate} path: starts the provider's demo simulation (from resolver-testkit, which the
 * distribution carries in {@code sim/}, on the class path only for {@code --simulate}) and resolves
 * against it. Kept in its own class so that no other class of the command refers to the testkit:
 * without {@code sim/} on the class path, everything else still loads.
 */
final class SimulatedRun {

  private SimulatedRun() {}

  /**
   * Runs {@code resolve} with the properties that point the provider at its simulation.
   *
   * @param provider the provider to simulate
   * @param resolve resolves with the given default properties
   */
  static Answer resolve(String provider, PrintWriter err, Function<Map<String, String>, Answer> resolve) {
    try (Simulation simulation = Simulation.startDemo(provider)) {
      err.println("cluster-resolver: " + simulation.description());
      err.flush();
      return resolve.apply(simulation.properties());
    }
  }
}
