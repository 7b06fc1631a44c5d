package com.example.cluster;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.cloud.CloudResolverProvider;
import io.clusterresolver.cloud.CloudResolverSetup;
import io.clusterresolver.cloud.Member;
import io.clusterresolver.cloud.MemberSource;
import io.clusterresolver.cloud.SelfIdentity;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import java.net.URI;
import java.time.Instant;
import java.util.Optional;

/** The inventory again, on the cloud provider kit: only the listing is its own. */
public final class InventoryKitProvider extends CloudResolverProvider {

  // Its own properties; the kit adds job, job-tag, jobs, order, port, rpc-layer, task-*, timeout, max-answer-mib,
  // shared-listing, relay, relay-secret, ...
  static final CloudProperties.Declarations DECLARATIONS = CloudProperties.declarations(InventoryProvider.URL,
      InventoryProvider.POOL, InventoryProvider.TOKEN)
      .tasksPerMember(CloudProperties.tasksPerMember("tasks-per-member")).build();

  public InventoryKitProvider() {               // public, zero-argument, does no work
    // keys: clusterresolver.inventory-kit.*; priority 50. A provider with an SDK gives a lambda calling a class
    // of its own (config -> MyFactory.create(config)), so that loading the provider loads no SDK class.
    super("inventory-kit", DECLARATIONS, config -> resolver(config));
  }

  @Override protected boolean detect(ResolverContext context) {
    return context.getenv(InventoryProvider.MEMBER_VARIABLE).isPresent()
        || context.property(InventoryProvider.URL.key(name())).isPresent();
  }

  private static ClusterResolver resolver(ResolverConfig config) {
    CloudResolverSetup setup = CloudResolverSetup.start(config, DECLARATIONS);
    URI url = setup.endpoint(InventoryProvider.URL);      // an http(s) URL, or a problem naming the key
    setup.requireValid();                                 // every problem at once, naming each key
    InventoryClient client = new InventoryClient(config.provider(), url.toString(),
        config.find(InventoryProvider.TOKEN), config.get(CloudProperties.TIMEOUT));
    String pool = config.get(InventoryProvider.POOL);
    MemberSource inventory = () -> client.members(pool).stream()
        .map(m -> Member.builder(m.name(), m.host()).creationTime(Instant.ofEpochMilli(m.created())).build())
        .toList();
    SelfIdentity self = SelfIdentity.cached(
        () -> Optional.ofNullable(config.getenv(InventoryProvider.MEMBER_VARIABLE)));
    return setup.resolver(inventory, self, "inventory");  // layout, own task, shared listings, relay
  }
}
