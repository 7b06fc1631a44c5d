package io.clusterresolver.cli;

import io.clusterresolver.ConfigurationException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.clusterresolver.runtime.Cluster;
import io.clusterresolver.runtime.ClusterConnection;
import io.clusterresolver.runtime.ConnectOptions;
import java.io.IOException;
import java.io.StringWriter;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cluster-resolver connect}: connects to the cluster and prints the visible devices. */
@Command(
    name = "connect",
    mixinStandardHelpOptions = true,
    description = {
      "Resolves the cluster, connects to every task (like"
          + " tf.config.experimental_connect_to_cluster) and prints the devices visible to the"
          + " local task, then disconnects.",
      "A master of \"\" or \"local\" means a local-only connection. A local job that is not in"
          + " the cluster is added at localhost:<unused port>.",
      "Formats: text (one device per line), json {\"local_task\", \"cluster\", \"devices\"}.",
      ""
    })
public final class ConnectCommand extends ResolvingSubcommand {

  @Mixin private TransportOptions transport;

  @Option(names = "--job-name", paramLabel = "JOB", defaultValue = ConnectOptions.DEFAULT_JOB_NAME,
      description = "The local task's job (TensorFlow's job_name; default: ${DEFAULT-VALUE}).")
  private String jobName;

  @Option(names = "--task-index", paramLabel = "INDEX", defaultValue = "0",
      description = "The local task's index (default: ${DEFAULT-VALUE}).")
  private int taskIndex;

  @Option(names = "--protocol", paramLabel = "PROTOCOL", defaultValue = "grpc",
      description = "The protocol (default: ${DEFAULT-VALUE}; the only one supported).")
  private String protocol;

  @Option(names = "--connect-timeout", paramLabel = "SECONDS", defaultValue = "30",
      description = "How long to wait for every task to answer (default: ${DEFAULT-VALUE}).")
  private double connectTimeoutSeconds;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
      description = "text (default) or json.")
  private String format;

  @Override
  public Integer call() throws IOException {
    if (!format.equals("text") && !format.equals("json")) {
      throw new ConfigurationException("--format " + format + ": use text or json");
    }
    if (!(connectTimeoutSeconds > 0)) {
      throw new ConfigurationException("--connect-timeout must be positive");
    }
    ConnectOptions options = ConnectOptions.builder()
        .jobName(jobName)
        .taskIndex(taskIndex)
        .protocol(protocol)
        .deviceFilters(transport.deviceFilters())
        .tls(transport.tls(environment()))
        .connectTimeout(Duration.ofMillis((long) (connectTimeoutSeconds * 1000)))
        .build();
    ResolverOptions.Selection selection = resolverOptions.select(environment());
    String text;
    try (ClusterConnection connection = Cluster.connect(selection.resolver(), options)) {
      text = format.equals("json") ? json(connection) : String.join("\n", connection.devices()) + "\n";
    }
    out().print(text);
    out().flush();
    return ExitCodes.OK;
  }

  private static String json(ClusterConnection connection) throws IOException {
    StringWriter text = new StringWriter();
    try (JsonGenerator json = new JsonFactory().createGenerator(text)) {
      json.useDefaultPrettyPrinter();
      json.writeStartObject();
      json.writeStringField("local_task", connection.localTask());
      json.writeObjectFieldStart("cluster");
      for (String job : connection.clusterSpec().jobs()) {
        json.writeObjectFieldStart(job);
        for (int task : connection.clusterSpec().taskIndices(job)) {
          json.writeStringField(Integer.toString(task), connection.clusterSpec().taskAddress(job, task));
        }
        json.writeEndObject();
      }
      json.writeEndObject();
      json.writeArrayFieldStart("devices");
      for (String device : connection.devices()) {
        json.writeString(device);
      }
      json.writeEndArray();
      json.writeEndObject();
    }
    return text + "\n";
  }
}
