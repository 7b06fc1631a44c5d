package io.clusterresolver.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --format json}: {@code {"cluster": {job: [addresses] or {index: address}}, "task":
 * {"type": ..., "index": ...}, "rpc_layer": ..., "environment": ..., "accelerators": {...}}}. Dense
 * jobs are arrays, sparse jobs objects keyed by index; unknown values are {@code null}.
 */
final class JsonOutput {

  private JsonOutput() {}

  static String render(Resolution r) {
    Map<String, Object> task = new LinkedHashMap<>();
    task.put("type", r.taskType());
    task.put("index", r.taskIndex());
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("cluster", r.clusterSpec().asMap());
    root.put("task", task);
    root.put("rpc_layer", r.rpcLayer());
    root.put("environment", r.environment());
    root.put("accelerators", r.accelerators());
    try {
      return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write the cluster as JSON", e);
    }
  }
}
