package io.clusterresolver.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code --format tf-config}: the {@code TF_CONFIG} JSON of this process's task. */
final class TfConfigOutput {

  private TfConfigOutput() {}

  static String render(Resolution r) {
    return json(r) + "\n";
  }

  /** The TF_CONFIG value, on one line. */
  static String json(Resolution r) {
    // TEMPORARY until resolver-tfconfig's TfConfigWriter lands on main.
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("cluster", r.clusterSpec().asMap());
    Map<String, Object> task = new LinkedHashMap<>();
    if (r.taskType() != null) {
      task.put("type", r.taskType());
      task.put("index", r.taskIndex());
    }
    root.put("task", task);
    if (r.rpcLayer() != null) {
      root.put("rpc_layer", r.rpcLayer());
    }
    try {
      return new ObjectMapper().writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
