package io.clusterresolver.cloud;

import io.clusterresolver.cloud.internal.ListingSharing;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.TaskProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The property declarations every cloud provider shares, so that {@code job}, {@code jobs},
 * {@code order}, {@code port}, {@code address} and {@code timeout} mean the same in every cloud. A
 * provider adds {@link #layout(ConfigProperty)} to its own {@code properties()} and builds its resolver
 * with {@link MemberClusterResolver.Builder#configure}.
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
