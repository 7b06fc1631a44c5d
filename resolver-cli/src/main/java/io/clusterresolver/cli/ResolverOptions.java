package io.clusterresolver.cli;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterWait;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.Resolution;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options that choose and configure a resolver: {@code --provider}, {@code -D},
 * {@code --config}, {@code --task-type} and {@code --task-id}, and {@code --wait} and {@code --min-tasks}. A
 * mixin whose model is built in code ({@link #model()}), shared by every command that needs a resolver
 * ({@code resolve}, {@code serve}, {@code tf-server}, {@code connect}, {@code relay}).
 */
public final class ResolverOptions {

  /** The property a provider declares when it lets the caller say which task this process is. */
  static final String TASK_TYPE_PROPERTY = "task-type";
  /** The properties, in any provider, that choose which members are listed: named when nothing matches. */
  private static final Set<String> FILTER_PROPERTIES = Set.of("region", "project", "subscription", "zone", "zones",
      "namespace", "selector", "tags", "labels", "asg", "instance-group", "resource-group", "scale-set", "states",
      "vpc-id", "name");

  /** See {@link #TASK_TYPE_PROPERTY}. */
  static final String TASK_ID_PROPERTY = "task-id";

  // The model is built in code, not read from annotations at every start (issue 23): see model().
  private final OptionSpec provider = OptionSpec.builder("--provider")
      .paramLabel("NAME")
      .type(String.class)
      .description("The provider to use (see 'cluster-resolver providers')."
          + " Default: the first that applies here, in priority order, 'local' last.")
      .build();

  private final PropertyOptions propertyOptions = new PropertyOptions();

  private final OptionSpec taskType = OptionSpec.builder("--task-type")
      .paramLabel("JOB")
      .type(String.class)
      .description("This process's job (such as worker or chief). Passed to the provider as"
          + " clusterresolver.<provider>.task-type when it declares that property; otherwise it"
          + " selects the task whose view is printed.")
      .build();

  private final OptionSpec taskId = OptionSpec.builder("--task-id")
      .paramLabel("INDEX")
      .type(Integer.class)
      .description("This process's task index within its job; like --task-type, via"
          + " clusterresolver.<provider>.task-id when the provider declares it.")
      .build();

  private final OptionSpec waitFor = OptionSpec.builder("--wait")
      .paramLabel("DURATION")
      .type(String.class)
      .description("Wait up to DURATION (like 30s or 5m) for the cluster to form: poll with backoff until it"
          + " has --min-tasks tasks, with progress on standard error; past it, exit 3.")
      .build();

  private final OptionSpec minTasks = OptionSpec.builder("--min-tasks")
      .paramLabel("N")
      .type(Integer.class)
      .description("The number of tasks the cluster must have (with --wait, default 1); without --wait, fewer"
          + " is exit 3 at once.")
      .build();

  // In the order the annotated fields had: it is the order of picocli's suggestions for a misspelt option.
  private final CommandSpec model = CommandSpec.create()
      .addOption(provider)
      .addMixin("propertyOptions", propertyOptions.model())
      .addOption(taskType)
      .addOption(taskId)
      .addOption(waitFor)
      .addOption(minTasks);

  /**
   * These options as a mixin, for a command to add once: {@code @Mixin(name = "resolverOptions") CommandSpec},
   * which picocli takes as it is, or {@link CommandSpec#addMixin(String, CommandSpec)}.
   */
  CommandSpec model() {
    return model;
  }

  /** The command these options were mixed into (picocli sets an option's command when it is added). */
  private CommandSpec command() {
    CommandSpec command = provider.command();
    return command == model ? null : command;
  }

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
    List<ClusterResolverProvider> onClassPath = ClusterResolvers.providers(); // found once: each search reads every jar
    PropertySources plain = propertyOptions.sources(environment, defaults, onClassPath);
    String provider = providerName();
    String taskType = this.taskType.getValue();
    Integer taskId = this.taskId.getValue();
    ClusterResolverProvider chosen = provider != null
        ? named(onClassPath, provider)
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
        : propertyOptions.sources(environment, derived, onClassPath);
    warnAboutUnknownKeys(onClassPath, chosen, environment);
    ResolverConfig config = ResolverConfig.resolve(chosen.name(), chosen.properties(), sources);
    ClusterResolver resolver = chosen.create(config);
    // ... otherwise they only choose which task's view is printed.
    CommandSpec command = command();
    return new Selection(chosen, resolver, viewTaskType, viewTaskId, clusterWait(), minTasks.getValue(),
        filterOf(chosen, config), command == null ? null : command.commandLine().getErr());
  }

  /** The provider of that name among these; for none, {@link ClusterResolvers#provider(String)}'s error. */
  private static ClusterResolverProvider named(List<ClusterResolverProvider> providers, String name) {
    for (ClusterResolverProvider candidate : providers) {
      if (candidate.name().equals(name)) {
        return candidate;
      }
    }
    return ClusterResolvers.provider(name); // throws, listing the known providers with a suggestion
  }

  /** The properties of {@code provider} that choose which members are listed, as set: {@code key=value} each. */
  private static List<String> filterOf(ClusterResolverProvider provider, ResolverConfig config) {
    List<String> filter = new java.util.ArrayList<>();
    for (ConfigProperty<?> property : provider.properties()) {
      if (FILTER_PROPERTIES.contains(property.name()) && config.isSet(property)) {
        filter.add(config.key(property) + "=" + asWritten(config.get(property)));
      }
    }
    return filter;
  }

  /** A property's value as a user writes it ({@code k1=v1,k2=v2}, {@code a,b}), not as Java prints it. */
  private static String asWritten(Object value) {
    if (value instanceof Map) {
      List<String> pairs = new java.util.ArrayList<>();
      ((Map<?, ?>) value).forEach((k, v) -> pairs.add(k + "=" + v));
      return String.join(",", pairs);
    }
    if (value instanceof List) {
      return String.join(",", ((List<?>) value).stream().map(String::valueOf).toList());
    }
    return String.valueOf(value);
  }

  /** Settings no provider reads (typos outside the provider in use): one warning each, on stderr. */
  private void warnAboutUnknownKeys(List<ClusterResolverProvider> onClassPath, ClusterResolverProvider chosen,
      Map<String, String> environment) {
    Map<String, String> keys = new LinkedHashMap<>();
    for (String name : System.getProperties().stringPropertyNames()) {
      keys.put(name, "system property");
    }
    // Loops rather than forEach with lambdas, here and below: this runs at every cold start.
    for (String key : propertyOptions.commandLineKeys()) {
      keys.put(key, "-D");
    }
    for (String key : propertyOptions.fileKeys()) {
      keys.put(key, "--config file");
    }
    List<String> warnings = UnknownKeys.warnings(onClassPath, chosen, keys, environment);
    CommandSpec command = command();
    if (!warnings.isEmpty() && command != null) {
      PrintWriter err = command.commandLine().getErr();
      for (String warning : warnings) {
        err.println("cluster-resolver: " + warning);
      }
      err.flush();
    }
  }

  /** The wait --wait and --min-tasks ask for, or {@code null} for none (then --min-tasks is checked once). */
  private ClusterWait clusterWait() {
    Integer minTasks = this.minTasks.getValue();
    String waitFor = this.waitFor.getValue();
    if (minTasks != null && minTasks < 1) {
      throw new ConfigurationException("--min-tasks " + minTasks + ": give at least 1");
    }
    if (waitFor == null) {
      return null;
    }
    Duration timeout = ConfigProperty.duration("wait").build().parse("--wait", waitFor);
    PrintWriter err = command().commandLine().getErr();
    boolean live = System.console() != null; // a terminal: one line rewritten in place
    return ClusterWait.forTasks(minTasks == null ? 1 : minTasks)
        .timeout(timeout)
        .initialInterval(Duration.ofMillis(Math.min(1000, Math.max(100, timeout.toMillis() / 20))))
        .onPoll(poll -> {
          boolean done = poll.failure() == null && poll.tasks() >= poll.minTasks();
          err.print(live ? "\r\u001b[Kcluster-resolver: " + poll + (done ? System.lineSeparator() : "")
              : "cluster-resolver: " + poll + System.lineSeparator());
          err.flush();
        });
  }

  /** The provider named with {@code --provider}, or {@code null} when it is to be detected. */
  public String providerName() {
    return provider.getValue();
  }

  private static boolean declares(ClusterResolverProvider provider, String name) {
    for (ConfigProperty<?> property : provider.properties()) {
      if (property.name().equals(name)) {
        return true;
      }
    }
    return false;
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
    private final ClusterWait wait;
    private final Integer minTasks;
    private final List<String> filter;
    private final PrintWriter err;

    Selection(ClusterResolverProvider provider, ClusterResolver resolver, String taskType, Integer taskId,
        ClusterWait wait, Integer minTasks, List<String> filter, PrintWriter err) {
      this.provider = provider;
      this.resolver = resolver;
      this.taskType = taskType;
      this.taskId = taskId;
      this.wait = wait;
      this.minTasks = minTasks;
      this.filter = List.copyOf(filter);
      this.err = err;
    }

    public ClusterResolverProvider provider() {
      return provider;
    }

    public ClusterResolver resolver() {
      return resolver;
    }

    /** Asks the resolver once and captures everything a format prints. */
    Answer resolve() {
      Resolution snapshot;
      if (wait == null) {
        snapshot = resolver.resolve();
        int tasks = snapshot == null ? 0 : snapshot.clusterSpec().totalTasks();
        if (minTasks != null && tasks < minTasks) {
          // Like a --wait that ran out: the source has too few tasks now (exit 3), nothing is printed.
          throw new ClusterResolverException("The cluster from provider '" + provider.name() + "' has " + tasks
              + " task(s), fewer than --min-tasks " + minTasks + ": add --wait DURATION to wait for the rest");
        }
      } else {
        // Wait on resolve(), then show that same snapshot: no second listing.
        snapshot = wait.await(resolver);
      }
      if (snapshot != null && snapshot.clusterSpec().totalTasks() == 0 && err != null) {
        err.println("cluster-resolver: provider '" + provider.name() + "' listed no task"
            + (filter.isEmpty() ? "" : ": nothing matches " + String.join(", ", filter)));
        err.flush();
      }
      return Answer.of(provider.name(), snapshot, resolver, taskType, taskId);
    }
  }
}
