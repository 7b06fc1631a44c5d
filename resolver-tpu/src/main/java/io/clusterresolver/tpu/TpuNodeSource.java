package io.clusterresolver.tpu;

import com.google.cloud.tpu.v2.NetworkEndpoint;
import com.google.cloud.tpu.v2.Node;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.NotTheApiException;
import io.clusterresolver.cloud.SelfIdentity;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Asks the source of truth about the node on every call: one {@code nodes.get} (the API's
 * {@code networkEndpoints} in their order, which is worker order), or the metadata server's
 * {@code worker-network-endpoints} on a TPU VM without API access, or a fixed list. Never a partial
 * answer: a node that is not {@code READY} is an error.
 */
final class TpuNodeSource implements Supplier<Workers> {

  private static final System.Logger LOG = System.getLogger(TpuNodeSource.class.getName());
  private static final String PROVIDER = TpuClusterResolverProvider.NAME;
  private static final CloudApi API = CloudApi.builder(PROVIDER, TpuApi::readFailure)
      .permissions("tpu.nodes.get (roles/tpu.viewer)")
      .apiName("Cloud TPU API")
      .retryPolicy(TpuApi.RETRY)
      .credentialsHint("set clusterresolver.tpu.credentials to a service-account JSON key file, or 'none' for an"
          + " emulator, or give Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud auth"
          + " application-default login, or a VM's service account); on a TPU VM, clusterresolver.tpu.api=false"
          + " reads the workers from the metadata server instead")
      .build();

  private final TpuTarget target;
  private final TpuApi api;
  private final GceMetadata metadata;
  private final boolean adc;
  private final Integer portOverride;
  private final Duration timeout;
  private final SelfIdentity ownAddress;
  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  /**
   * @param target what to ask about
   * @param api the Cloud TPU API ({@code null} unless the target is a node)
   * @param metadata the metadata server (identity, and the workers of a {@code METADATA} target)
   * @param adc whether the credentials are Application Default Credentials (then, when there are none, a TPU VM's
   *     metadata answers instead)
   * @param portOverride the {@code port} property when set explicitly, else {@code null}
   * @param timeout the deadline of one resolve
   */
  TpuNodeSource(TpuTarget target, TpuApi api, GceMetadata metadata, boolean adc, Integer portOverride,
      Duration timeout) {
    this.target = target;
    this.api = api;
    this.metadata = metadata;
    this.adc = adc;
    this.portOverride = portOverride;
    this.timeout = timeout;
    this.ownAddress = SelfIdentity.cached(() -> metadata.get(GceMetadata.INTERNAL_IP));
  }

  @Override
  public Workers get() {
    switch (target.kind()) {
      case LOCAL:
        return Workers.local();
      case STATIC:
        return new Workers(target.addresses(), Map.of(), OptionalInt.empty());
      case METADATA:
        return fromMetadata().orElseThrow(() -> new ClusterResolverException("tpu: the metadata server at "
            + metadata.endpoint() + " describes no TPU VM (no attribute worker-network-endpoints): set"
            + " clusterresolver.tpu.name to the node, or clusterresolver.tpu.metadata-endpoint"));
      default:
        return fromApi();
    }
  }

