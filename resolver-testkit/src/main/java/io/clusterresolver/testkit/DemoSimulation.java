package io.clusterresolver.testkit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A provider's demo world ({@code resolve --provider P --simulate}): one started simulated API and the properties
 * that point the provider at it, fixed when the demo starts. A cloud's demo is a subclass with a static
 * {@code start()} that builds the world, a {@link #description()}, and a {@link Starter} registered in
 * {@code META-INF/services/io.clusterresolver.testkit.Simulation$Factory}.
 *
 * @param <S> the simulated API
 */
public abstract class DemoSimulation<S extends SimulatedApi<S, ?>> implements Simulation {

  private final String provider;
  private final S simulation;
  private final Map<String, String> properties;

  /**
   * A demo of a started simulation.
   *
   * @param provider the provider it simulates the world of, such as {@code aws}
   * @param simulation the started simulation; {@link #close()} closes it
   * @param properties the properties (full keys) that point the provider at it
   */
  protected DemoSimulation(String provider, S simulation, Map<String, String> properties) {
    this.provider = Objects.requireNonNull(provider, "provider");
    this.simulation = Objects.requireNonNull(simulation, "simulation");
    this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
  }

  /** {@code base} and one more entry, in order: a simulation's own properties and the demo's selection. */
  protected static Map<String, String> with(Map<String, String> base, String key, String value) {
    Map<String, String> p = new LinkedHashMap<>(base);
    p.put(key, value);
    return p;
  }

  /** The running simulation, to change its world while the demo runs. */
  protected final S simulation() {
    return simulation;
  }

  @Override
  public final String provider() {
    return provider;
  }

  @Override
  public final Map<String, String> properties() {
    return properties;
  }

  /** Stops the simulation. */
  @Override
  public void close() {
    simulation.close();
  }

  /** Registers a demo for {@link Simulation#startDemo(String)}: its provider and how to start it. */
  public abstract static class Starter implements Simulation.Factory {
    private final String provider;
    private final Supplier<? extends Simulation> start;

    /**
     * A registration; a subclass's constructor stays public and without arguments for
     * {@link java.util.ServiceLoader}.
     *
     * @param provider the provider the demo simulates
     * @param start starts the demo
     */
    protected Starter(String provider, Supplier<? extends Simulation> start) {
      this.provider = Objects.requireNonNull(provider, "provider");
      this.start = Objects.requireNonNull(start, "start");
    }

    @Override
    public final String provider() {
      return provider;
    }

    @Override
    public final Simulation startDemo() {
      return start.get();
    }
  }
}
