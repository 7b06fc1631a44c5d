package io.clusterresolver.tfconfig;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import io.clusterresolver.spi.TaskProperties;
import java.util.List;

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

  /**
   * Unlike {@link TaskProperties#RPC_LAYER} this has no default: unset, the rpc layer is
   * {@code TF_CONFIG}'s {@code rpc_layer} (K4).
   */
  static final ConfigProperty<String> RPC_LAYER = ConfigProperty.string("rpc-layer")
      .description("The rpc layer (scheme) of master addresses, overriding rpc_layer of TF_CONFIG")
      .build();
  static final ConfigProperty<String> ENVIRONMENT = ConfigProperty.string("environment")
      .description("The platform name environment() reports (TF_CONFIG's own \"environment\" key is ignored, "
          + "as in TensorFlow); default: \"\"")
      .defaultValue("")
      .build();
  static final ConfigProperty<java.time.Duration> NVIDIA_SMI_TIMEOUT = ConfigProperty.duration("nvidia-smi-timeout")
      .description("How long nvidia-smi may take when counting this task's GPUs")
      .defaultValue("2s")
      .build();

  private static final List<ConfigProperty<?>> PROPERTIES =
      List.of(TaskProperties.TASK_TYPE, TaskProperties.TASK_ID, RPC_LAYER, ENVIRONMENT, NVIDIA_SMI_TIMEOUT);

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
  public List<ConfigProperty<?>> properties() {
    return PROPERTIES;
  }

  @Override
  public ClusterResolver create(ResolverConfig config) {
    return new TfConfigClusterResolver(
        config.environment(),
        config.get(TaskProperties.TASK_TYPE),
        config.get(TaskProperties.TASK_ID),
        config.get(RPC_LAYER),
        config.get(ENVIRONMENT),
        config.get(NVIDIA_SMI_TIMEOUT));
  }
}
