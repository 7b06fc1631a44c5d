package io.clusterresolver.tfconfig;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.clusterresolver.ClusterSpec;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes TensorFlow's {@code TF_CONFIG} JSON for a cluster and one of its tasks, so a launcher can
 * hand the resolved cluster to TensorFlow (or to anything else that reads {@code TF_CONFIG}).
 *
 * <pre>{@code
 * String tfConfig = TfConfigWriter.write(spec, "worker", 1, "grpc");
 * // {"cluster":{"ps":["p0:2222"],"worker":["w0:2222","w1:2222"]},
 * //  "task":{"type":"worker","index":1},"rpc_layer":"grpc"}
 * }</pre>
 *
 * <p>A dense job is written as an array of addresses, any other job (sparse, or without tasks) as
 * an object from decimal task index to address, the form {@link TfConfigClusterResolverProvider}
 * and TensorFlow read back. Jobs appear in {@link ClusterSpec#jobs()} order.
 */
public final class TfConfigWriter {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private TfConfigWriter() {}

  /**
   * The {@code TF_CONFIG} JSON (compact, one line).
   *
   * @param spec the cluster
   * @param taskType this process's job; {@code null} leaves out {@code "task"} (and the index)
   * @param taskIndex this process's task index; {@code null} leaves out {@code "task.index"}
   * @param rpcLayer the rpc layer such as {@code grpc}; {@code null} leaves out {@code "rpc_layer"}
   */
  public static String write(ClusterSpec spec, String taskType, Integer taskIndex, String rpcLayer) {
    Objects.requireNonNull(spec, "spec");
    ObjectNode root = MAPPER.createObjectNode();
    ObjectNode cluster = root.putObject("cluster");
    for (Map.Entry<String, Object> job : spec.asMap().entrySet()) {
      if (job.getValue() instanceof List) {
        var addresses = cluster.putArray(job.getKey());
        for (Object address : (List<?>) job.getValue()) {
          addresses.add((String) address);
        }
      } else {
        ObjectNode tasks = cluster.putObject(job.getKey());
        for (Map.Entry<?, ?> task : ((Map<?, ?>) job.getValue()).entrySet()) {
          tasks.put(String.valueOf(task.getKey()), (String) task.getValue());
        }
      }
    }
    if (taskType != null) {
      ObjectNode task = root.putObject("task");
      task.put("type", taskType);
      if (taskIndex != null) {
        task.put("index", taskIndex.intValue());
      }
    }
    if (rpcLayer != null) {
      root.put("rpc_layer", rpcLayer);
    }
    try {
      return MAPPER.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Could not write TF_CONFIG JSON", e); // a tree of strings always serializes
    }
  }
}
