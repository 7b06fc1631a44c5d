package com.example.cluster;

import io.clusterresolver.spi.ClusterResolverProvider;

/**
 * The same contract and the same fake inventory for the provider written on the cloud provider kit
 * (its keys are {@code clusterresolver.inventory-kit.*}, its default port the kit's 8888).
 */
class InventoryKitContractTest extends InventoryContractTest {

  @Override
  protected ClusterResolverProvider provider() {
    return new InventoryKitProvider();
  }

  @Override
  protected int defaultPort() {
    return 8888;
  }
}
