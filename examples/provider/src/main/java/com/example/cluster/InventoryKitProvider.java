package com.example.cluster;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.cloud.CloudResolverProvider;
import io.clusterresolver.cloud.CloudResolverSetup;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.cloud.SelfIdentity;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The inventory again, on the cloud provider kit: only the listing is its own. */
public final class InventoryKitProvider extends CloudResolverProvider {

  static final ConfigProperty<String> TASKS_PER_MEMBER = CloudProperties.tasksPerMember("tasks-per-member");
  static final List<ConfigProperty<?>> PROPERTIES = declarations();

  public InventoryKitProvider() {               // public, zero-argument, does no work
    super("inventory-kit", PROPERTIES);         // keys: clusterresolver.inventory-kit.*; priority 50
  }

  private static List<ConfigProperty<?>> declarations() {
    List<ConfigProperty<?>> all = new ArrayList<>(
        List.of(InventoryProvider.URL, InventoryProvider.POOL, InventoryProvider.TOKEN));
    all.addAll(CloudProperties.layout(TASKS_PER_MEMBER)); // job, job-tag, jobs, order, port, task-*, timeout
    all.addAll(CloudProperties.sharing());                 // shared-listing, relay, relay-secret, ...
    return List.copyOf(all);
  }

  @Override protected boolean detect(ResolverContext context) {
    return context.getenv(InventoryProvider.MEMBER_VARIABLE).isPresent()
        || context.property(InventoryProvider.URL.key(name())).isPresent();
  }

  @Override public ClusterResolver create(ResolverConfig config) {
    // No SDK here; a provider with one builds this in a class of its own, so loading it loads none.
    CloudResolverSetup setup = CloudResolverSetup.start(config, PROPERTIES, TASKS_PER_MEMBER);
    URI url = setup.endpoint(InventoryProvider.URL);      // an http(s) URL, or a problem naming the key
    setup.requireValid();                                 // every problem at once, naming each key
    InventoryClient client = new InventoryClient(name(), url.toString(), config.find(InventoryProvider.TOKEN),
        config.get(CloudProperties.TIMEOUT));
    String pool = config.get(InventoryProvider.POOL);
    MemberSource inventory = () -> client.members(pool).stream()
        .map(m -> Member.builder(m.name(), m.host()).creationTime(Instant.ofEpochMilli(m.created())).build())
        .toList();
    SelfIdentity self = SelfIdentity.cached(
        () -> Optional.ofNullable(config.getenv(InventoryProvider.MEMBER_VARIABLE)));
    return setup.resolver(inventory, self, "inventory");  // layout, own task, shared listings, relay
  }
}
