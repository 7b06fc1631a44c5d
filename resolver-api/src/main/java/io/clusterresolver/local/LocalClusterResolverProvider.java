package io.clusterresolver.local;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import io.clusterresolver.spi.TaskProperties;
import io.clusterresolver.TaskAddress;
import java.util.OptionalInt;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The {@code local} provider: this host as a cluster of one task, {@code worker -> [host:port]}.
 * It always applies and ranks last, so detection falls back to it off any cluster. Its
 * accelerators are the GPUs {@code nvidia-smi} lists when it is on the {@code PATH}.
 */
public final class LocalClusterResolverProvider implements ClusterResolverProvider {

  /** The provider name. */
  public static final String NAME = "local";

  static final ConfigProperty<String> HOST = ConfigProperty.string("host")
      .description("The address of this host's task; default: the host name (HOSTNAME, then the kernel's host name)")
      .build();
  static final ConfigProperty<Integer> PORT = ConfigProperty.integer("port")
      .description("The port of this host's task")
      .defaultValue("8888")
      .range(1, 65535)
      .build();
  static final ConfigProperty<String> JOB = ConfigProperty.string("job")
      .description("The job name of the one task")
      .defaultValue("worker")
      .build();
  static final ConfigProperty<Integer> GPUS = ConfigProperty.integer("gpus")
      .description("The number of GPUs of this task; default: counted with nvidia-smi when it is on the PATH "
          + "(narrowed to CUDA_VISIBLE_DEVICES when set), else none")
      .range(0, Integer.MAX_VALUE)
      .build();
  static final ConfigProperty<java.time.Duration> NVIDIA_SMI_TIMEOUT = ConfigProperty.duration("nvidia-smi-timeout")
      .description("How long nvidia-smi may take before the host counts as having no GPUs")
      .defaultValue("2s")
      .build();

  private static final List<ConfigProperty<?>> PROPERTIES =
      List.of(HOST, PORT, JOB, TaskProperties.RPC_LAYER, GPUS, NVIDIA_SMI_TIMEOUT);

  @Override
  public String name() {
    return NAME;
  }

  /** Lowest: every other provider that applies is preferred. */
  @Override
  public int priority() {
    return Integer.MIN_VALUE;
  }

  /** Always: every process runs on some host. */
  @Override
  public boolean isAvailable(ResolverContext context) {
    return true;
  }

  @Override
  public List<ConfigProperty<?>> properties() {
    return PROPERTIES;
  }

  @Override
  public ClusterResolver create(ResolverConfig config) {
    String job = config.get(JOB);
    if (job.isBlank()) {
      throw ResolverConfig.problems(NAME, List.of(config.key(JOB) + " must not be blank"));
    }
    String host = config.find(HOST).orElseGet(() -> hostName(config.environment()));
    TaskAddress address;
    try {
      address = TaskAddress.of(host, config.get(PORT));
    } catch (IllegalArgumentException e) {
      throw ResolverConfig.problems(NAME, List.of((config.isSet(HOST) ? config.key(HOST) : "The host name") + ": "
          + e.getMessage()));
    }
    Integer gpus = config.get(GPUS);
    return new LocalClusterResolver(
        job,
        address.toString(),
        config.get(TaskProperties.RPC_LAYER),
        gpus == null ? OptionalInt.empty() : OptionalInt.of(gpus),
        config.environment(),
        config.get(NVIDIA_SMI_TIMEOUT));
  }

  /**
   * This host's name without a DNS lookup (which can take seconds on a misconfigured host):
   * {@code HOSTNAME}, then the kernel's host name, then the JDK's answer.
   */
  static String hostName(Map<String, String> environment) {
    String fromEnvironment = environment.get("HOSTNAME");
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return fromEnvironment.trim();
    }
    for (String file : List.of("/proc/sys/kernel/hostname", "/etc/hostname")) {
      try {
        String name = Files.readString(Path.of(file)).trim();
        if (!name.isEmpty()) {
          return name;
        }
      } catch (IOException | RuntimeException e) {
        // not Linux, or not readable: try the next source
      }
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
