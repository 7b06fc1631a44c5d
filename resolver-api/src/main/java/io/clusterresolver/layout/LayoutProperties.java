package io.clusterresolver.layout;

import io.clusterresolver.spi.ConfigProperty;
import java.util.List;

/**
 * The property declarations every member-listing provider shares, so that {@code job},
 * {@code order}, {@code port} … mean the same for every cloud. A provider adds
 * {@link #all(String)} to its own {@code properties()} and reads them back with
 * {@link ClusterLayout#fromConfig} and {@link MemberClusterResolver.Builder#configure}.
 */
public final class LayoutProperties {

  /** The one job every task belongs to. */
  public static final ConfigProperty JOB = ConfigProperty.string("job")
      .defaultValue(ClusterLayout.DEFAULT_JOB)
      .description("Job name of every task (when neither job-tag nor jobs is set)")
      .build();

  /** The tag whose value names each member's job. */
  public static final ConfigProperty JOB_TAG = ConfigProperty.string("job-tag")
      .description("Tag (label) whose value is each member's job; members without it are left out")
      .build();

  /** Job counts taken in member order. */
  public static final ConfigProperty JOBS = ConfigProperty.string("jobs")
      .description("Job counts taken in member order, like chief:1,worker:* (* = the remaining tasks)")
      .build();

  /** The member order. */
  public static final ConfigProperty ORDER = ConfigProperty.string("order")
      .defaultValue("creation-time")
      .description("Task order: creation-time (then id), id, name, address (numeric) or tag:KEY (integer tag value)")
      .build();

  /** The port of each member's first task. */
  public static final ConfigProperty PORT = ConfigProperty.integer("port")
      .defaultValue(Integer.toString(ClusterLayout.DEFAULT_PORT))
      .range(1, 65535)
      .description("Port of each member's first task; task i on a member listens on port + i")
      .build();

  /** An explicit job for this process. */
  public static final ConfigProperty TASK_TYPE = ConfigProperty.string("task-type")
      .description("This process's job, instead of finding it by matching this machine against the members")
      .build();

  /** An explicit task index for this process. */
  public static final ConfigProperty TASK_ID = ConfigProperty.integer("task-id")
      .range(0, Integer.MAX_VALUE)
      .description("This process's task index, instead of finding it by matching this machine against the members")
      .build();

  /** The rpc layer of master addresses. */
  public static final ConfigProperty RPC_LAYER = ConfigProperty.string("rpc-layer")
      .defaultValue("grpc")
      .description("Scheme of master() addresses, like grpc; empty for none")
      .build();

  private LayoutProperties() {}

  /**
   * The tasks-per-member property under a provider's own word for a member
   * ({@code tasks-per-instance}, {@code tasks-per-vm}, …).
   */
  public static ConfigProperty tasksPerMember(String name) {
    return ConfigProperty.string(name)
        .defaultValue("1")
        .description("Tasks per member: a positive integer, or '" + TasksPerMember.PER_ACCELERATOR
            + "' for one task per accelerator")
        .build();
  }

  /** Every shared declaration, with the tasks-per-member property under the given name. */
  public static List<ConfigProperty> all(String tasksPerMemberName) {
    return List.of(JOB, JOB_TAG, JOBS, ORDER, tasksPerMember(tasksPerMemberName), PORT, TASK_TYPE, TASK_ID,
        RPC_LAYER);
  }
}
