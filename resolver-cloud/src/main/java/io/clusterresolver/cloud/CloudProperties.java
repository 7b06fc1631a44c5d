package io.clusterresolver.cloud;

import io.clusterresolver.cloud.internal.ListingSharing;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.TaskProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The property declarations every cloud provider shares, so that {@code job}, {@code jobs},
 * {@code order}, {@code port}, {@code address} and {@code timeout} mean the same in every cloud. A
 * provider names only its cloud's own properties and lets {@link #declarations} add the shared ones:
 *
 * <pre>{@code
 * static final CloudProperties.Declarations DECLARATIONS = CloudProperties.declarations(PROJECT, ZONES, ADDRESS)
 *     .tasksPerMember(CloudProperties.tasksPerMember("tasks-per-vm"))
 *     .then(ENDPOINT, CREDENTIALS)
 *     .build();   // project, zones, address, job, job-tag, jobs, order, tasks-per-vm, port, rpc-layer, ...
 * }</pre>
 */
public final class CloudProperties {

  /** The one job every task belongs to. */
  public static final ConfigProperty<String> JOB = ConfigProperty.string("job")
      .defaultValue(ClusterLayout.DEFAULT_JOB)
      .description("Job name of every task (when neither job-tag nor jobs is set)")
      .build();

  /** The tag whose value names each member's job. */
  public static final ConfigProperty<String> JOB_TAG = ConfigProperty.string("job-tag")
      .description("Tag (label) whose value is each member's job; members without it are left out")
      .build();

  /** Job counts: the grammar {@link JobAssignment#parseCounts(String)} reads. */
  public static final ConfigProperty<String> JOBS = ConfigProperty.string("jobs")
      .description(JobAssignment.GRAMMAR)
      .build();

  /** The member order. */
  public static final ConfigProperty<String> ORDER = ConfigProperty.string("order")
      .defaultValue("creation-time")
      .description("Task order: creation-time (then id), id, name, address (numeric) or tag:KEY (integer tag value)")
      .build();

  /** The port of each member's first task. */
  public static final ConfigProperty<Integer> PORT = port(ClusterLayout.DEFAULT_PORT,
      "Port of each member's first task; task i on a member listens on port + i");

  /** The overall deadline of one resolve. */
  public static final ConfigProperty<Duration> TIMEOUT = ConfigProperty.duration("timeout")
      .defaultValue("30s")
      .description("Overall deadline of one resolve, across all pages and retries")
      .build();

  /** The size limit of every answer a cloud provider reads (API pages, tokens, metadata): {@link AnswerLimit}. */
  public static final ConfigProperty<Integer> MAX_ANSWER_MIB = ConfigProperty.integer("max-answer-mib")
      .defaultValue("64")
      .range(1, 1024)
      .description("Largest answer read from the API, in MiB; a larger one is an error naming the endpoint and"
          + " this limit")
      .build();

  private CloudProperties() {}

  /**
   * The {@code port} property with a provider's own default, for a provider whose ports do not follow
   * {@link #PORT} (a TPU worker's 8470).
   */
  public static ConfigProperty<Integer> port(int defaultPort, String description) {
    return ConfigProperty.integer("port")
        .defaultValue(Integer.toString(defaultPort))
        .range(1, 65535)
        .description(description)
        .build();
  }

  /**
   * The label whose value names each member's job ({@code job-label}), a provider's word for
   * {@link #JOB_TAG} where members carry labels.
   */
  public static ConfigProperty<String> jobLabel(String description) {
    return ConfigProperty.string("job-label").description(description).build();
  }

  /**
   * The {@code endpoint} property: where the cloud's API is asked instead of its public endpoint (a
   * proxy, an emulator, a simulation). {@link CloudResolverSetup#endpoint} reads it.
   *
   * @param description the README's description, naming the cloud's API and its default endpoint
   */
  public static ConfigProperty<String> endpoint(String description) {
    return endpoint("endpoint", description);
  }

  /**
   * An endpoint property under the provider's own key, such as the metadata service's
   * ({@code imds-endpoint}, {@code metadata-endpoint}). {@link CloudResolverSetup#endpoint} reads it.
   *
   * @param description the README's description, naming the default endpoint
   */
  public static ConfigProperty<String> endpoint(String name, String description) {
    return ConfigProperty.string(name).description(description).build();
  }

