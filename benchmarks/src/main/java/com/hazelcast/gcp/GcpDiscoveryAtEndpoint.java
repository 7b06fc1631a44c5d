package com.hazelcast.gcp;

import com.hazelcast.spi.discovery.DiscoveryStrategy;
import com.hazelcast.spi.utils.PortRange;
import java.util.List;
import java.util.Map;

/**
 * Hazelcast's own GCP discovery ({@link GcpDiscoveryStrategy}, unchanged) pointed at a simulated Compute
 * Engine project. Hazelcast takes its metadata-server, Compute API and token endpoints only through
 * package-private constructors (the ones its own tests use), hence this class in Hazelcast's package; it
 * lives in the benchmarks module only (io.clusterresolver.benchmarks.PeerFirstCall).
 */
public final class GcpDiscoveryAtEndpoint {

  private GcpDiscoveryAtEndpoint() {}

  /**
   * The strategy as a VM of {@code project} would run it, with {@code zones} and {@code label}
   * ({@code key=value}) configured, and its token from the metadata server at {@code endpoint}.
   */
  public static DiscoveryStrategy create(String endpoint, String project, List<String> zones, String label) {
    GcpConfig config = GcpConfig.builder().setProjects(List.of(project)).setZones(zones).setLabel(new Label(label))
        .setHzPort(new PortRange("5701-5703")).build();
    GcpClient client = new GcpClient(new GcpMetadataApi(endpoint), new GcpComputeApi(endpoint),
        new GcpAuthenticator(endpoint + "/token"), config);
    return new GcpDiscoveryStrategy(Map.of(), client);
  }
}
