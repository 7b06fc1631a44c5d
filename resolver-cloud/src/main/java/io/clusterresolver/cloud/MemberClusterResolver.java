package io.clusterresolver.cloud;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.internal.Masters;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.TaskProperties;
import io.clusterresolver.spi.ResolverConfig;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A {@link ClusterResolver} over any {@link MemberSource}: every call lists the members afresh and
 * lays them out with a {@link ClusterLayout}. This process's own task comes from explicit
 * {@code task-type}/{@code task-id} overrides, else from matching its identity (an instance id from
 * the metadata server) against the members. Cloud providers build one of these instead of
 * implementing {@link ClusterResolver} themselves, so every cloud behaves alike. Thread-safe.
 *
 * <p>With a {@linkplain Builder#defaultTask(String, int) default task}, a process whose identity
 * matches no member is that task (TensorFlow's TPU resolver: a client of a node is worker 0), and a
 * source that lists no member at all means the process runs alone (TPU {@code local}): the cluster
 * is empty, {@link #master()} is {@code ""} and no task has accelerators, while the process is still
 * the default task.
 */
public final class MemberClusterResolver implements ClusterResolver {

  private static final System.Logger LOG = System.getLogger(MemberClusterResolver.class.getName());

  private final String provider;
  private final MemberSource source;
  private final ClusterLayout layout;
  private final Supplier<Optional<String>> selfIdentity;
  private final String taskTypeOverride;
  private final Integer taskIdOverride;
  private final String rpcLayer;
  private final String environment;
  private final String defaultJob;
  private final int defaultIndex;
  private final String description;

  private MemberClusterResolver(Builder b) {
    this.provider = b.provider;
    this.source = b.source;
    this.layout = b.layout;
    this.selfIdentity = b.selfIdentity;
    this.taskTypeOverride = b.taskType;
    this.taskIdOverride = b.taskId;
    this.rpcLayer = b.rpcLayer == null || b.rpcLayer.isEmpty() ? null : b.rpcLayer;
    this.environment = b.environment;
    this.defaultJob = b.defaultJob;
    this.defaultIndex = b.defaultIndex;
    this.description = b.description;
  }

  /**
   * A builder.
   *
   * @param provider the provider name, for log lines and messages
   * @param source lists the members on every call
   */
  public static Builder builder(String provider, MemberSource source) {
    return new Builder(provider).source(source);
  }

  /**
   * A builder whose {@link Builder#source(MemberSource) source} is set later (once the
   * configuration it needs has been validated).
   *
   * @param provider the provider name, for log lines and messages
   */
  public static Builder builder(String provider) {
    return new Builder(provider);
  }

  /** Lists the members and lays them out: the whole placement, for callers that need more than the spec. */
  public Placement placement() {
    List<Member> members = source.members();
    if (members.isEmpty() && defaultJob != null) {
      return new Placement(ClusterSpec.empty(), List.of(), List.of(), false);
    }
    Placement placement = layout.place(members);
    if (!placement.leftOut().isEmpty()) {
      LOG.log(Level.INFO, () -> provider + ": " + placement.leftOut().size() + " member(s) without the job tag '"
          + layout.jobs().tag().orElse("") + "' left out: "
          + placement.leftOut().stream().map(Member::id).collect(Collectors.joining(", ")));
    }
    if (placement.renumbered()) {
      LOG.log(Level.WARNING, () -> provider + ": the members' ordinals are not all there and distinct (several"
          + " groups, or a member without one): tasks are numbered 0.." + (placement.tasks().size() - 1)
          + " in member order instead of by ordinal");
    }
    return placement;
  }

  /** Whether the source listed no member and a default task is set: this process runs alone. */
  private boolean alone(Placement placement) {
    return defaultJob != null && placement.spec().isEmpty();
  }

  @Override
  public ClusterSpec clusterSpec() {
    return placement().spec();
  }

  /** One listing: the spec, this process's task and its accelerators all come from it. */
  @Override
  public Resolution resolve() {
    Placement placement = placement();
    Optional<Placement.Task> own = self(placement);
    String type = taskTypeOverride != null ? taskTypeOverride : own.map(Placement.Task::job).orElse(defaultJob);
    Integer id = taskIdOverride != null ? taskIdOverride : own.map(Placement.Task::index).orElse(defaultIndex());
    Map<String, Integer> accelerators = type == null || id == null ? Map.of()
        : placement.task(type, id).map(Placement.Task::accelerators).orElse(Map.of());
    return Resolution.builder(placement.spec())
        .taskType(type)
        .taskId(id)
        .rpcLayer(rpcLayer)
        .environment(environment)
        .accelerators(accelerators)
        .build();
  }

  @Override
  public String master(String taskType, Integer taskId, String rpcLayer) {
    Placement placement = placement();
    if (alone(placement)) {
      return "";
    }
    Optional<Placement.Task> own = taskType == null || taskId == null ? self(placement) : Optional.empty();
    String type = taskType != null ? taskType : taskTypeOverride != null ? taskTypeOverride
        : own.map(Placement.Task::job).orElse(defaultJob);
    Integer id = taskId != null ? taskId : taskIdOverride != null ? taskIdOverride
        : own.map(Placement.Task::index).orElse(defaultIndex());
    if (type == null || id == null) {
      return "";
    }
    return Masters.format(placement.spec().taskAddress(type, id), rpcLayer != null ? rpcLayer : this.rpcLayer);
  }

  @Override
  public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
    Placement placement = placement();
    if (alone(placement)) {
      return Map.of(); // TF: a TPU attached to this host; only its runtime counts its devices
    }
    Optional<Placement.Task> own = taskType == null || taskId == null ? self(placement) : Optional.empty();
    String type = taskType != null ? taskType : defaultJob != null && taskTypeOverride != null ? taskTypeOverride
        : own.map(Placement.Task::job).orElse(defaultJob);
    Integer id = taskId != null ? taskId : defaultJob != null && taskIdOverride != null ? taskIdOverride
        : own.map(Placement.Task::index).orElse(defaultIndex());
    if (type == null || id == null) {
      return Map.of();
    }
    placement.spec().taskAddress(type, id); // IllegalArgumentException naming an unknown job or task
    return placement.task(type, id).map(Placement.Task::accelerators).orElse(Map.of());
  }

  @Override
  public String environment() {
    return environment;
  }

  @Override
  public Optional<String> taskType() {
    if (taskTypeOverride != null) {
      return Optional.of(taskTypeOverride);
    }
    if (defaultJob != null && layout.jobs().fixedJob().equals(Optional.of(defaultJob))) {
      return Optional.of(defaultJob); // every task is in this job: no listing needed
    }
    return self(placement()).map(Placement.Task::job).or(() -> Optional.ofNullable(defaultJob));
  }

  @Override
  public OptionalInt taskId() {
    if (taskIdOverride != null) {
      return OptionalInt.of(taskIdOverride);
    }
    return self(placement()).map(t -> OptionalInt.of(t.index()))
        .orElse(defaultJob != null ? OptionalInt.of(defaultIndex) : OptionalInt.empty());
  }

  /** The default task's index, or {@code null} without a default task. */
  private Integer defaultIndex() {
    return defaultJob != null ? Integer.valueOf(defaultIndex) : null;
  }

  @Override
  public Optional<String> rpcLayer() {
    return Optional.ofNullable(rpcLayer);
  }

  /** This process's task: the overrides when both are set, else the member matching our identity. */
  private Optional<Placement.Task> self(Placement placement) {
    if (taskTypeOverride != null && taskIdOverride != null) {
      return placement.task(taskTypeOverride, taskIdOverride);
    }
    Optional<String> identity = selfIdentity.get();
    return identity.flatMap(placement::self);
  }

  @Override
  public String toString() {
    return "MemberClusterResolver{" + provider + (description == null ? "" : ", " + description) + ", " + layout + "}";
  }

  /** Builds a {@link MemberClusterResolver}. */
  public static final class Builder {
    private final String provider;
    private MemberSource source;
    private ClusterLayout layout = ClusterLayout.defaults();
    private Supplier<Optional<String>> selfIdentity = Optional::empty;
    private String taskType;
    private Integer taskId;
    private String rpcLayer = "grpc";
    private String environment = "";
    private String defaultJob;
    private int defaultIndex;
    private String description;

    private Builder(String provider) {
      this.provider = Objects.requireNonNull(provider, "provider");
    }

    /** Lists the members on every call. */
    public Builder source(MemberSource source) {
      this.source = Objects.requireNonNull(source, "source");
      return this;
    }

    /**
     * Takes the layout, the task overrides and the rpc layer from the shared
     * {@link CloudProperties} and {@link TaskProperties} of a provider's configuration; each
     * problem is added to {@code problems}, naming its full key, and leaves the layout unchanged.
     */
    public Builder configure(ResolverConfig config, ConfigProperty<String> tasksPerMember, List<String> problems) {
      return configure(config, ClusterLayout.fromConfig(config, tasksPerMember, problems), problems);
    }

    /** {@link #configure(ResolverConfig, ConfigProperty, List)} with the layout already read ({@code null}: it had a problem). */
    Builder configure(ResolverConfig config, ClusterLayout configured, List<String> problems) {
      if (configured != null) {
        layout = configured;
      }
      java.time.Duration timeout = config.get(CloudProperties.TIMEOUT);
      if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
        problems.add(config.key(CloudProperties.TIMEOUT) + ": '" + timeout.toMillis() + "ms' must be positive, like 30s");
      }
      taskType = config.get(TaskProperties.TASK_TYPE);
      taskId = config.get(TaskProperties.TASK_ID);
      rpcLayer = config.get(TaskProperties.RPC_LAYER);
      return this;
    }

    public Builder layout(ClusterLayout layout) {
      this.layout = Objects.requireNonNull(layout, "layout");
      return this;
    }

    /**
     * Where this process's identity comes from (an instance id, a host name); asked when the own
     * task is needed. It may cache: an identity does not change while the process runs.
     */
    public Builder selfIdentity(Supplier<Optional<String>> selfIdentity) {
      this.selfIdentity = Objects.requireNonNull(selfIdentity, "selfIdentity");
      return this;
    }

    public Builder taskType(String taskType) {
      this.taskType = taskType;
      return this;
    }

    public Builder taskId(Integer taskId) {
      this.taskId = taskId;
      return this;
    }

    /** The scheme of master addresses; {@code null} or empty for none. */
    public Builder rpcLayer(String rpcLayer) {
      this.rpcLayer = rpcLayer;
      return this;
    }

    /** What {@link ClusterResolver#environment()} returns, such as {@code aws}. */
    public Builder environment(String environment) {
      this.environment = Objects.requireNonNull(environment, "environment");
      return this;
    }

    /**
     * The task of a process whose identity matches no member, as TensorFlow's TPU resolver does (a
     * client of the node is worker 0); with it, a source that lists no member means the process runs
     * alone: an empty cluster, {@code master()} {@code ""}, no accelerators. Unset: such a process has
     * no task (the default).
     *
     * @throws IllegalArgumentException for a negative index
     */
    public Builder defaultTask(String job, int index) {
      if (index < 0) {
        throw new IllegalArgumentException("The default task's index is negative: " + index);
      }
      this.defaultJob = Objects.requireNonNull(job, "job");
      this.defaultIndex = index;
      return this;
    }

    /** What the resolver asks (an endpoint, a namespace, a node; never a secret), for {@link #toString()}. */
    public Builder description(String description) {
      this.description = description;
      return this;
    }

    public MemberClusterResolver build() {
      Objects.requireNonNull(source, "source");
      return new MemberClusterResolver(this);
    }
  }
}
