package com.example.cluster;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import io.clusterresolver.spi.TaskProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Reads the cluster from the inventory service of our data center. */
public final class InventoryProvider implements ClusterResolverProvider {

  // The declarations are the documentation (README tables, `cluster-resolver providers`) and the
  // validation: types, defaults, ranges and unknown-key checks all come from them.
  static final ConfigProperty<String> URL = ConfigProperty.string("url").required()
      .description("Base URL of the inventory service").build();
  static final ConfigProperty<String> POOL = ConfigProperty.string("pool").defaultValue("training")
      .description("The machine pool whose members form the cluster").build();
  static final ConfigProperty<Integer> PORT = ConfigProperty.integer("port").defaultValue("2222")
      .range(1, 65535).description("The port of every task").build();
  static final ConfigProperty<String> TOKEN = ConfigProperty.string("token").secret()
      .description("API token; never printed").build();
  static final ConfigProperty<Duration> TIMEOUT = ConfigProperty.duration("timeout").defaultValue("5s")
      .description("How long one inventory call may take").build();

  /** Provisioning sets this variable on every machine of a pool to its name in the inventory. */
  static final String MEMBER_VARIABLE = "INVENTORY_MEMBER";

  public InventoryProvider() {}                 // public, zero-argument, does no work

  @Override public String name() { return "inventory"; }   // keys: clusterresolver.inventory.*

  @Override public int priority() { return 150; }          // below tfconfig (200), above local

  @Override public boolean isAvailable(ResolverContext context) {
    // Cheap local hints only; never throws. A network probe would use context.probeTimeout().
    return context.getenv(MEMBER_VARIABLE).isPresent()
        || context.property(URL.key(name())).isPresent();
  }

  @Override public List<ConfigProperty<?>> properties() {
    List<ConfigProperty<?>> all = new ArrayList<>(List.of(URL, POOL, PORT, TOKEN, TIMEOUT));
    all.addAll(TaskProperties.ALL);             // task-type, task-id, rpc-layer: the shared meanings
    return all;
  }

  @Override public ClusterResolver create(ResolverConfig config) {
    // `config` is already validated: all problems were reported at once, naming each full key.
    InventoryClient client = new InventoryClient(config.get(URL), config.find(TOKEN), config.get(TIMEOUT));
    return new InventoryClusterResolver(client, config);
  }
}
