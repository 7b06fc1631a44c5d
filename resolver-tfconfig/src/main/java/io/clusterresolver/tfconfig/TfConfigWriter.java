package io.clusterresolver.tfconfig;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.clusterresolver.ClusterSpec;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
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

  /** Streaming, not a tree: a launcher's cold start loads a few dozen Jackson classes, not hundreds. */
  private static final JsonFactory JSON = new JsonFactory();

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
    StringWriter out = new StringWriter();
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      json.writeFieldName("cluster");
      writeCluster(json, spec);
      if (taskType != null) {
        json.writeObjectFieldStart("task");
        json.writeStringField("type", taskType);
        if (taskIndex != null) {
          json.writeNumberField("index", taskIndex.intValue());
        }
        json.writeEndObject();
      }
      if (rpcLayer != null) {
        json.writeStringField("rpc_layer", rpcLayer);
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not write TF_CONFIG JSON", e); // a StringWriter does not fail
    }
    return out.toString();
  }

  /**
   * Writes a cluster as TF_CONFIG's {@code "cluster"} value: an object with one field per job, a
   * dense job as an array of addresses, any other as an object from decimal task index to address.
   * For tools that embed the cluster in JSON of their own.
   */
  public static void writeCluster(JsonGenerator json, ClusterSpec spec) throws IOException {
    json.writeStartObject();
    for (Map.Entry<String, Object> job : spec.asMap().entrySet()) {
      if (job.getValue() instanceof List) {
        json.writeArrayFieldStart(job.getKey());
        for (Object address : (List<?>) job.getValue()) {
          json.writeString((String) address);
        }
        json.writeEndArray();
      } else {
        json.writeObjectFieldStart(job.getKey());
        for (Map.Entry<?, ?> task : ((Map<?, ?>) job.getValue()).entrySet()) {
          json.writeStringField(String.valueOf(task.getKey()), (String) task.getValue());
        }
        json.writeEndObject();
      }
    }
    json.writeEndObject();
  }
}
