package io.clusterresolver.cloud;

import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverContext;
import java.util.List;
import java.util.Objects;

/**
 * The provider class of a cloud provider: its name, the cloud priority and its declarations. A
 * subclass adds detection ({@link #isAvailable}) and {@link #create}, which hands the configuration
 * to a factory class of its own: only that class names the cloud's SDK, so that loading the provider
 * (every {@link java.util.ServiceLoader} lookup, every detection) loads no SDK class.
 *
 * <pre>{@code
 * public final class MyCloudProvider extends CloudResolverProvider {
 *   public MyCloudProvider() {
 *     super("mycloud", MyProperties.ALL);          // its own, CloudProperties.layout(...), CloudProperties.sharing()
 *   }
 *   protected boolean detect(ResolverContext context) { ... }
 *   public ClusterResolver create(ResolverConfig config) {
 *     return MyResolverFactory.create(config);     // a CloudResolverSetup and the cloud's source
 *   }
 * }
 * }</pre>
 */
public abstract class CloudResolverProvider implements ClusterResolverProvider {

  /** Below scheduler and configuration providers ({@code slurm}, {@code tfconfig}), above {@code local}. */
  public static final int CLOUD_PRIORITY = 50;

  private final String name;
  private final int priority;
  private final List<ConfigProperty<?>> properties;

  /**
   * A provider; the constructor of a subclass stays public, without arguments and without work, for
   * {@link java.util.ServiceLoader}.
   *
   * @param name the provider's name: its keys are {@code clusterresolver.<name>.*}
   * @param properties every property it reads, in the order its README lists them
   */
  protected CloudResolverProvider(String name, List<ConfigProperty<?>> properties) {
    this(name, CLOUD_PRIORITY, properties);
  }

  /**
   * A provider that ranks apart from the plain clouds (one that runs on top of a cloud, like a
   * Kubernetes cluster or a TPU VM, ranks above it); otherwise as {@link #CloudResolverProvider(String, List)}.
   *
   * @param name the provider's name: its keys are {@code clusterresolver.<name>.*}
   * @param priority what {@link #priority()} returns
   * @param properties every property it reads, in the order its README lists them
   */
  protected CloudResolverProvider(String name, int priority, List<ConfigProperty<?>> properties) {
    this.name = Objects.requireNonNull(name, "name");
    this.priority = priority;
    this.properties = List.copyOf(properties);
  }

  @Override
  public final String name() {
    return name;
  }

  /**
   * The priority given to the constructor: {@value #CLOUD_PRIORITY} for a plain cloud, below
   * scheduler and configuration providers, above {@code local}.
   */
  @Override
  public int priority() {
    return priority;
  }

  @Override
  public final List<ConfigProperty<?>> properties() {
    return properties;
  }

  /**
   * Whether this host is on the cloud, by {@link #detect}: never throws, since detection runs for
   * every provider on every host, and a probe that fails (an unreadable file, a refused connection)
   * means "not here".
   */
  @Override
  public final boolean isAvailable(ResolverContext context) {
    try {
      return detect(context);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Whether this host is on the cloud: cheap hints first (files, environment variables), then at
   * most one request bounded by {@link ResolverContext#probeTimeout()}; off the cloud no network is
   * touched. It may throw: {@link #isAvailable} reads any exception as "not here".
   */
  protected abstract boolean detect(ResolverContext context);
}
