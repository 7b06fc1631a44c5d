package io.clusterresolver.cloud;

import io.clusterresolver.ConfigurationException;
import io.clusterresolver.cloud.internal.HeaderLogGuard;
import io.clusterresolver.cloud.internal.ListingSharing;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
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
 *   CloudResolverSetup setup = CloudResolverSetup.start(config, MyProperties.ALL, MyProperties.TASKS_PER_VM);
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
 * <p>The provider's declarations must hold {@link CloudProperties#layout(ConfigProperty)} (or the same
 * properties under its own job tag, see {@link #start(ResolverConfig, List, ConfigProperty, ConfigProperty)})
 * and {@link CloudProperties#sharing()}. One setup builds one resolver; not thread-safe.
 */
public final class CloudResolverSetup {

  private final ResolverConfig config;
  private final List<ConfigProperty<?>> declared;
  private final ConfigProperty<String> tasksPerMember;
  private final ConfigProperty<String> jobTag;
  private final ConfigProperty<String> fixedJob;
  private final List<String> problems = new ArrayList<>();
  private final MemberClusterResolver.Builder resolver;
  private InetSocketAddress relay;
  private boolean valid;

  private CloudResolverSetup(ResolverConfig config, List<ConfigProperty<?>> declared,
      ConfigProperty<String> tasksPerMember, ConfigProperty<String> jobTag) {
    this.config = Objects.requireNonNull(config, "config");
    this.declared = List.copyOf(declared);
    this.tasksPerMember = Objects.requireNonNull(tasksPerMember, "tasksPerMember");
    this.jobTag = Objects.requireNonNull(jobTag, "jobTag");
    this.fixedJob = this.declared.contains(CloudProperties.JOB) ? CloudProperties.JOB : null;
    this.resolver = MemberClusterResolver.builder(config.provider()).configure(config, layout(null), problems);
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
    return start(config, declared, tasksPerMember, CloudProperties.JOB_TAG);
  }

  /**
   * {@link #start(ResolverConfig, List, ConfigProperty)} for a provider that names the job tag in its
   * cloud's words, like Compute Engine's {@code job-label}. The {@code job} property is read only when
   * {@code declared} holds {@link CloudProperties#JOB}; without it every member is in job
   * {@value ClusterLayout#DEFAULT_JOB} unless the job tag or {@code jobs} is set.
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
    ClusterLayout layout = layout(order);
    if (layout != null) {
      resolver.layout(layout);
    }
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
    if (!valid) {
      throw new IllegalStateException("Call requireValid() before resolver(): the configuration is not checked");
    }
    String query = ListingSharing.query(config, declared, resolved);
    return resolver.source(ListingSharing.around(config, Objects.requireNonNull(cloud, "cloud"), query, relay))
        .selfIdentity(Objects.requireNonNull(self, "self"))
        .environment(environment)
        .build();
  }

  /** The layout, {@code null} when it has a problem (added to {@link #problems} once, on the first read). */
  private ClusterLayout layout(MemberOrder defaultOrder) {
    return ClusterLayout.fromConfig(config, tasksPerMember, jobTag, fixedJob, defaultOrder,
        defaultOrder == null ? problems : new ArrayList<>());
  }

  @Override
  public String toString() {
    return "CloudResolverSetup{" + config.provider() + ", " + problems.size() + " problem(s)}";
  }
}
