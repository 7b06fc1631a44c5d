package com.example.cluster;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.Resolution;
import io.clusterresolver.TaskAddress;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.TaskProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The members of one pool as job {@code worker}, task {@code i} on the {@code i}-th oldest member;
 * this process is the member named by {@code INVENTORY_MEMBER} unless task-type/task-id say otherwise.
 * Every call asks the service again; {@link #resolve()} takes everything from one listing.
 */
final class InventoryClusterResolver implements ClusterResolver {
  static final String JOB = "worker";

  private final InventoryClient client;
  private final String pool;
  private final int port;
  private final Optional<String> taskType;
  private final Optional<Integer> taskId;
  private final String rpcLayer;
  private final Optional<String> self;

  InventoryClusterResolver(InventoryClient client, ResolverConfig config) {
    this.client = client;
    this.pool = config.get(InventoryProvider.POOL);
    this.port = config.get(InventoryProvider.PORT);
    this.taskType = config.find(TaskProperties.TASK_TYPE);
    this.taskId = config.find(TaskProperties.TASK_ID);
    this.rpcLayer = config.get(TaskProperties.RPC_LAYER);
    this.self = Optional.ofNullable(config.getenv(InventoryProvider.MEMBER_VARIABLE));
  }

  @Override
  public Resolution resolve() {
    List<InventoryClient.Member> members = client.members(pool);   // the one query
    List<String> addresses = new ArrayList<>();
    Integer own = null;
    for (InventoryClient.Member m : members) {
      if (self.isPresent() && self.get().equals(m.name())) {
        own = addresses.size();
      }
      addresses.add(TaskAddress.of(m.host(), port).toString());
    }
    ClusterSpec spec = ClusterSpec.builder().addJob(JOB, addresses).build();
    Integer id = taskId.orElse(own);
    String type = taskType.orElse(id == null ? null : JOB);
    return Resolution.builder(spec).taskType(type).taskId(id).rpcLayer(rpcLayer)
        .environment("inventory").build();
  }

  @Override
  public ClusterSpec clusterSpec() {
    return resolve().clusterSpec();
  }

  @Override
  public Optional<String> taskType() {
    return taskType.isPresent() ? taskType : resolve().taskType();
  }

  @Override
  public OptionalInt taskId() {
    return taskId.isPresent() ? OptionalInt.of(taskId.get()) : resolve().taskId();
  }

  @Override
  public Optional<String> rpcLayer() {
    return rpcLayer.isEmpty() ? Optional.empty() : Optional.of(rpcLayer);
  }

  @Override
  public String environment() {
    return "inventory";
  }

  @Override
  public String master(String type, Integer id, String layer) {
    String scheme = layer != null ? layer : rpcLayer;
    if (type == null && id == null) {
      return resolve().toBuilder().rpcLayer(scheme).build().master();
    }
    if (type == null || id == null) {
      throw new IllegalArgumentException("master(taskType, taskId, rpcLayer) needs both taskType and taskId, or neither");
    }
    String address = clusterSpec().taskAddress(type, id);
    return scheme.isEmpty() ? address : scheme + "://" + address;
  }

  @Override
  public Map<String, Integer> numAccelerators(String type, Integer id) {
    return Map.of();                             // the inventory knows no accelerators
  }

  @Override
  public String toString() {
    return "InventoryClusterResolver{pool=" + pool + ", port=" + port + ", " + client + "}";
  }
}
