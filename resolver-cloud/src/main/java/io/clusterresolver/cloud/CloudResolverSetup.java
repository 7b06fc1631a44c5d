package io.clusterresolver.cloud;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.cloud.internal.HeaderLogGuard;
import io.clusterresolver.cloud.internal.ListingSharing;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * What every cloud provider's factory does around its own cloud, done once: credentials kept out of
 * the logs, endpoint overrides checked, the layout and the task overrides read from the shared
 * {@link CloudProperties}, every configuration problem reported at once, and the listing shared
 * between processes (one per host, one per job through a relay) under a query derived from the
 * provider's declarations. The provider adds its own checks and its {@link MemberSource}:
 *
 * <pre>{@code
 * static ClusterResolver create(ResolverConfig config) {          // in a class apart from the provider's
 *   CloudResolverSetup setup = CloudResolverSetup.start(config, MyProperties.DECLARATIONS);
 *   URI endpoint = setup.endpoint(MyProperties.ENDPOINT);
 *   String project = config.get(MyProperties.PROJECT);
 *   if (project == null) {
 *     setup.problems().add(config.key(MyProperties.PROJECT) + " is not set: set it, like my-project");
 *   }
 *   setup.requireValid();                                          // every problem at once, exit 2
 *   MemberSource cloud = new MyCloudSource(endpoint, project);     // the cloud: listing and parsing
 *   return setup.resolver(cloud, SelfIdentity.cached(metadata::vmId), "mycloud", project);
 * }
 * }</pre>
 *
 * <p>The provider's declarations are {@link CloudProperties#declarations}' (or hold
 * {@link CloudProperties#layout(ConfigProperty)}, or the same properties under its own job tag, see
 * {@link #start(ResolverConfig, List, ConfigProperty, ConfigProperty)}, and {@link CloudProperties#sharing()}). A layout property it does not declare keeps the layout's
 * default: a provider whose members carry their task index (a StatefulSet's pods, a TPU's workers)
 * declares no {@code order} and says {@link #indexByOrdinal()}. One setup builds one resolver; not
 * thread-safe.
 */
public final class CloudResolverSetup {

  /** {@link CloudProperties#TIMEOUT}'s default. */
  private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private final ResolverConfig config;
  private final List<ConfigProperty<?>> declared;
  private final ConfigProperty<String> tasksPerMember;
  private final ConfigProperty<String> jobTag;
  private final ConfigProperty<String> fixedJob;
  private final List<String> problems = new ArrayList<>();
  private final MemberClusterResolver.Builder resolver;
  /** The layout read from the configuration, {@code null} when it has a problem. */
  private final ClusterLayout.Builder layout;
  private InetSocketAddress relay;
  private boolean valid;

  private CloudResolverSetup(ResolverConfig config, List<ConfigProperty<?>> declared,
      ConfigProperty<String> tasksPerMember, ConfigProperty<String> jobTag) {
    this.config = Objects.requireNonNull(config, "config");
    this.declared = List.copyOf(declared);
    this.tasksPerMember = tasksPerMember;
    this.jobTag = Objects.requireNonNull(jobTag, "jobTag");
    this.fixedJob = isDeclared(CloudProperties.JOB) ? CloudProperties.JOB : null;
    this.layout = ClusterLayout.read(config, this::isDeclared, tasksPerMember, jobTag, fixedJob, problems);
    this.resolver = MemberClusterResolver.builder(config.provider()).configure(config, (ClusterLayout) null, problems);
  }

  /** Whether the provider declares {@code property} (by name and type, as {@link ResolverConfig} finds it). */
  private boolean isDeclared(ConfigProperty<?> property) {
    return declared.stream().anyMatch(p -> p.name().equals(property.name()) && p.type() == property.type());
  }

  /**
   * Starts a provider's setup: holds the loggers that would print credentials (before any request,
   * a metadata server's included), then reads the layout ({@code job}, {@code job-tag}, {@code jobs},
   * {@code order}, the tasks-per-member property, {@code port}), {@code task-type}, {@code task-id},
   * {@code rpc-layer} and {@code timeout}; each problem is kept for {@link #requireValid()}.
   *
   * @param config the provider's configuration
   * @param declared every property the provider declares (its {@code properties()}): the listing
   *     query is derived from them
   * @param tasksPerMember the provider's {@link CloudProperties#tasksPerMember(String)} property
   */
  public static CloudResolverSetup start(
      ResolverConfig config, List<ConfigProperty<?>> declared, ConfigProperty<String> tasksPerMember) {
    return start(config, declared, Objects.requireNonNull(tasksPerMember, "tasksPerMember"), CloudProperties.JOB_TAG);
  }

  /**
   * Starts the setup of a provider whose declarations the kit placed ({@link CloudProperties#declarations}):
   * {@link #start(ResolverConfig, List, ConfigProperty, ConfigProperty)} with their job tag and
   * tasks-per-member property, {@link #indexByOrdinal()} when their members carry their task index.
   */
  public static CloudResolverSetup start(ResolverConfig config, CloudProperties.Declarations declarations) {
    CloudResolverSetup setup = start(config, declarations.all(), declarations.tasksPerMember().orElse(null),
        declarations.jobTag());
    return declarations.indexByOrdinal() ? setup.indexByOrdinal() : setup;
  }

  /**
   * {@link #start(ResolverConfig, List, ConfigProperty)} for a provider whose member is one task (a
   * pod, a TPU worker): it declares no tasks-per-member property.
   */
  public static CloudResolverSetup start(ResolverConfig config, List<ConfigProperty<?>> declared) {
    return start(config, declared, null, CloudProperties.JOB_TAG);
  }

  /**
   * {@link #start(ResolverConfig, List, ConfigProperty)} for a provider that names the job tag in its
   * cloud's words, like Compute Engine's {@code job-label}. The {@code job} property is read only when
   * {@code declared} holds {@link CloudProperties#JOB}; without it every member is in job
   * {@value ClusterLayout#DEFAULT_JOB} unless the job tag or {@code jobs} is set.
   *
   * @param tasksPerMember the provider's tasks-per-member property, {@code null} when each member is
   *     one task
   */
  public static CloudResolverSetup start(ResolverConfig config, List<ConfigProperty<?>> declared,
      ConfigProperty<String> tasksPerMember, ConfigProperty<String> jobTag) {
    keepHeadersOutOfLogs();
    return new CloudResolverSetup(config, declared, tasksPerMember, jobTag);
  }

  /**
   * Holds the loggers that would write credentials (the JDK's {@code HttpURLConnection} request
   * headers, Google's HTTP client bodies, the JDK {@code HttpClient}'s headers) at a level where they
   * do not, whatever level a user turns logging up to. {@link #start} calls it; a provider that does
   * not use this setup calls it before its first request.
   */
  public static void keepHeadersOutOfLogs() {
    HeaderLogGuard.keepHeadersOutOfLogs();
  }

  /** The configuration this setup reads. */
  public ResolverConfig config() {
    return config;
  }

  /**
   * The {@code timeout} of one resolve, for the provider's clients. When it is not positive a problem
   * already names it and this is the default (30 s), so that the provider's own checks can still run.
   */
  public Duration timeout() {
    Duration timeout = config.get(CloudProperties.TIMEOUT);
    return timeout.isZero() || timeout.isNegative() ? DEFAULT_TIMEOUT : timeout;
  }

  /**
   * The {@code http://} or {@code https://} URL an endpoint override holds ({@code endpoint},
   * {@code metadata-endpoint}, …), or {@code null} when it is unset or invalid (then a problem names
   * the key): {@link Endpoints#httpUrl}.
   */
  public URI endpoint(ConfigProperty<String> property) {
    return Endpoints.httpUrl(config, property, problems);
  }

  /**
   * The problems found so far, for the provider to add its own to (each naming its full key and what
   * to change). A provider asks a metadata server for a missing value only while this is empty: a
   * configuration already wrong gets its error at once.
   */
  public List<String> problems() {
    return problems;
  }

  /**
   * The values of a list property the cloud knows (its instance states, say), each spelled as
   * {@code spelling} writes it before it is compared ({@code String::trim}, upper case…). Every other value
   * is a problem: {@code KEY: 'value' is not WHAT (known, …)}.
   *
   * @param property the list property
   * @param known the cloud's values, in the order the problem lists them
   * @param what what one value is, with its article: {@code an instance state}
   * @param spelling how a configured value is written before it is compared
   * @return the known values given, spelled, in the order given
   */
  public List<String> knownValues(ConfigProperty<List<String>> property, List<String> known, String what,
      UnaryOperator<String> spelling) {
    List<String> values = new ArrayList<>();
    for (String given : config.get(property)) {
      String value = spelling.apply(given);
      if (known.contains(value)) {
        values.add(value);
      } else {
        problems.add(config.key(property) + ": '" + given + "' is not " + what + " (" + String.join(", ", known) + ")");
      }
    }
    return List.copyOf(values);
  }

  /**
   * A value the user may leave to the platform, like a region, a project or a subscription: the
   * property when set, else the first environment variable set, else what the metadata server says
   * (asked only while {@link #problems()} is empty). Without a value, a problem names the key, where
   * the value was looked for and an example:
   *
   * <pre>{@code
   * String region = setup.lookup(AwsProperties.REGION, "region", "us-east-1")
   *     .orEnvironment("AWS_REGION", "AWS_DEFAULT_REGION")
   *     .orMetadata("the instance metadata", imds::region)
   *     .matching(REGION_NAME, "region name: lower-case words and digits joined by dashes");
   * }</pre>
   *
   * @param property the property that sets it
   * @param what its name in messages, like {@code region}
   * @param example a valid value, for messages
   */
  public Lookup lookup(ConfigProperty<String> property, String what, String example) {
    return new Lookup(property, what, example);
  }

  /** A value from a property, the environment or a metadata server: see {@link #lookup}. */
  public final class Lookup {
    private final ConfigProperty<String> property;
    private final String what;
    private final String example;
    private final List<String> places = new ArrayList<>();
    private final List<Supplier<Optional<String>>> sources = new ArrayList<>();

    private Lookup(ConfigProperty<String> property, String what, String example) {
      this.property = Objects.requireNonNull(property, "property");
      this.what = Objects.requireNonNull(what, "what");
      this.example = Objects.requireNonNull(example, "example");
      sources.add(() -> config.find(property));
    }

    /** Then the first of these environment variables that is set. */
    public Lookup orEnvironment(String... variables) {
      for (String variable : variables) {
        places.add(variable);
        sources.add(() -> Optional.ofNullable(config.getenv(variable)));
      }
      return this;
    }

    /**
     * Then another place the platform keeps the value, asked whatever was found so far (it must not
     * wait on the network: a metadata server is {@link #orMetadata}), like a field of a JSON variable
     * ({@code TPU_CONFIG}'s {@code zone}).
     *
     * @param place where it looks, for messages, like {@code TPU_CONFIG (zone)}
     * @param source the value there, or empty
     */
    public Lookup or(String place, Supplier<Optional<String>> source) {
      places.add(Objects.requireNonNull(place, "place"));
      sources.add(Objects.requireNonNull(source, "source"));
      return this;
    }

    /**
     * Then {@code metadata}, asked only while no problem was found: a configuration already wrong
     * gets its error without waiting on a metadata server.
     *
     * @param place where it looks, for messages, like {@code the instance metadata}
     */
    public Lookup orMetadata(String place, Supplier<Optional<String>> metadata) {
      places.add(place);
      sources.add(() -> problems.isEmpty() ? metadata.get() : Optional.empty());
      return this;
    }

    /** The value, or {@code null} when none was found (a problem names the key and where it was looked for). */
    public String get() {
      for (Supplier<Optional<String>> source : sources) {
        Optional<String> value = source.get();
        if (value.isPresent()) {
          return value.get();
        }
      }
      problems.add(config.key(property) + " is not set" + (places.isEmpty() ? "" : " and no " + what
          + " was found in " + String.join(", ", places.subList(0, places.size() - 1))
          + (places.size() > 1 ? " or " : "") + places.get(places.size() - 1)) + ": set it, like " + example);
      return null;
    }

    /**
     * {@link #get()}, also {@code null} when the value does not match {@code format}: then a problem
     * says {@code KEY: 'VALUE' is not a RULE}.
     *
     * @param rule what a valid value is, like {@code region name: lower-case words and digits joined by dashes}
     */
    public String matching(Pattern format, String rule) {
      String value = get();
      if (value != null && !format.matcher(value).matches()) {
        problems.add(config.key(property) + ": '" + value + "' is not a " + rule);
        return null;
      }
      return value;
    }
  }

  /**
   * Orders the members by {@code order} unless the user set {@code order} (Azure's scale sets: their
   * instance order).
   */
  public CloudResolverSetup orderUnlessSet(MemberOrder order) {
    Objects.requireNonNull(order, "order");
    if (layout != null && !(isDeclared(CloudProperties.ORDER) && config.isSet(CloudProperties.ORDER))) {
      layout.order(order);
    }
    return this;
  }

  /**
   * Takes each member's {@linkplain Member#ordinal() ordinal} as its task index when the members are
   * one job (a StatefulSet's pods, a TPU's workers): a missing member leaves a gap instead of
   * renumbering those after it. See {@link ClusterLayout.Builder#indexByOrdinal()}; with one task per
   * accelerator it is a problem naming the tasks-per-member property.
   */
  public CloudResolverSetup indexByOrdinal() {
    if (layout != null) {
      layout.indexByOrdinal();
    }
    return this;
  }

  /**
   * The task of a process that is no member: see {@link MemberClusterResolver.Builder#defaultTask}
   * (TensorFlow's TPU resolver: a client of the node is worker 0).
   */
  public CloudResolverSetup defaultTask(String job, int index) {
    resolver.defaultTask(job, index);
    return this;
  }

  /**
   * What the resolver's {@code toString()} adds about what it lists, like {@code namespace ml, selector
   * app=trainer}: never a secret.
   */
  public CloudResolverSetup description(String description) {
    resolver.description(description);
    return this;
  }

  /**
   * Checks the relay's properties, then throws when any problem was found.
   *
   * @throws ConfigurationException naming the provider and every problem, one per line (CLI exit 2)
   */
  public void requireValid() {
    if (valid) {
      return;
    }
    if (layout != null) {
      try {
        resolver.layout(layout.build());
      } catch (IllegalArgumentException e) { // index by ordinal with one task per accelerator
        problems.add(config.key(tasksPerMember) + ": " + e.getMessage());
      }
    }
    relay = ListingSharing.relayAddress(config, problems);
    if (!problems.isEmpty()) {
      throw ResolverConfig.problems(config.provider(), problems);
    }
    valid = true;
  }

  /**
   * The resolver over {@code cloud}, its listings shared as {@link CloudProperties#sharing()} asks:
   * by the processes of this host, and through the relay by every host. Listings are shared only
   * between processes of one query: every declared property as this process resolved it (secret
   * values hashed, never in clear; not those that only place this process, tune sharing or the
   * deadline), then {@code resolved}.
   *
   * @param cloud lists the cloud
   * @param self this process's identity ({@link SelfIdentity#none()} when it has none)
   * @param environment what {@link io.clusterresolver.ClusterResolver#environment()} returns
   * @param resolved what decides the listing besides the properties: values found elsewhere (a
   *     region or project from the metadata server) and the credentials' environment (hashed)
   * @throws IllegalStateException before {@link #requireValid()} passed
   */
  public MemberClusterResolver resolver(MemberSource cloud, SelfIdentity self, String environment,
      String... resolved) {
    requireChecked();
    Objects.requireNonNull(cloud, "cloud");
    if (relay == null && !config.get(ListingSharing.SHARED_LISTING)) {
      return build(cloud, self, environment); // nothing shared: no query digest (it would load the JDK's security providers)
    }
    String query = ListingSharing.query(config, declared, resolved);
    return build(ListingSharing.around(config, cloud, query, relay), self, environment);
  }

  /**
   * The resolver over a source that asks no one, like addresses the user gave or a directly attached
   * accelerator: there is no listing to share, so neither the host's processes nor the relay are
   * involved.
   *
   * @throws IllegalStateException before {@link #requireValid()} passed
   */
  public MemberClusterResolver unsharedResolver(MemberSource source, SelfIdentity self, String environment) {
    requireChecked();
    return build(Objects.requireNonNull(source, "source"), self, environment);
  }

  private void requireChecked() {
    if (!valid) {
      throw new IllegalStateException("Call requireValid() before resolver(): the configuration is not checked");
    }
  }

  private MemberClusterResolver build(MemberSource source, SelfIdentity self, String environment) {
    return resolver.source(source).selfIdentity(Objects.requireNonNull(self, "self")).environment(environment).build();
  }

  @Override
  public String toString() {
    return "CloudResolverSetup{" + config.provider() + ", " + problems.size() + " problem(s)}";
  }
}
