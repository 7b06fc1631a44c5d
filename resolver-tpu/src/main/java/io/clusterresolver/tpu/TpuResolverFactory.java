package io.clusterresolver.tpu;

import com.google.api.gax.core.CredentialsProvider;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.cloud.CloudResolverSetup;
import io.clusterresolver.cloud.SelfIdentity;
import io.clusterresolver.google.GoogleCredentialsSetting;
import io.clusterresolver.google.GoogleMetadata;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the {@code tpu} resolver: validates every property at once and decides what to ask —
 * the {@code name} property, else TensorFlow's variables ({@code KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS},
 * then {@code TPU_NAME}, then {@code TPU_CONFIG}), else this TPU VM's metadata server.
 *
 * <p>The workers are job {@code worker} in worker order (the worker id is the task index). As in
 * TensorFlow, a process that is not one of the workers (a client of the node) is task 0 of
 * {@code worker}, so {@code master()} is worker 0; a directly attached TPU ({@code local}) is task 0
 * of {@code worker} too, in an empty cluster: {@code master()} is {@code ""}, nothing remote.
 */
final class TpuResolverFactory {

  static final String KUBE_ENDPOINTS = "KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS";
  static final String TPU_NAME = "TPU_NAME";
  static final String TPU_CONFIG = "TPU_CONFIG";
  /** The job of every worker, as in TensorFlow's TPU resolver. */
  static final String JOB = "worker";