  /**
   * The tasks-per-member property under a provider's own word for a member
   * ({@code tasks-per-instance}, {@code tasks-per-vm}, …).
   */
  public static ConfigProperty<String> tasksPerMember(String name) {
    return ConfigProperty.string(name)
        .defaultValue("1")
        .description("Tasks per member: a positive integer, or '" + TasksPerMember.PER_ACCELERATOR
            + "' for one task per accelerator")
        .build();
  }

  /**
   * The address property: which of a member's addresses its tasks listen on.
   *
   * @param defaultType the default, such as {@link AddressType#PRIVATE_IPV4}
   * @param supported the types this cloud can report, the default among them
   */
  public static ConfigProperty<String> address(AddressType defaultType, AddressType... supported) {
    List<String> names = new ArrayList<>();
    for (AddressType type : supported) {
      names.add(type.configName());
    }
    if (!names.contains(defaultType.configName())) {
      throw new IllegalArgumentException("The default address type " + defaultType + " is not among " + names);
    }
    return ConfigProperty.string("address")
        .defaultValue(defaultType.configName())
        .oneOf(names.toArray(new String[0]))
        .description("Address tasks listen on; members without it are left out (and logged)")
        .build();
  }

  /**
   * The listing-sharing declarations — {@code shared-listing}, {@code shared-listing-max-age},
   * {@code shared-listing-dir}, {@code relay}, {@code relay-serve}, {@code relay-max-age},
   * {@code relay-wait}, {@code relay-secret}, {@code relay-secret-file}, {@code relay-insecure} — in
   * the order a README lists them. A provider built with {@link CloudResolverSetup} declares them all:
   * its processes share listings, one per host and one per job through a relay.
   */
  public static List<ConfigProperty<?>> sharing() {
    return ListingSharing.ALL;
  }

  /**
   * Starts a cloud provider's declarations with the cloud's own properties that its README lists
   * first (what it lists: project, zones, labels, address, …). {@link Declarations.Builder#build()}
   * places the shared ones around them, in one order for every cloud: these, the layout ({@code job},
   * {@code job-tag}, {@code jobs}, {@code order}, the tasks-per-member property, {@code port}, then
   * {@code rpc-layer}, {@code task-type}, {@code task-id}), the cloud's properties given to
   * {@link Declarations.Builder#then} (its endpoints and credentials), {@code timeout},
   * {@code max-answer-mib} and the {@link #sharing()} declarations.
   */
  public static Declarations.Builder declarations(ConfigProperty<?>... own) {
    return new Declarations.Builder(List.of(own));
  }

  /**
   * Every property a cloud provider declares, its own placed among the kit's (see
   * {@link CloudProperties#declarations}), and what {@link CloudResolverSetup#start(io.clusterresolver.spi.ResolverConfig,
   * Declarations)} reads the layout by: the job tag, the tasks-per-member property, whether members carry
   * their task index. Immutable.
   */
  public static final class Declarations {
    private final List<ConfigProperty<?>> all;
    private final ConfigProperty<String> jobTag;
    private final ConfigProperty<String> tasksPerMember;
    private final boolean indexByOrdinal;

    private Declarations(Builder b) {
      List<ConfigProperty<?>> all = new ArrayList<>(b.first);
      if (b.fixedJob) {
        all.add(JOB);
      }
      if (b.jobs) {
        all.add(b.jobTag);
        all.add(JOBS);
      }
      if (!b.indexByOrdinal) {
        all.add(ORDER);
      }
      if (b.tasksPerMember != null) {
        all.add(b.tasksPerMember);
      }
      all.add(b.port);
      // The order five READMEs listed them in before the kit declared them (TaskProperties.ALL's differs).
      all.addAll(List.of(TaskProperties.RPC_LAYER, TaskProperties.TASK_TYPE, TaskProperties.TASK_ID));
      all.addAll(b.then);
      all.add(TIMEOUT);
      all.add(MAX_ANSWER_MIB);
      all.addAll(sharing());
      Set<String> names = new HashSet<>();
      for (ConfigProperty<?> property : all) {
        if (!names.add(property.name())) {
          throw new IllegalArgumentException("Two declarations of '" + property.name() + "': the kit declares "
              + "the shared properties; give only the cloud's own");
        }
      }
      this.all = List.copyOf(all);
      this.jobTag = b.jobTag;
      this.tasksPerMember = b.tasksPerMember;
      this.indexByOrdinal = b.indexByOrdinal;
    }