  private Workers fromApi() {
    Node node;
    try {
      node = API.session(timeout).call("nodes.get " + target.node(), remaining -> {
        // Every node the API describes has its name; without it, STATE_UNSPECIFIED would read as "not ready yet".
        Node answer = api.getNode(target.node(), remaining);
        return NotTheApiException.require(answer, !answer.getName().isEmpty(), "a node without \"name\"");
      });
    } catch (ConfigurationException noCredentials) {
      if (adc) {
        Optional<Workers> onTpuVm = fromMetadata();
        if (onTpuVm.isPresent()) {
          LOG.log(Level.INFO, () -> PROVIDER + ": no Application Default Credentials; the workers come from this TPU"
              + " VM's metadata server");
          return onTpuVm.get();
        }
      }
      throw noCredentials;
    } catch (ClusterResolverException e) {
      if (TpuApi.notFound(e.getCause())) {
        throw new ConfigurationException("tpu: there is no TPU node '" + target.shortName() + "' in project "
            + target.project() + ", location " + target.location() + " (" + target.node() + ", from "
            + target.source() + "): check clusterresolver.tpu.name, project and zone", e);
      }
      throw e;
    }
    NodeStates.requireReady(target.node(), node.getState());
    if (node.getNetworkEndpointsCount() == 0) {
      throw new ClusterResolverException("tpu: node " + target.node() + " is READY but lists no network endpoints;"
          + " resolve again later");
    }
    warnIfUnhealthy(node);
    List<String> hosts = new ArrayList<>();
    List<String> addresses = new ArrayList<>();
    for (NetworkEndpoint e : node.getNetworkEndpointsList()) {
      hosts.add(e.getIpAddress());
      addresses.add(address(e.getIpAddress(), e.getPort()));
    }
    Map<String, Integer> accelerators = accelerators(node.getAcceleratorType(), hosts.size());
    OptionalInt self = ownAddress.get().map(ip -> OptionalInt.of(hosts.indexOf(ip)))
        .filter(i -> i.getAsInt() >= 0).orElse(OptionalInt.empty());
    return new Workers(addresses, accelerators, self);
  }

  /** The workers of this TPU VM's node from its metadata attributes, or empty when they are not there. */
  private Optional<Workers> fromMetadata() {
    Optional<String> endpoints = metadata.get(GceMetadata.WORKER_ENDPOINTS);
    if (endpoints.isEmpty()) {
      return Optional.empty();
    }
    List<String> addresses = new ArrayList<>();
    for (String entry : endpoints.get().split(",")) {
      // Each entry is ID:HOSTNAME:IP (the first two often "unknown"); the IP is the third field.
      String[] fields = entry.trim().split(":", 3);
      if (fields.length < 3 || fields[2].isBlank()) {
        throw new ClusterResolverException("tpu: the metadata attribute worker-network-endpoints has an entry '"
            + entry.trim() + "' that is not ID:HOSTNAME:IP");
      }
      addresses.add(address(fields[2].trim(), 0));
    }
    OptionalInt self = OptionalInt.empty();
    Optional<String> number = metadata.get(GceMetadata.WORKER_NUMBER);
    if (number.isPresent() && number.get().matches("\\d{1,9}") && Integer.parseInt(number.get()) < addresses.size()) {
      self = OptionalInt.of(Integer.parseInt(number.get()));
    }
    String type = metadata.get(GceMetadata.ACCELERATOR_TYPE).orElse(null);
    return Optional.of(new Workers(addresses, accelerators(type, addresses.size()), self));
  }

  private String address(String ip, int apiPort) {
    int port = portOverride != null ? portOverride : apiPort > 0 ? apiPort : TpuProperties.DEFAULT_PORT;
    return (ip.indexOf(':') >= 0 && !ip.startsWith("[") ? "[" + ip + "]" : ip) + ":" + port;
  }

  private Map<String, Integer> accelerators(String type, int hosts) {
    Optional<Map<String, Integer>> perHost = AcceleratorTypes.perHost(type, hosts);
    if (perHost.isEmpty() && warned.add("type " + type)) {
      LOG.log(Level.INFO, () -> PROVIDER + ": accelerator type '" + type + "' is not one this version counts"
          + " (v2, v3, v4, v5p, v5litepod, v6e): no TPU count reported");
    }
    return perHost.orElse(Map.of());
  }

  private void warnIfUnhealthy(Node node) {
    Node.Health health = node.getHealth();
    if (health == Node.Health.HEALTHY || health == Node.Health.HEALTH_UNSPECIFIED) {
      return;
    }
    String description = node.getHealthDescription().isBlank() ? "no health description"
        : node.getHealthDescription();
    String message = PROVIDER + ": node " + target.node() + " is READY but "
        + (health == Node.Health.UNRECOGNIZED ? "not healthy" : health.name()) + ": " + description
        + "; every worker is kept";
    if (warned.add(message)) {
      LOG.log(Level.WARNING, message);
    }
  }

  @Override
  public String toString() {
    return target.kind() + (target.node() != null ? " " + target.node() : "");
  }
}
