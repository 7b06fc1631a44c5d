package io.clusterresolver.azure;

import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import io.clusterresolver.cloud.PlatformProbes;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
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
  private static final Map<String, String> HEADERS = Map.of("Metadata", "true");

  private final URI endpoint;

  Imds(URI endpoint) {
    this.endpoint = endpoint;
  }

  /** What IMDS says about this VM. */
  record Compute(String vmId, String name, String resourceId, String vmScaleSetName, String subscriptionId) {}

  static URI computeUri(URI endpoint) {
    String base = endpoint.toString().replaceAll("/+$", "");
    return URI.create(base + "/metadata/instance/compute?api-version=" + API_VERSION + "&format=json");
  }

  /** One request with the probe timeout: whether an IMDS answers there. */
  static boolean probe(URI endpoint, Duration timeout) {
    return PlatformProbes.http("GET", computeUri(endpoint), HEADERS, timeout)
        .map(r -> r.ok() && r.body().contains("\"vmId\"")).orElse(false);
  }

  /** This VM, or empty off Azure (logged once per caller; callers cache it). */
  Optional<Compute> compute() {
    Optional<PlatformProbes.Response> answer =
        PlatformProbes.http("GET", computeUri(endpoint), HEADERS, Duration.ofSeconds(2));
    if (answer.isEmpty() || !answer.get().ok()) {
      LOG.log(Level.INFO, () -> "azure: the instance metadata service at " + endpoint + " did not answer"
          + answer.map(r -> " (HTTP " + r.status() + ")").orElse("") + "; this process is not matched to a VM:"
          + " set clusterresolver.azure.task-type and task-id, or clusterresolver.azure.imds-endpoint");
      return Optional.empty();
    }
    try (JsonReader reader = JsonProviders.createReader(answer.get().body())) {
      Map<String, Object> json = reader.readMap(JsonReader::readUntyped);
      return Optional.of(new Compute(text(json, "vmId"), text(json, "name"), text(json, "resourceId"),
          text(json, "vmScaleSetName"), text(json, "subscriptionId")));
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.INFO, () -> "azure: the instance metadata service at " + endpoint
          + " answered something that is not its JSON (" + e.getClass().getSimpleName() + ")");
      return Optional.empty();
    }
  }

  /** This VM's resource id, lower-cased (ARM ids are case-insensitive), to match against members. */
  Optional<String> resourceId() {
    return compute().map(Compute::resourceId).filter(s -> !s.isEmpty()).map(s -> s.toLowerCase(Locale.ROOT));
  }

  private static String text(Map<String, Object> json, String key) {
    Object value = json.get(key);
    return value == null ? "" : value.toString();
  }
}
