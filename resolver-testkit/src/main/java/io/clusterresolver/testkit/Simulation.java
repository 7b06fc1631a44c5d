package io.clusterresolver.testkit;

import io.clusterresolver.ConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeSet;

/**
 * A running simulation of a provider's source of truth (a cloud API and its metadata server) that
 * the provider can be pointed at with {@link #properties()}: what {@code cluster-resolver resolve
 * --provider aws --simulate} runs. Each cloud adds its own by registering a {@link Factory} in
 * {@code META-INF/services/io.clusterresolver.testkit.Simulation$Factory}.
 */
public interface Simulation extends AutoCloseable {

  /** The provider this simulates the world of, such as {@code aws}. */
  String provider();

  /** Properties (full keys) that point the provider at this simulation. */
  Map<String, String> properties();

  /** One line saying what runs where, for a human. */
  String description();

  /** Stops the simulation. */
  @Override
  void close();

  /** Starts simulations of one provider; found with {@link ServiceLoader}. */
  interface Factory {
    /** The provider it simulates. */
    String provider();

    /** Starts a small demo world (a few members, this process as one of them). */
    Simulation startDemo();
  }

  /**
   * Starts the demo simulation of a provider.
   *
   * @throws ConfigurationException if no simulation of that provider is on the classpath, naming those that are
   */
  static Simulation startDemo(String provider) {
    List<String> known = new ArrayList<>();
    for (Factory factory : ServiceLoader.load(Factory.class, Simulation.class.getClassLoader())) {
      if (factory.provider().equals(provider)) {
        return factory.startDemo();
      }
      known.add(factory.provider());
    }
    throw new ConfigurationException("There is no simulation of provider '" + provider + "'; simulations exist for: "
        + (known.isEmpty() ? "(none)" : String.join(", ", new TreeSet<>(known))));
  }
}
