package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The Compute Engine metadata server that Compute Engine VMs and TPU VMs see
 * ({@code GET /computeMetadata/v1/...}): a request without {@code Metadata-Flavor: Google} is
 * refused with 403, as the real server does; answers carry {@code Metadata-Flavor: Google}. The
 * values come from the simulation (so they follow its world), and single values can be set or
 * removed on top.
 */
final class GoogleMetadataServer {

  static final String PREFIX = "/computeMetadata/v1/";
  private static final String REMOVED = "\u0000";

  private final Supplier<Map<String, String>> values;
  /** Values by path (after {@link #PREFIX}); these override the simulation's. */
  private final Map<String, String> overrides = new ConcurrentHashMap<>();
  private volatile boolean down;

  /** @param values the values by path after {@code /computeMetadata/v1/}, read at each request */
  GoogleMetadataServer(Supplier<Map<String, String>> values) {
    this.values = values;
  }

  /**
   * Whether a path is the metadata server's: its tree, and its root {@code /}, which google-auth's Application
   * Default Credentials ping to tell a Compute Engine VM ({@code GCE_METADATA_HOST} pointing them here).
   */
  static boolean serves(String path) {
    return path.equals("/") || path.startsWith(PREFIX.substring(0, PREFIX.length() - 1));
  }

  /** The values every VM of a project sees. */
  static Map<String, String> projectValues(String project, long projectNumber, String zone) {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("project/project-id", project);
    v.put("project/numeric-project-id", Long.toString(projectNumber));
    if (zone != null) {
      v.put("instance/zone", "projects/" + projectNumber + "/zones/" + zone);
    }
    return v;
  }

  /** Sets ({@code value} non-null) or removes one value. */
  void set(String path, String value) {
    overrides.put(path, value == null ? REMOVED : value);
  }

  /** Whether the server answers at all (down: every request is met with a reset connection). */
  void down(boolean down) {
    this.down = down;
  }

  ResponseDefinition answer(SimulatedApi.Call call) {
    if (down) {
      return SimulatedApi.reset();
    }
    if (!"Google".equals(call.header("metadata-flavor"))) {
      return aResponse().withStatus(403).withHeader("Content-Type", "text/html; charset=UTF-8")
          .withBody("Missing Metadata-Flavor:Google header.").build();
    }
    if (!"GET".equals(call.method())) {
      return plain(405, "");
    }
    String path = call.path();
    if (path.equals("/")) {
      return plain(200, "computeMetadata/\n");
    }
    String key = path.length() <= PREFIX.length() ? "" : path.substring(PREFIX.length());
    if (key.isEmpty()) {
      return plain(200, "instance/\noslogin/\nproject/\n");
    }
    String value = overrides.containsKey(key) ? overrides.get(key) : values.get().get(key);
    if (value == null || value.equals(REMOVED)) {
      return aResponse().withStatus(404).withHeader("Metadata-Flavor", "Google")
          .withHeader("Content-Type", "text/html; charset=UTF-8").withBody("Not Found").build();
    }
    return plain(200, value);
  }

  /**
   * The answer under {@link Fault.Kind#METADATA_GARBAGE}: the metadata server (it says {@code
   * Metadata-Flavor: Google}) answering a page that is no value. Under a malformed-body fault the
   * answer is a captive portal's, without the header: not the metadata server at all.
   */
  static ResponseDefinition garbage() {
    return aResponse().withStatus(200).withHeader("Metadata-Flavor", "Google")
        .withHeader("Content-Type", "text/html").withBody("<html><body>captive portal</body></html>").build();
  }

  private static ResponseDefinition plain(int status, String body) {
    return aResponse().withStatus(status).withHeader("Metadata-Flavor", "Google")
        .withHeader("Content-Type", "application/text").withHeader("Server", "Metadata Server for VM")
        .withBody(body).build();
  }
}
