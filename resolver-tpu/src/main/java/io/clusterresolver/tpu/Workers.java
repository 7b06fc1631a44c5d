package io.clusterresolver.tpu;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * One answer about a TPU node: its workers' addresses ({@code host:port}) in worker order, the
 * accelerators of each host, and which worker this process is, if known. Immutable.
 *
 * @param addresses the workers in worker order (the API's order, never sorted); empty for {@code local}
 * @param acceleratorsPerHost the accelerators of every host, such as {@code {"TPU": 4}}; empty when unknown
 * @param self the index of the worker this process runs on, when it could be told
 */
record Workers(List<String> addresses, Map<String, Integer> acceleratorsPerHost, OptionalInt self) {

  Workers {
    addresses = List.copyOf(addresses);
    acceleratorsPerHost = Map.copyOf(acceleratorsPerHost);
  }

  /** A directly attached TPU ({@code name=local}): nothing remote. */
  static Workers local() {
    return new Workers(List.of(), Map.of(), OptionalInt.empty());
  }
}
