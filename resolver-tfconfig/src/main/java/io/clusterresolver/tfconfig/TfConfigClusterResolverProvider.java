package io.clusterresolver.tfconfig;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import java.util.List;
import java.util.OptionalInt;

/**
 * The {@code tfconfig} provider: the cluster described by TensorFlow's {@code TF_CONFIG}
 * environment variable, re-read on every call. It applies when {@code TF_CONFIG} is set and not
 * blank, and ranks above the cloud providers (a launcher that sets {@code TF_CONFIG} means it).
 */
public final class TfConfigClusterResolverProvider implements ClusterResolverProvider {

  /** The provider name. */
  public static final String NAME = "tfconfig";

  /** Above cloud providers (which need a metadata probe), below nothing that is more specific. */
  public static final int PRIORITY = 200;

  static final ConfigProperty TASK_TYPE = ConfigProperty.string("task-type")
      .description("This process's job, overriding task.type of TF_CONFIG")
      .build();
  static final ConfigProperty TASK_ID = ConfigProperty.integer("task-id")
      .description("This process's task index, overriding task.index of TF_CONFIG")
      .range(0, Integer.MAX_VALUE)
      .build();
  static final ConfigProperty RPC_LAYER = ConfigProperty.string("rpc-layer")
      .description("The rpc layer (scheme) of master addresses, overriding rpc_layer of TF_CONFIG")
      .build();
  static final ConfigProperty ENVIRONMENT = ConfigProperty.string("environment")
      .description("The platform name environment() reports (TF_CONFIG's own \"environment\" key is ignored, "
          + "as in TensorFlow); default: \"\"")
      .defaultValue("")
      .build();
  static final ConfigProperty NVIDIA_SMI_TIMEOUT = ConfigProperty.duration("nvidia-smi-timeout")
      .description("How long nvidia-smi may take when counting this task's GPUs")
      .defaultValue("2s")
      .build();

  private static final List<ConfigProperty> PROPERTIES =
      List.of(TASK_TYPE, TASK_ID, RPC_LAYER, ENVIRONMENT, NVIDIA_SMI_TIMEOUT);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int priority() {
    return PRIORITY;
  }

  /** When {@code TF_CONFIG} is set and not blank (a blank one means unset, D4). */
  @Override
  public boolean isAvailable(ResolverContext context) {
    return context.getenv(TfConfig.VARIABLE).filter(value -> !value.isBlank()).isPresent();
  }

  @Override
  public List<ConfigProperty> properties() {
    return PROPERTIES;
  }

  @Override
  public ClusterResolver create(ResolverConfig config) {
    OptionalInt taskId = config.optionalInt(TASK_ID.name());
    return new TfConfigClusterResolver(
        config.environment(),
        config.optionalString(TASK_TYPE.name()).orElse(null),
        taskId.isPresent() ? taskId.getAsInt() : null,
        config.optionalString(RPC_LAYER.name()).orElse(null),
        config.string(ENVIRONMENT.name()),
        config.duration(NVIDIA_SMI_TIMEOUT.name()));
  }
}
