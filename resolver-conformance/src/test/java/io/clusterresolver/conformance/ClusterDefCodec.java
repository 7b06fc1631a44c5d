package io.clusterresolver.conformance;

import com.google.protobuf.InvalidProtocolBufferException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.ClusterDef;
import io.clusterresolver.proto.ClusterDefs;
import io.clusterresolver.proto.JobDef;
import io.clusterresolver.proto.ProtoBytes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** ClusterSpec <-> TensorFlow {@code ClusterDef} bytes, through {@code resolver-proto}. */
final class ClusterDefCodec {

  private ClusterDefCodec() {}

  /** The deterministic serialization of the spec's ClusterDef (K2). */
  static byte[] toBytes(ClusterSpec spec) {
    return ClusterDefs.toBytes(spec);
  }

  /**
   * The same ClusterDef with its jobs stably sorted by name, serialized deterministically. Works on
   * the message itself (not through a ClusterSpec), so repeated job names and task order are kept.
   */
  static byte[] withJobsSorted(byte[] clusterDef) {
    try {
      ClusterDef def = ClusterDef.parseFrom(clusterDef);
      List<JobDef> jobs = new ArrayList<>(def.getJobList());
      jobs.sort(Comparator.comparing(JobDef::getName, ClusterSpec.jobOrder()));
      return ProtoBytes.deterministic(def.toBuilder().clearJob().addAllJob(jobs).build());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("Not a ClusterDef: " + e.getMessage(), e);
    }
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
