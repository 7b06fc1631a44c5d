package io.clusterresolver.conformance;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.ClusterDef;
import io.clusterresolver.proto.ClusterDefs;
import io.clusterresolver.proto.JobDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

  /**
   * K3 on TF's bytes: a ClusterDef that names a job twice, as a Java spec writes it — the last
   * {@code JobDef} of each name, byte for byte as TF wrote it, jobs in name order (K2). Empty when no
   * name repeats. Cut from TF's own bytes with protobuf's wire reader, never re-serialized by us.
   */
  static Optional<byte[]> lastJobOfEachName(byte[] tfClusterDef) {
    Map<String, ByteString> last = new TreeMap<>(ClusterSpec.jobOrder());
    int jobs = 0;
    try {
      CodedInputStream in = CodedInputStream.newInstance(tfClusterDef);
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (WireFormat.getTagFieldNumber(tag) != ClusterDef.JOB_FIELD_NUMBER
            || WireFormat.getTagWireType(tag) != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
          return Optional.empty(); // not a plain list of jobs: nothing to cut
        }
        ByteString job = in.readBytes();
        last.put(JobDef.parseFrom(job).getName(), job);
        jobs++;
      }
      if (jobs == last.size()) {
        return Optional.empty();
      }
      ByteString.Output out = ByteString.newOutput();
      CodedOutputStream coded = CodedOutputStream.newInstance(out);
      for (ByteString job : last.values()) {
        coded.writeBytes(ClusterDef.JOB_FIELD_NUMBER, job);
      }
      coded.flush();
      return Optional.of(out.toByteString().toByteArray());
    } catch (java.io.IOException e) {
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
