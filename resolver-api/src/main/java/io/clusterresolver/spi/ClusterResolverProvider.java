package io.clusterresolver.spi;

import io.clusterresolver.ClusterResolver;
import java.util.List;

/**
 * A source of cluster membership (a cloud, a scheduler, a configuration variable), found with
 * {@link java.util.ServiceLoader} when its jar is on the classpath.
 *
 * <p>Register an implementation in
 * {@code META-INF/services/io.clusterresolver.spi.ClusterResolverProvider}. Implementations have a
 * public zero-argument constructor that does no work; loading a provider, {@link #name()},
 * {@link #priority()}, {@link #properties()} and {@link #isAvailable(ResolverContext)} never throw.
 */
public interface ClusterResolverProvider {

  /**
   * The provider's name ({@code local}, {@code tfconfig}, {@code slurm}, {@code aws}, …): lower
   * case letters, digits and dashes. It is the middle part of every property key it reads,
   * {@code clusterresolver.<name>.<property>}.
   */
  String name();

  /**
   * Auto-detection order: higher first. Scheduler and configuration providers that are selected by
   * an environment variable rank above cloud providers that need a metadata probe; {@code local}
   * ranks last ({@link Integer#MIN_VALUE}).
   */
  int priority();

  /**
   * Whether this process runs where the provider applies. Cheap local hints (environment
   * variables, files) come first; a network probe, if any, uses a short connect timeout
   * ({@link ResolverContext#probeTimeout()}). Never throws: any failure means {@code false}.
   */
  boolean isAvailable(ResolverContext context);

  /** Every property this provider reads. These declarations are its documentation. */
  List<ConfigProperty<?>> properties();

  /**
   * Creates a resolver. Configuration is validated here, up front: all problems are reported at
   * once in one {@link io.clusterresolver.ConfigurationException} (an
   * {@link IllegalArgumentException}) that names each full property key. Nothing is asked of the
   * source of truth yet.
   */
  ClusterResolver create(ResolverConfig config);
}
