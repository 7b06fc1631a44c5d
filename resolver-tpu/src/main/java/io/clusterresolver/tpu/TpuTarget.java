package io.clusterresolver.tpu;

import io.clusterresolver.google.ResourceNames;
import java.util.List;

/**
 * What the configuration points at: a node of the Cloud TPU API, a fixed list of workers
 * ({@code grpc://} addresses, as TensorFlow accepts them), a directly attached TPU
 * ({@code local}), or this TPU VM's own node as its metadata server describes it. Immutable.
 *
 * @param kind which of these
 * @param node the node's full resource name {@code projects/P/locations/ZONE/nodes/NAME} ({@link Kind#NODE})
 * @param addresses the workers as {@code host:port} ({@link Kind#STATIC})
 * @param source where the target came from (a property key or an environment variable), for messages
 */
record TpuTarget(Kind kind, String node, List<String> addresses, String source) {

  /** The kinds of target. */
  enum Kind {
    /** A node by name: {@code nodes.get}. */
    NODE,
    /** Workers given as {@code grpc://host:port} addresses: no API call. */
    STATIC,
    /** {@code local}: a TPU attached to this machine, nothing remote. */
    LOCAL,
    /** This TPU VM's node from the metadata server's attributes. */
    METADATA
  }

  TpuTarget {
    addresses = List.copyOf(addresses);
  }

  static TpuTarget node(String resourceName, String source) {
    return new TpuTarget(Kind.NODE, resourceName, List.of(), source);
  }

  static TpuTarget workers(List<String> addresses, String source) {
    return new TpuTarget(Kind.STATIC, null, addresses, source);
  }

  static TpuTarget local(String source) {
    return new TpuTarget(Kind.LOCAL, null, List.of(), source);
  }

  static TpuTarget metadata() {
    return new TpuTarget(Kind.METADATA, null, List.of(), "the metadata server");
  }

  /** The node's short name (the last part of its resource name). */
  String shortName() {
    return ResourceNames.lastSegment(node);
  }

  /** The node's location (its zone). */
  String location() {
    String[] parts = node.split("/");
    return parts.length >= 4 ? parts[3] : "";
  }

  /** The node's project. */
  String project() {
    String[] parts = node.split("/");
    return parts.length >= 2 ? parts[1] : "";
  }
}
