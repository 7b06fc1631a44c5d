package io.clusterresolver.spi;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link ClusterResolverProvider#isAvailable(ResolverContext)} may look at: the environment,
 * the configured properties (an endpoint override, say), and how long a network probe may take.
 */
public final class ResolverContext {

  /**
   * The default bound of a detection probe's connect and read time: under 100 ms, so that
   * detection off-cloud stays well within its 200 ms budget even when a hint misleads.
   */
  public static final Duration DEFAULT_PROBE_TIMEOUT = Duration.ofMillis(90);

  private final PropertySources sources;
  private final Duration probeTimeout;

  private ResolverContext(PropertySources sources, Duration probeTimeout) {
    this.sources = Objects.requireNonNull(sources, "sources");
    this.probeTimeout = Objects.requireNonNull(probeTimeout, "probeTimeout");
  }

  /** A context over these sources with the default probe timeout. */
  public static ResolverContext of(PropertySources sources) {
    return new ResolverContext(sources, DEFAULT_PROBE_TIMEOUT);
  }

  /** This process's system properties and environment. */
  public static ResolverContext system() {
    return of(PropertySources.system(Map.of()));
  }

  /** A copy with another probe timeout. */
  public ResolverContext withProbeTimeout(Duration timeout) {
    return new ResolverContext(sources, timeout);
  }

  /** The environment variables (the process's, or the map given instead). */
  public Map<String, String> environment() {
    return sources.environment();
  }

  /** One environment variable, when set. */
  public Optional<String> getenv(String name) {
    return Optional.ofNullable(sources.environment().get(name));
  }

  /** The raw value of a full property key from the highest source that sets it. */
  public Optional<String> property(String key) {
    return sources.get(key);
  }

  /** How long a metadata probe may wait to connect and to read. */
  public Duration probeTimeout() {
    return probeTimeout;
  }

  /** The sources this context reads. */
  public PropertySources sources() {
    return sources;
  }
}
