package io.clusterresolver.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.clusterresolver.tfconfig.TfConfigWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * {@code --format json}: {@code {"cluster": {job: [addresses] or {index: address}}, "task":
 * {"type": ..., "index": ...}, "rpc_layer": ..., "environment": ..., "accelerators": {...}}}. Dense
 * jobs are arrays, sparse jobs objects keyed by index; unknown values are {@code null}.
 *
 * <p>Written with Jackson's streaming generator rather than an {@code ObjectMapper}: it loads a
 * fraction of the classes, which is most of a cold start's JSON cost.
 */
final class JsonOutput {

  private JsonOutput() {}

  static String render(Answer r) {
    StringWriter text = new StringWriter();
    try (JsonGenerator json = new JsonFactory().createGenerator(text)) {
      json.useDefaultPrettyPrinter();
      json.writeStartObject();
      json.writeFieldName("cluster");
      TfConfigWriter.writeCluster(json, r.clusterSpec());
      json.writeObjectFieldStart("task");
      json.writeStringField("type", r.taskType());
      json.writeFieldName("index");
      if (r.taskIndex() == null) {
        json.writeNull();
      } else {
        json.writeNumber(r.taskIndex());
      }
      json.writeEndObject();
      json.writeStringField("rpc_layer", r.rpcLayer());
      json.writeStringField("environment", r.environment());
      json.writeObjectFieldStart("accelerators");
      for (Map.Entry<String, Integer> accelerator : r.accelerators().entrySet()) {
        json.writeNumberField(accelerator.getKey(), accelerator.getValue());
      }
      json.writeEndObject();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the cluster as JSON", e); // a StringWriter does not fail
    }
    return text + "\n";
  }
}
