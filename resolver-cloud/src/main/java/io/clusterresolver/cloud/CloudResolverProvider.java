package io.clusterresolver.cloud;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The provider class of a cloud provider: its name, the cloud priority, its declarations and its
 * factory. A subclass adds detection ({@link #detect}); {@link #create} hands the configuration to
 * the factory, a class of its own: only that class names the cloud's SDK, so that loading the
 * provider (every {@link java.util.ServiceLoader} lookup, every detection) loads no SDK class. The
 * factory is given as a lambda, not a method reference: constructing the provider links a method
 * reference's class, and verifying it loads the SDK classes its code names.
 *
 * <pre>{@code
 * public final class MyCloudProvider extends CloudResolverProvider {
 *   public MyCloudProvider() {
 *     super("mycloud", MyProperties.DECLARATIONS, config -> MyResolverFactory.create(config));
 *   }
 *   protected boolean detect(ResolverContext context) { ... }
 * }
 * }</pre>
 */
public abstract class CloudResolverProvider implements ClusterResolverProvider {

  /** Below scheduler and configuration providers ({@code slurm}, {@code tfconfig}), above {@code local}. */
  public static final int CLOUD_PRIORITY = 50;

  private final String name;
  private final int priority;
  private final List<ConfigProperty<?>> properties;
  /** What {@link #create} calls; {@code null} when the subclass overrides it. */
  private final Function<ResolverConfig, ? extends ClusterResolver> factory;

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
    this(name, priority, properties, null);
  }

  /**
   * A provider whose {@link #create} is {@code factory}, at {@value #CLOUD_PRIORITY}.
   *
   * @param name the provider's name: its keys are {@code clusterresolver.<name>.*}
   * @param declarations every property it reads
   * @param factory validates the configuration and builds the resolver: a lambda calling a class apart from
   *     the provider's, {@code config -> MyResolverFactory.create(config)}, so that the class loads only when
   *     it is called
   */
  protected CloudResolverProvider(String name, CloudProperties.Declarations declarations,
      Function<ResolverConfig, ? extends ClusterResolver> factory) {
    this(name, CLOUD_PRIORITY, declarations, factory);
  }

  /**
   * A provider that ranks apart from the plain clouds, whose {@link #create} is {@code factory}; otherwise as
   * {@link #CloudResolverProvider(String, CloudProperties.Declarations, Function)}.
   *
   * @param priority what {@link #priority()} returns
   */
  protected CloudResolverProvider(String name, int priority, CloudProperties.Declarations declarations,
      Function<ResolverConfig, ? extends ClusterResolver> factory) {
    this(name, priority, declarations.all(), Objects.requireNonNull(factory, "factory"));
  }

  private CloudResolverProvider(String name, int priority, List<ConfigProperty<?>> properties,
      Function<ResolverConfig, ? extends ClusterResolver> factory) {
    this.name = Objects.requireNonNull(name, "name");
    this.priority = priority;
    this.properties = List.copyOf(properties);
    this.factory = factory;
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
   * The factory given to the constructor. A subclass built without one overrides this.
   *
   * @throws UnsupportedOperationException when no factory was given and the subclass does not override it
   */
  @Override
  public ClusterResolver create(ResolverConfig config) {
    if (factory == null) {
      throw new UnsupportedOperationException(getClass().getName() + " neither gives CloudResolverProvider a"
          + " factory nor overrides create(ResolverConfig)");
    }
    return factory.apply(config);
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
