package io.clusterresolver.spi;

import java.util.List;

/**
 * The properties that say which task this process is and how masters are written, declared once
 * so that {@code task-type}, {@code task-id} and {@code rpc-layer} mean the same for every provider
 * that lists them in its {@link ClusterResolverProvider#properties()}.
 */
public final class TaskProperties {

  /** This process's job, instead of the one the provider finds. */
  public static final ConfigProperty<String> TASK_TYPE = ConfigProperty.string("task-type")
      .description("This process's job, instead of the one the provider finds for it")
      .build();

  /** This process's task index, instead of the one the provider finds. */
  public static final ConfigProperty<Integer> TASK_ID = ConfigProperty.integer("task-id")
      .range(0, Integer.MAX_VALUE)
      .description("This process's task index, instead of the one the provider finds for it")
      .build();

  /** The scheme of master addresses. */
  public static final ConfigProperty<String> RPC_LAYER = ConfigProperty.string("rpc-layer")
      .defaultValue("grpc")
      .description("Scheme of master() addresses, like grpc; empty for none")
      .build();

  /** {@link #TASK_TYPE}, {@link #TASK_ID} and {@link #RPC_LAYER}, in that order. */
  public static final List<ConfigProperty<?>> ALL = List.of(TASK_TYPE, TASK_ID, RPC_LAYER);

  private TaskProperties() {}
}
