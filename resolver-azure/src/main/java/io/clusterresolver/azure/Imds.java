package io.clusterresolver.azure;

import com.fasterxml.jackson.core.JsonParser;
import io.clusterresolver.cloud.MetadataClient;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * This VM's identity from the Azure Instance Metadata Service: {@code GET
 * /metadata/instance/compute} with the {@code Metadata: true} header and a pinned
 * {@code api-version}. Plain HTTP to a link-local address, never through a proxy.
 */
final class Imds {

  private static final System.Logger LOG = System.getLogger(Imds.class.getName());

  static final URI DEFAULT_ENDPOINT = URI.create("http://169.254.169.254");
  /** The pinned IMDS API version. */
  static final String API_VERSION = "2021-02-01";
  private static final String COMPUTE = "/metadata/instance/compute?api-version=" + API_VERSION + "&format=json";

  private final MetadataClient imds;
  /** What IMDS said, once it has: a VM's identity does not change while the process runs. */
  private volatile Compute known;

  Imds(URI endpoint) {
    this.imds = client(endpoint, Duration.ofSeconds(2));
  }

  private static MetadataClient client(URI endpoint, Duration timeout) {
    return client(endpoint).timeout(timeout).build();
  }

  /** A client of IMDS at {@code endpoint}: the provider's name in its messages, {@code Metadata: true} on each request. */
  static MetadataClient.Builder client(URI endpoint) {
    return MetadataClient.builder(AzureClusterResolverProvider.NAME, endpoint).header("Metadata", "true");
  }

  /** What IMDS says about this VM. */
  record Compute(String vmId, String name, String resourceId, String vmScaleSetName, String subscriptionId) {}

  /** One request with the probe timeout: whether an IMDS answers there. */
  static boolean probe(URI endpoint, Duration timeout) {
    try {
      return client(endpoint, timeout).get(COMPUTE).map(body -> body.contains("\"vmId\"")).orElse(false);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * This VM, or empty off Azure (logged once per caller; callers cache it). An answer is kept: the
   * subscription's lookup and the resolve's identity then take one request between them.
   */
  Optional<Compute> compute() {
    Compute seen = known;
    if (seen != null) {
      return Optional.of(seen);
    }
    Optional<String> answer = imds.get(COMPUTE, why -> LOG.log(Level.INFO, () -> "azure: the instance metadata"
        + " service did not tell this VM (" + why + "); this process is not matched to a VM: set"
        + " clusterresolver.azure.task-type and task-id, or clusterresolver.azure.imds-endpoint"));
    if (answer.isEmpty()) {
      return Optional.empty();
    }
    try (JsonParser parser = ArmJson.parser(answer.get().getBytes(StandardCharsets.UTF_8))) {
      Map<String, String> json = fields(parser);
      known = new Compute(text(json, "vmId"), text(json, "name"), text(json, "resourceId"),
          text(json, "vmScaleSetName"), text(json, "subscriptionId"));
      return Optional.of(known);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.INFO, () -> "azure: the instance metadata service at " + imds.base()
          + " answered something that is not its JSON (" + e.getClass().getSimpleName() + ")");
      return Optional.empty();
    }
  }

  /** This VM's resource id, lower-cased (ARM ids are case-insensitive), to match against members. */
  Optional<String> resourceId() {
    return compute().map(Compute::resourceId).filter(s -> !s.isEmpty()).map(s -> s.toLowerCase(Locale.ROOT));
  }

  /**
   * The answer's top-level fields: each scalar's text, each object or array skipped (IMDS's {@code compute} holds
   * plain strings for the fields read here).
   *
   * @throws IllegalStateException when the answer is not a JSON object
   */
  private static Map<String, String> fields(JsonParser json) throws IOException {
    if (!ArmJson.object(json)) {
      throw new IllegalStateException("null where IMDS answers an object");
    }
    Map<String, String> fields = new HashMap<>();
    for (String name = ArmJson.field(json); name != null; name = ArmJson.field(json)) {
      if (json.currentToken().isScalarValue()) {
        fields.put(name, ArmJson.string(json));
      } else {
        json.skipChildren();
      }
    }
    return fields;
  }

  private static String text(Map<String, String> json, String key) {
    String value = json.get(key);
    return value == null ? "" : value;
  }
}
