package io.clusterresolver.conformance;

import com.google.protobuf.InvalidProtocolBufferException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.ClusterDef;
import io.clusterresolver.proto.ClusterDefs;
import io.clusterresolver.proto.JobDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** ClusterSpec <-> TensorFlow {@code ClusterDef} bytes, through {@code resolver-proto}. */
final class ClusterDefCodec {

  private ClusterDefCodec() {}

  /** The deterministic serialization of the spec's ClusterDef (K2). */
  static byte[] toBytes(ClusterSpec spec) {
    return ClusterDefs.toBytes(spec);
  }

  /** TensorFlow's (or our) bytes as a message. */
  static ClusterDef parse(byte[] clusterDef) {
    try {
      return ClusterDef.parseFrom(clusterDef);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("Not a ClusterDef: " + e.getMessage(), e);
    }
  }

  /** Whether the message lists its jobs in strictly ascending name order (each name once). */
  static boolean jobsAscending(ClusterDef def) {
    for (int i = 1; i < def.getJobCount(); i++) {
      if (def.getJob(i - 1).getName().compareTo(def.getJob(i).getName()) >= 0) {
        return false;
      }
    }
    return true;
  }

  /** The parsed content of jobs, in the given order: name and index-to-address map of each. */
  static List<Map<String, Object>> parsed(List<JobDef> jobs) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (JobDef job : jobs) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", job.getName());
      Map<String, String> tasks = new TreeMap<>();
      job.getTasksMap().forEach((index, address) -> tasks.put(Integer.toString(index), address));
      entry.put("tasks", tasks);
      out.add(entry);
    }
    return out;
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
