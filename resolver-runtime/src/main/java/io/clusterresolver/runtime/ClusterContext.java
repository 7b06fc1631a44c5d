package io.clusterresolver.runtime;

import io.clusterresolver.proto.DeviceFilters;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** One connection's view on a task: its caller, filters and values. */
final class ClusterContext {
  final String id;
  final Caller caller;
  final DeviceFilters filters;
  final Map<Long, StoredValue> values = new ConcurrentHashMap<>();
  final AtomicLong nextId = new AtomicLong(1);

  ClusterContext(String id, Caller caller, DeviceFilters filters) {
    this.id = id;
    this.caller = caller;
    this.filters = filters;
  }
}
