package io.clusterresolver.tpu;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.TaskAddress;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.cloud.NotTheApiException;
import io.clusterresolver.cloud.OnceNoted;
import io.clusterresolver.google.GoogleFailure;
import io.clusterresolver.google.GoogleMetadata;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Asks the source of truth about the node on every call: one {@code nodes.get} (the API's
 * {@code networkEndpoints} in their order, which is worker order), or the metadata server's
 * {@code worker-network-endpoints} on a TPU VM without API access, or a fixed list; {@code local}
 * lists no worker. Never a partial answer: a node that is not {@code READY} is an error.
 *
 * <p>Worker {@code i} is a member with id and ordinal {@code i} (the worker id), its IP as address,
 * the accelerators of one host, and the port the API lists for it unless the {@code port} property
 * replaces it (a port of 0, or none, takes the layout's port).
 */
final class TpuNodeSource implements MemberSource {

  /** A TPU VM's metadata attributes: its workers' addresses, its own worker id and its accelerator type. */
  static final String WORKER_ENDPOINTS = "instance/attributes/worker-network-endpoints";
  static final String WORKER_NUMBER = "instance/attributes/agent-worker-number";
  static final String ACCELERATOR_TYPE = "instance/attributes/accelerator-type";
  /** A pod slice's worker list may be long: the largest metadata value read. */
  static final int MAX_METADATA_BYTES = 1 << 20;

  private static final System.Logger LOG = System.getLogger(TpuNodeSource.class.getName());
  private static final String PROVIDER = TpuClusterResolverProvider.NAME;
  private static final CloudApi API = CloudApi.builder(PROVIDER, GoogleFailure::read)
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
  private final GoogleMetadata metadata;
  private final boolean adc;
  private final Integer portOverride;
  private final Duration timeout;
  private final OnceNoted warned = new OnceNoted();

  /**
   * @param target what to ask about
   * @param api the Cloud TPU API ({@code null} unless the target is a node)
   * @param metadata the metadata server (identity, and the workers of a {@code METADATA} target)
   * @param adc whether the credentials are Application Default Credentials (then, when there are none, a TPU VM's
   *     metadata answers instead)
   * @param portOverride the {@code port} property when set explicitly, else {@code null}
   * @param timeout the deadline of one resolve
   */
  TpuNodeSource(TpuTarget target, TpuApi api, GoogleMetadata metadata, boolean adc, Integer portOverride,
      Duration timeout) {
    this.target = target;
    this.api = api;
    this.metadata = metadata;
    this.adc = adc;
    this.portOverride = portOverride;
    this.timeout = timeout;
  }

  /**
   * This process's identity among the workers: on a node asked through the API, this VM's internal
   * IP (a worker's address); on a TPU VM read from its metadata, its worker number (a worker's id);
   * empty for fixed workers and {@code local}.
   */
  Optional<String> selfIdentity() {
    switch (target.kind()) {
      case NODE:
        return metadata.get(GoogleMetadata.INTERNAL_IP);
      case METADATA:
        return metadata.get(WORKER_NUMBER).filter(n -> n.matches("\\d{1,9}"))
            .map(n -> Integer.toString(Integer.parseInt(n)));
      default:
        return Optional.empty();
    }
  }

  @Override
  public List<Member> members() {
    switch (target.kind()) {
      case LOCAL:
        return List.of();
      case STATIC:
        return fixedWorkers();
      case METADATA:
        return fromMetadata().orElseThrow(() -> new ClusterResolverException("tpu: the metadata server at "
            + metadata.base() + " describes no TPU VM (no attribute worker-network-endpoints): set"
            + " clusterresolver.tpu.name to the node, or clusterresolver.tpu.metadata-endpoint"));
      default:
        return fromApi();
    }
  }

  /** The {@code grpc://} workers, each with the port it was given (or the {@code port} property). */
  private List<Member> fixedWorkers() {
    List<Member> workers = new ArrayList<>();
    for (String hostPort : target.addresses()) {
      TaskAddress address = TaskAddress.parse(hostPort);
      workers.add(worker(workers.size(), address.host(), Map.of()).port(address.port()).build());
    }
    return workers;
  }

  private List<Member> fromApi() {
    TpuNode node;
    try {
      node = API.session(timeout).call("nodes.get " + target.node(), remaining -> {
        // Every node the API describes has its name; without it, STATE_UNSPECIFIED would read as "not ready yet".
        TpuNode answer = api.getNode(target.node(), remaining);
        return NotTheApiException.require(answer, !answer.name().isEmpty(), "a node without \"name\"");
      });
    } catch (ConfigurationException noCredentials) {
      if (adc) {
        Optional<List<Member>> onTpuVm = fromMetadata();
        if (onTpuVm.isPresent()) {
          LOG.log(Level.INFO, () -> PROVIDER + ": no Application Default Credentials; the workers come from this TPU"
              + " VM's metadata server");
          return onTpuVm.get();
        }
      }
      throw noCredentials;
    } catch (ClusterResolverException e) {
      if (GoogleFailure.notFound(e.getCause())) {
        throw new ConfigurationException("tpu: there is no TPU node '" + target.shortName() + "' in project "
            + target.project() + ", location " + target.location() + " (" + target.node() + ", from "
            + target.source() + "): check clusterresolver.tpu.name, project and zone", e);
      }
      throw e;
    }
    NodeStates.requireReady(target.node(), node.state());
    if (node.networkEndpoints().isEmpty()) {
      throw new ClusterResolverException("tpu: node " + target.node() + " is READY but lists no network endpoints;"
          + " resolve again later");
    }
    warnIfUnhealthy(node);
    Map<String, Integer> accelerators = accelerators(node.acceleratorType(), node.networkEndpoints().size());
    List<Member> workers = new ArrayList<>();
    for (TpuNode.Endpoint e : node.networkEndpoints()) {
      Member.Builder worker = worker(workers.size(), e.ipAddress(), accelerators);
      if (portOverride == null && e.port() > 0) {
        worker.port(e.port());
      }
      workers.add(worker.build());
    }
    return workers;
  }

  /** Worker {@code index}: its id and ordinal are the worker id. */
  private static Member.Builder worker(int index, String ip, Map<String, Integer> accelerators) {
    return Member.builder(Integer.toString(index), ip).ordinal(index).accelerators(accelerators);
  }

  /** The workers of this TPU VM's node from its metadata attributes, or empty when they are not there. */
  private Optional<List<Member>> fromMetadata() {
    Optional<String> endpoints = metadata.get(WORKER_ENDPOINTS);
    if (endpoints.isEmpty()) {
      return Optional.empty();
    }
    List<String> ips = new ArrayList<>();
    for (String entry : endpoints.get().split(",")) {
      // Each entry is ID:HOSTNAME:IP (the first two often "unknown"); the IP is the third field.
      String[] fields = entry.trim().split(":", 3);
      if (fields.length < 3 || fields[2].isBlank()) {
        throw new ClusterResolverException("tpu: the metadata attribute worker-network-endpoints has an entry '"
            + entry.trim() + "' that is not ID:HOSTNAME:IP");
      }
      ips.add(fields[2].trim());
    }
    Map<String, Integer> accelerators = accelerators(metadata.get(ACCELERATOR_TYPE).orElse(null),
        ips.size());
    List<Member> workers = new ArrayList<>();
    for (String ip : ips) {
      workers.add(worker(workers.size(), ip, accelerators).build());
    }
    return Optional.of(workers);
  }

  private Map<String, Integer> accelerators(String type, int hosts) {
    Optional<Map<String, Integer>> perHost = AcceleratorTypes.perHost(type, hosts);
    if (perHost.isEmpty()) {
      warned.log(LOG, Level.INFO, "type " + type, () -> PROVIDER + ": accelerator type '" + type + "' is not one"
          + " this version counts (v2, v3, v4, v5p, v5litepod, v6e): no TPU count reported");
    }
    return perHost.orElse(Map.of());
  }

  private void warnIfUnhealthy(TpuNode node) {
    TpuNode.Health health = node.health();
    if (health == TpuNode.Health.HEALTHY || health == TpuNode.Health.HEALTH_UNSPECIFIED) {
      return;
    }
    String description = node.healthDescription().isBlank() ? "no health description"
        : node.healthDescription();
    String message = PROVIDER + ": node " + target.node() + " is READY but "
        + (health == TpuNode.Health.UNRECOGNIZED ? "not healthy" : health.name()) + ": " + description
        + "; every worker is kept";
    warned.log(LOG, Level.WARNING, message, () -> message);
  }

  @Override
  public String toString() {
    return target.kind() + (target.node() != null ? " " + target.node() : "");
  }
}