  private static final Pattern RESOURCE = Pattern.compile("projects/([^/\\s]+)/locations/([^/\\s]+)/nodes/([^/\\s]+)");
  private static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");
  /** A project id or zone: one segment of a resource name. */
  private static final Pattern SEGMENT = Pattern.compile("[^/\\s]+");
  private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9_.-]+)(?::(\\d{1,5}))?");

  private TpuResolverFactory() {}

  static ClusterResolver create(ResolverConfig config) {
    // Google's NetHttpTransport runs on HttpURLConnection, whose FINE log has the bearer token: start holds it.
    CloudResolverSetup setup = CloudResolverSetup.start(config, TpuProperties.DECLARATIONS).defaultTask(JOB, 0);
    List<String> problems = setup.problems();
    URI endpoint = setup.endpoint(TpuProperties.ENDPOINT);
    URI metadataEndpoint = setup.endpoint(TpuProperties.METADATA_ENDPOINT);
    String credentials = config.get(TpuProperties.CREDENTIALS);
    CredentialsProvider credentialsProvider = GoogleCredentialsSetting.read(config, TpuProperties.CREDENTIALS,
        TpuApi.SCOPES, problems);
    GoogleMetadata metadata = new GoogleMetadata(TpuClusterResolverProvider.NAME, GoogleMetadata.base(metadataEndpoint,
        config.getenv("GCE_METADATA_HOST")), Duration.ofSeconds(1), Duration.ofSeconds(2), TpuNodeSource.MAX_METADATA_BYTES);
    TpuTarget target = problems.isEmpty() ? target(setup, config, metadata) : null;
    setup.requireValid();
    if (target.kind() == TpuTarget.Kind.NODE && !config.get(TpuProperties.API)) {
      target = TpuTarget.metadata();
    }
    TpuApi api = target.kind() == TpuTarget.Kind.NODE ? new TpuApi(endpoint, credentialsProvider, AnswerLimit.of(config)) : null;
    Integer portOverride = config.isSet(TpuProperties.PORT) ? config.get(TpuProperties.PORT) : null;
    TpuNodeSource source = new TpuNodeSource(target, api, metadata, credentials == null, portOverride, setup.timeout());
    SelfIdentity self = SelfIdentity.cached(source::selfIdentity);
    setup.description(source.toString());
    boolean asks = target.kind() == TpuTarget.Kind.NODE || target.kind() == TpuTarget.Kind.METADATA;
    return asks ? setup.resolver(source, self, TpuClusterResolverProvider.ENVIRONMENT, target.kind() + " "
        + target.node(), metadata.base().toString(), config.getenv("GOOGLE_APPLICATION_CREDENTIALS"))
        : setup.unsharedResolver(source, self, TpuClusterResolverProvider.ENVIRONMENT);
  }

  /** What to ask about; each problem is added to {@code problems}, naming the key or variable. */
  static TpuTarget target(CloudResolverSetup setup, ResolverConfig config, GoogleMetadata metadata) {
    List<String> problems = setup.problems();
    String name = config.get(TpuProperties.NAME);
    String from = config.key(TpuProperties.NAME);
    JsonObject tpuConfig = tpuConfig(config, problems);
    if (name == null && config.getenv(KUBE_ENDPOINTS) != null) {
      return workers(config.getenv(KUBE_ENDPOINTS), KUBE_ENDPOINTS, config, problems);
    }
    if (name == null && config.getenv(TPU_NAME) != null) {
      name = config.getenv(TPU_NAME);
      from = TPU_NAME;
    }
    if (name == null && tpuConfig != null && string(tpuConfig, "tpu_node_name") != null) {
      name = string(tpuConfig, "tpu_node_name");
      from = TPU_CONFIG + " (tpu_node_name)";
    }
    if (name == null) {
      // TF raises ValueError("Please provide a TPU Name to connect to."); on a TPU VM ours takes its own node.
      if (metadata.get(TpuNodeSource.WORKER_ENDPOINTS).isEmpty()) {
        problems.add(from + " is not set, nor is " + KUBE_ENDPOINTS + ", " + TPU_NAME + " or " + TPU_CONFIG
            + ", and the metadata server (" + metadata.base() + ") describes no TPU VM: set " + from
            + " to the TPU node's name, its full resource name, grpc:// addresses or 'local'");
        return null;
      }
      return TpuTarget.metadata();
    }
    name = name.trim();
    if (name.isEmpty()) {
      problems.add(from + " is empty: give the TPU node's name, its full resource name, grpc:// addresses or 'local'");
      return null;
    }
    if (name.equals("local")) {
      return TpuTarget.local(from);
    }
    if (name.startsWith("grpc://")) {
      return workers(name, from, config, problems);
    }
    if (name.contains(",")) {
      // TF: NotImplementedError("Using multiple TPUs in a single session is not yet implemented").
      problems.add(from + ": '" + name + "' names several TPU nodes; one resolver resolves one node: give one"
          + " name (a UnionClusterResolver joins several resolvers), or the workers as grpc://host:port,...");
      return null;
    }
    Matcher resource = RESOURCE.matcher(name);
    if (resource.matches()) {
      return TpuTarget.node(name, from);
    }
    if (!NODE_NAME.matcher(name).matches()) {
      problems.add(from + ": '" + name + "' is not a TPU node name: give NAME, projects/P/locations/ZONE/nodes/NAME,"
          + " grpc://host:port[,grpc://host:port...] or 'local'");
      return null;
    }
    String project = lookup(setup, TpuProperties.PROJECT, "project", "my-project", tpuConfig)
        .orMetadata("the metadata server (" + metadata.base() + ")", metadata::projectId)
        .matching(SEGMENT, "project id, like my-project");
    String zone = lookup(setup, TpuProperties.ZONE, "zone", "us-central2-b", tpuConfig)
        .orMetadata("the metadata server (" + metadata.base() + ")", metadata::zone)
        .matching(SEGMENT, "zone name, like us-central2-b");
    return project == null || zone == null ? null
        : TpuTarget.node("projects/" + project + "/locations/" + zone + "/nodes/" + name, from);
  }

  /** The property, else TPU_CONFIG's field of the same name (TensorFlow's TPU_CONFIG has project and zone). */
  private static CloudResolverSetup.Lookup lookup(CloudResolverSetup setup, ConfigProperty<String> property,
      String field, String example, JsonObject tpuConfig) {
    return setup.lookup(property, field, example)
        .or(TPU_CONFIG + " (" + field + ")", () -> Optional.ofNullable(tpuConfig == null ? null : string(tpuConfig, field)));
  }

  /** {@code grpc://host[:port]} entries, comma-separated (the scheme may be left out after the first, as TF allows). */
  private static TpuTarget workers(String list, String from, ResolverConfig config, List<String> problems) {
    List<String> addresses = new ArrayList<>();
    int port = config.get(TpuProperties.PORT);
    for (String entry : list.split(",", -1)) {
      String hostPort = entry.trim();
      if (hostPort.startsWith("grpc://")) {
        hostPort = hostPort.substring("grpc://".length());
      }
      Matcher m = HOST_PORT.matcher(hostPort);
      if (!m.matches() || (m.group(2) != null && (Integer.parseInt(m.group(2)) < 1 || Integer.parseInt(m.group(2)) > 65535))) {
        problems.add(from + ": '" + entry.trim() + "' is not grpc://host[:port]");
        continue;
      }
      addresses.add(m.group(2) == null ? m.group(1) + ":" + port : hostPort);
    }
    return TpuTarget.workers(addresses, from);
  }

  /** TPU_CONFIG's JSON object, or {@code null} when unset (a malformed one is a problem). */
  private static JsonObject tpuConfig(ResolverConfig config, List<String> problems) {
    String text = config.getenv(TPU_CONFIG);
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      JsonElement json = JsonParser.parseString(text);
      if (json.isJsonObject()) {
        return json.getAsJsonObject();
      }
    } catch (RuntimeException e) {
      // reported below
    }
    problems.add(TPU_CONFIG + " is not a JSON object like {\"tpu_node_name\": \"NAME\", \"project\": \"P\","
        + " \"zone\": \"Z\"}");
    return null;
  }

  private static String string(JsonObject o, String field) {
    JsonElement e = o.get(field);
    return e != null && e.isJsonPrimitive() && !e.getAsString().isBlank() ? e.getAsString().trim() : null;
  }
}
