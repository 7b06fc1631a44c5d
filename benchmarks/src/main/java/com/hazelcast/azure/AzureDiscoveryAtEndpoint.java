package com.hazelcast.azure;

import com.hazelcast.spi.discovery.DiscoveryStrategy;
import com.hazelcast.spi.utils.PortRange;
import java.util.HashMap;
import java.util.Map;

/**
 * Hazelcast's own Azure discovery ({@link AzureDiscoveryStrategy}, unchanged) pointed at a simulated
 * Azure resource group. Hazelcast takes its IMDS and Resource Manager endpoints only through
 * package-private constructors (the ones its own tests use), hence this class in Hazelcast's package; it
 * lives in the benchmarks module only (io.clusterresolver.benchmarks.PeerFirstCall).
 */
public final class AzureDiscoveryAtEndpoint {

  private AzureDiscoveryAtEndpoint() {}

  /**
   * The strategy as a VM with a managed identity runs it by default: subscription, resource group and
   * token from the instance metadata service at {@code imdsEndpoint}, the network interfaces from
   * {@code armEndpoint}; no tag (Hazelcast filters on network interfaces' tags).
   */
  public static DiscoveryStrategy create(String imdsEndpoint, String armEndpoint) {
    AzureConfig config = AzureConfig.builder().setInstanceMetadataAvailable(true)
        .setHzPort(new PortRange("5701-5703")).build();
    AzureClient client = new AzureClient(new AzureMetadataApi(imdsEndpoint, new HashMap<>()),
        new AzureComputeApi(armEndpoint), new AzureAuthenticator(), config);
    return new AzureDiscoveryStrategy(Map.of(), client);
  }
}
