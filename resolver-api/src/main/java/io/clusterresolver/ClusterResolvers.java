package io.clusterresolver;

import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import io.clusterresolver.internal.Suggestions;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Entry point: finds the providers on the classpath, creates resolvers by provider name, and
 * detects which provider applies to this process.
 *
 * <pre>{@code
 * ClusterResolver resolver = ClusterResolvers.detect();            // where am I?
 * ClusterResolver slurm = ClusterResolvers.create("slurm", Map.of(
 *     "clusterresolver.slurm.jobs", "ps:1,worker:*"));
 * ClusterSpec spec = slurm.clusterSpec();                           // asked fresh each time
 * }</pre>
 */
public final class ClusterResolvers {

  /** Detection order: higher priority first, then by name so the order is the same everywhere. */
  private static final Comparator<ClusterResolverProvider> DETECTION_ORDER = new DetectionOrder();

  /** A class, not composed lambdas: every cold start sorts the providers, and would spin their classes first. */
  private static final class DetectionOrder implements Comparator<ClusterResolverProvider> {
    @Override
    public int compare(ClusterResolverProvider a, ClusterResolverProvider b) {
      int byPriority = Integer.compare(b.priority(), a.priority());
      return byPriority != 0 ? byPriority : a.name().compareTo(b.name());
    }
  }

  /**
   * The logger, made when there is something to log: creating one starts the platform's logging
   * ({@code java.util.logging}), which a resolve where every provider loads never needs.
   */
  private static final class Log {
    static final System.Logger LOG = System.getLogger(ClusterResolvers.class.getName());
  }

  private ClusterResolvers() {}

  /**
   * The providers on the classpath, in detection order. A provider that fails to load is left out
   * and logged; it never breaks the others.
   *
   * @throws IllegalStateException if two providers have the same name; the message names both classes
   */
  public static List<ClusterResolverProvider> providers() {
    return providers(ClusterResolvers.class.getClassLoader());
  }

  /** The providers a class loader finds, in detection order (see {@link #providers()}). */
  static List<ClusterResolverProvider> providers(ClassLoader loader) {
    Map<String, ClusterResolverProvider> byName = new HashMap<>();
    List<ClusterResolverProvider> providers = new ArrayList<>();
    Iterator<ClusterResolverProvider> iterator =
        ServiceLoader.load(ClusterResolverProvider.class, loader).iterator();
    while (true) {
      ClusterResolverProvider provider;
      String name;
      try {
        if (!iterator.hasNext()) {
          break;
        }
        provider = iterator.next();
        name = provider.name();
        provider.priority();
      } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
        Log.LOG.log(Level.WARNING, "Skipping a cluster resolver provider that failed to load: " + e, e);
        continue;
      }
      ClusterResolverProvider previous = byName.putIfAbsent(name, provider);
      if (previous != null) {
        if (previous.getClass() == provider.getClass()) {
          continue; // the same jar reached twice through the class loader hierarchy
        }
        throw new IllegalStateException("Two cluster resolver providers are named '" + name + "': "
            + previous.getClass().getName() + " and " + provider.getClass().getName()
            + ". Remove one of them from the classpath.");
      }
      providers.add(provider);
    }
    providers.sort(DETECTION_ORDER);
    return List.copyOf(providers);
  }

  /**
   * The provider of that name.
   *
   * @throws IllegalArgumentException if there is none; the message lists the known providers
   */
  public static ClusterResolverProvider provider(String name) {
    List<ClusterResolverProvider> providers = providers();
    for (ClusterResolverProvider provider : providers) {
      if (provider.name().equals(name)) {
        return provider;
      }
    }
    List<String> names = providers.stream().map(ClusterResolverProvider::name).collect(Collectors.toList());
    String suggestion = Suggestions.closest(name == null ? "" : name, names)
        .map(closest -> " Did you mean '" + closest + "'?").orElse("");
    throw new ConfigurationException("Unknown cluster resolver provider '" + name + "'." + suggestion
        + " Known providers: " + String.join(", ", names)
        + ". A provider's jar must be on the classpath to be found.");
  }

  /**
   * A resolver of the named provider, configured by these properties over the system properties
   * and environment variables.
   *
   * @param properties full keys such as {@code clusterresolver.aws.region}
   * @throws IllegalArgumentException for an unknown provider or invalid configuration (all problems at once)
   */
  public static ClusterResolver create(String provider, Map<String, String> properties) {
    return create(provider, PropertySources.system(properties));
  }

  /**
   * Like {@link #create(String, Map)}, but the environment variables the resolver reads (and
   * {@code CLUSTERRESOLVER_*} settings) come from {@code environment} instead of the process: for
   * tests, conformance suites and simulations.
   */
  public static ClusterResolver create(
      String provider, Map<String, String> properties, Map<String, String> environment) {
    return create(provider, PropertySources.withEnvironment(properties, environment));
  }

  /** A resolver of the named provider, configured from explicit sources. */
  public static ClusterResolver create(String provider, PropertySources sources) {
    ClusterResolverProvider p = provider(provider);
    return p.create(ResolverConfig.resolve(p.name(), p.properties(), sources));
  }

  /**
   * The resolver of the highest-priority provider that applies to this process ({@code local}
   * when no other does). Off-cloud this answers within 200 ms: providers look at cheap local hints
   * first, and any probe has a short connect timeout.
   */
  public static ClusterResolver detect() {
    return detect(PropertySources.system(Map.of()));
  }

  /** Detection over explicit sources (properties and environment). */
  public static ClusterResolver detect(PropertySources sources) {
    ClusterResolverProvider provider = detectProvider(ResolverContext.of(sources));
    return provider.create(ResolverConfig.resolve(provider.name(), provider.properties(), sources));
  }

  /**
   * The highest-priority provider whose {@code isAvailable} holds.
   *
   * @throws ClusterResolverException if none applies (the {@code local} provider always does)
   */
  public static ClusterResolverProvider detectProvider(ResolverContext context) {
    List<ClusterResolverProvider> providers = providers();
    for (ClusterResolverProvider provider : providers) {
      if (isAvailable(provider, context)) {
        return provider;
      }
    }
    throw new ClusterResolverException("No cluster resolver provider applies to this process (tried: "
        + providers.stream().map(ClusterResolverProvider::name).collect(Collectors.joining(", "))
        + "). Put resolver-api's local provider on the classpath, or name a provider explicitly.");
  }

  /** {@code isAvailable}, with a misbehaving provider counted as not available. */
  public static boolean isAvailable(ClusterResolverProvider provider, ResolverContext context) {
    try {
      return provider.isAvailable(context);
    } catch (RuntimeException | LinkageError e) {
      Log.LOG.log(Level.WARNING, "Provider '" + provider.name() + "' failed its availability check: " + e, e);
      return false;
    }
  }

  /**
   * Waits until the resolver's cluster has at least {@code minTasks} tasks, polling with backoff
   * (see {@link ClusterWait} for the intervals and a progress listener).
   *
   * @throws ClusterResolverException past the timeout, saying what the last poll saw; at once when a poll
   *     fails in a way that is not {@linkplain ClusterResolverException#isRetryable() retryable}
   */
  public static Resolution await(ClusterResolver resolver, int minTasks, java.time.Duration timeout) {
    return ClusterWait.forTasks(minTasks).timeout(timeout).await(resolver);
  }
}
