package io.clusterresolver.conformance;

import com.google.protobuf.InvalidProtocolBufferException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.ClusterDef;
import io.clusterresolver.proto.ClusterDefs;

/** ClusterSpec <-> TensorFlow {@code ClusterDef} bytes, through {@code resolver-proto}. */
final class ClusterDefCodec {

  private ClusterDefCodec() {}

  /** The deterministic serialization of the spec's ClusterDef (K2). */
  static byte[] toBytes(ClusterSpec spec) {
    return ClusterDefs.toBytes(spec);
  }

  /** The spec of serialized ClusterDef bytes (K3: a repeated job name, the last wins). */
  static ClusterSpec fromBytes(byte[] bytes) {
    try {
      return ClusterDefs.fromClusterDef(ClusterDef.parseFrom(bytes));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("Not a ClusterDef: " + e.getMessage(), e);
    }
  }
}
