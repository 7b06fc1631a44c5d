package io.clusterresolver.cli;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options that choose and configure a resolver: {@code --provider}, {@code -D},
 * {@code --config}, {@code --task-type} and {@code --task-id}. A mixin, shared by every command
 * that needs a resolver ({@code resolve}, and later {@code serve} and {@code connect}).
 */
public final class ResolverOptions {

  /** The property a provider declares when it lets the caller say which task this process is. */
  static final String TASK_TYPE_PROPERTY = "task-type";

  /** See {@link #TASK_TYPE_PROPERTY}. */
  static final String TASK_ID_PROPERTY = "task-id";

  @Option(
      names = "--provider",
      paramLabel = "NAME",
      description = "The provider to use (see 'cluster-resolver providers')."
          + " Default: the first that applies here, in priority order, 'local' last.")
  private String provider;

  @Mixin private PropertyOptions propertyOptions;

  @Option(
      names = "--task-type",
      paramLabel = "JOB",
      description = "This process's job (such as worker or chief). Passed to the provider as"
          + " clusterresolver.<provider>.task-type when it declares that property; otherwise it"
          + " selects the task whose view is printed.")
  private String taskType;

  @Option(
      names = "--task-id",
      paramLabel = "INDEX",
      description = "This process's task index within its job; like --task-type, via"
          + " clusterresolver.<provider>.task-id when the provider declares it.")
  private Integer taskId;

  /**
   * Chooses the provider (the named one, or the first that applies) and creates its resolver.
   *
   * @throws IllegalArgumentException for an unknown provider or invalid configuration
   * @throws io.clusterresolver.ClusterResolverException if no provider applies
   */
  public Selection select(Map<String, String> environment) {
    return select(environment, Map.of());
  }

  /**
   * Like {@link #select(Map)}, with {@code defaults} (such as the properties that point a provider at
   * a simulation) below {@code -D} and above every other source.
   */
  public Selection select(Map<String, String> environment, Map<String, String> defaults) {
    PropertySources plain = propertyOptions.sources(environment, defaults);
    ClusterResolverProvider chosen = provider != null
        ? ClusterResolvers.provider(provider)
        : ClusterResolvers.detectProvider(ResolverContext.of(plain));

    // --task-type/--task-id become the provider's own properties when it has them ...
    Map<String, String> taskProperties = new LinkedHashMap<>();
    String viewTaskType = taskType;
    Integer viewTaskId = taskId;
    if (taskType != null && declares(chosen, TASK_TYPE_PROPERTY)) {
      taskProperties.put(key(chosen, TASK_TYPE_PROPERTY), taskType);
      viewTaskType = null;
    }
    if (taskId != null && declares(chosen, TASK_ID_PROPERTY)) {
      taskProperties.put(key(chosen, TASK_ID_PROPERTY), Integer.toString(taskId));
      viewTaskId = null;
    }
    Map<String, String> derived = new LinkedHashMap<>(defaults);
    derived.putAll(taskProperties);
    PropertySources sources = taskProperties.isEmpty()
        ? plain
        : propertyOptions.sources(environment, derived);
    ResolverConfig config = ResolverConfig.resolve(chosen.name(), chosen.properties(), sources);
    ClusterResolver resolver = chosen.create(config);
    // ... otherwise they only choose which task's view is printed.
    return new Selection(chosen, resolver, viewTaskType, viewTaskId);
  }

  /** The provider named with {@code --provider}, or {@code null} when it is to be detected. */
  public String providerName() {
    return provider;
  }

  private static boolean declares(ClusterResolverProvider provider, String name) {
    return provider.properties().stream().anyMatch(p -> p.name().equals(name));
  }

  private static String key(ClusterResolverProvider provider, String name) {
    return ConfigProperty.PREFIX + provider.name() + "." + name;
  }

  /** The chosen provider, its resolver, and the task given on the command line if the provider does not take it. */
  public static final class Selection {
    private final ClusterResolverProvider provider;
    private final ClusterResolver resolver;
    private final String taskType;
    private final Integer taskId;

    Selection(ClusterResolverProvider provider, ClusterResolver resolver, String taskType, Integer taskId) {
      this.provider = provider;
      this.resolver = resolver;
      this.taskType = taskType;
      this.taskId = taskId;
    }

    public ClusterResolverProvider provider() {
      return provider;
    }

    public ClusterResolver resolver() {
      return resolver;
    }

    /** Asks the resolver once and captures everything a format prints. */
    Answer resolve() {
      return Answer.of(provider.name(), resolver, taskType, taskId);
    }
  }
}