    /** Every declaration, in the order the provider's README and {@code --help} list them. */
    public List<ConfigProperty<?>> all() {
      return all;
    }

    /** The property whose value names each member's job: {@link CloudProperties#JOB_TAG} or the cloud's word for it. */
    public ConfigProperty<String> jobTag() {
      return jobTag;
    }

    /** The tasks-per-member property, empty when each member is one task. */
    public Optional<ConfigProperty<String>> tasksPerMember() {
      return Optional.ofNullable(tasksPerMember);
    }

    /** Whether each member carries its task index (no {@code order}): see {@link CloudResolverSetup#indexByOrdinal()}. */
    public boolean indexByOrdinal() {
      return indexByOrdinal;
    }

    @Override
    public String toString() {
      List<String> names = new ArrayList<>();
      for (ConfigProperty<?> property : all) {
        names.add(property.name());
      }
      return "Declarations" + names;
    }

    /** What a cloud's members carry, and its own properties after the layout. */
    public static final class Builder {
      private final List<ConfigProperty<?>> first;
      private List<ConfigProperty<?>> then = List.of();
      private ConfigProperty<String> jobTag = JOB_TAG;
      private boolean fixedJob = true;
      private boolean jobs = true;
      private boolean indexByOrdinal;
      private ConfigProperty<String> tasksPerMember;
      private ConfigProperty<Integer> port = PORT;

      private Builder(List<ConfigProperty<?>> first) {
        this.first = first;
      }

      /**
       * The cloud's word for the job tag, like {@code job-label} from {@link CloudProperties#jobLabel(String)}, declared
       * instead of {@code job} and {@code job-tag}: a member's job is the label's value, else (without
       * {@code jobs}) {@value ClusterLayout#DEFAULT_JOB}.
       */
      public Builder jobTag(ConfigProperty<String> jobTag) {
        this.jobTag = Objects.requireNonNull(jobTag, "jobTag");
        this.fixedJob = false;
        return this;
      }

      /**
       * Every member is a task of one job the provider names (a TPU node's workers): no {@code job},
       * {@code job-tag} or {@code jobs}.
       */
      public Builder oneJob() {
        this.fixedJob = false;
        this.jobs = false;
        return this;
      }

      /**
       * Each member carries its task index (a StatefulSet's pods, a TPU's workers): no {@code order},
       * and {@link CloudResolverSetup#start(io.clusterresolver.spi.ResolverConfig, Declarations)} takes
       * each member's ordinal as its index.
       */
      public Builder indexByOrdinal() {
        this.indexByOrdinal = true;
        return this;
      }

      /** The provider's {@link CloudProperties#tasksPerMember(String)} property; without it a member is one task. */
      public Builder tasksPerMember(ConfigProperty<String> tasksPerMember) {
        this.tasksPerMember = Objects.requireNonNull(tasksPerMember, "tasksPerMember");
        return this;
      }

      /** A {@code port} of the provider's own, from {@link CloudProperties#port(int, String)}, instead of {@link CloudProperties#PORT}. */
      public Builder port(ConfigProperty<Integer> port) {
        this.port = Objects.requireNonNull(port, "port");
        return this;
      }

      /** The cloud's own properties listed after the layout: its endpoints, its credentials. */
      public Builder then(ConfigProperty<?>... own) {
        this.then = List.of(own);
        return this;
      }

      /**
       * The declarations.
       *
       * @throws IllegalArgumentException when two have one name (a shared property given as the cloud's own)
       */
      public Declarations build() {
        return new Declarations(this);
      }
    }
  }

  /**
   * Every layout declaration — {@code job}, {@code job-tag}, {@code jobs}, {@code order}, the
   * provider's tasks-per-member property (from {@link #tasksPerMember(String)}), {@code port} — then {@code task-type},
   * {@code task-id} and {@code rpc-layer} of {@link TaskProperties}, and {@code timeout}.
   */
  public static List<ConfigProperty<?>> layout(ConfigProperty<String> tasksPerMember) {
    List<ConfigProperty<?>> all = new ArrayList<>(List.of(JOB, JOB_TAG, JOBS, ORDER, tasksPerMember, PORT));
    all.addAll(TaskProperties.ALL);
    all.add(TIMEOUT);
    return List.copyOf(all);
  }
}
