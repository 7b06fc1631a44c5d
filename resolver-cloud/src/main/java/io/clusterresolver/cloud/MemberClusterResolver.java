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

  private MemberClusterResolver(Builder b) {
    this.provider = b.provider;
    this.source = b.source;
    this.layout = b.layout;
    this.selfIdentity = b.selfIdentity;
    this.taskTypeOverride = b.taskType;
    this.taskIdOverride = b.taskId;
    this.rpcLayer = b.rpcLayer == null || b.rpcLayer.isEmpty() ? null : b.rpcLayer;
    this.environment = b.environment;
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
    Placement placement = layout.place(source.members());
    if (!placement.leftOut().isEmpty()) {
      LOG.log(Level.INFO, () -> provider + ": " + placement.leftOut().size() + " member(s) without the job tag '"
          + layout.jobs().tag().orElse("") + "' left out: "
          + placement.leftOut().stream().map(Member::id).collect(Collectors.joining(", ")));
    }
    return placement;
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
    String type = taskTypeOverride != null ? taskTypeOverride : own.map(Placement.Task::job).orElse(null);
    Integer id = taskIdOverride != null ? taskIdOverride : own.map(Placement.Task::index).orElse(null);
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
    Optional<Placement.Task> own = taskType == null || taskId == null ? self(placement) : Optional.empty();
    String type = taskType != null ? taskType : taskTypeOverride != null ? taskTypeOverride
        : own.map(Placement.Task::job).orElse(null);
    Integer id = taskId != null ? taskId : taskIdOverride != null ? taskIdOverride
        : own.map(Placement.Task::index).orElse(null);
    if (type == null || id == null) {
      return "";
    }
    return Masters.format(placement.spec().taskAddress(type, id), rpcLayer != null ? rpcLayer : this.rpcLayer);
  }

  @Override
  public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
    Placement placement = placement();
    Optional<Placement.Task> own = taskType == null || taskId == null ? self(placement) : Optional.empty();
    String type = taskType != null ? taskType : own.map(Placement.Task::job).orElse(null);
    Integer id = taskId != null ? taskId : own.map(Placement.Task::index).orElse(null);
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
    return self(placement()).map(Placement.Task::job);
  }

  @Override
  public OptionalInt taskId() {
    if (taskIdOverride != null) {
      return OptionalInt.of(taskIdOverride);
    }
    return self(placement()).map(t -> OptionalInt.of(t.index())).orElse(OptionalInt.empty());
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
    return "MemberClusterResolver{" + provider + ", " + layout + "}";
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

    public MemberClusterResolver build() {
      Objects.requireNonNull(source, "source");
      return new MemberClusterResolver(this);
    }
  }
}
