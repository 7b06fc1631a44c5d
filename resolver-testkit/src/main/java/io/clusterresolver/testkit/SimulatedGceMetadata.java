package io.clusterresolver.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The Compute Engine metadata server: {@code GET /computeMetadata/v1/...} with
 * {@code Metadata-Flavor: Google} (without it: 403, as the real server), every answer carrying
 * {@code Metadata-Flavor: Google}. Which instance "this" is comes from the simulation.
 */
final class SimulatedGceMetadata {

  static final String PREFIX = "/computeMetadata/v1/";

  private final Supplier<SimulatedGceInstance> self;
  private final String project;
  private final long projectNumber;

  SimulatedGceMetadata(Supplier<SimulatedGceInstance> self, String project, long projectNumber) {
    this.self = self;
    this.project = project;
    this.projectNumber = projectNumber;
  }

  ResponseDefinition answer(String path, Map<String, String> headers) {
    if (!"Google".equals(headers.get("metadata-flavor"))) {
      return text(403, "Missing required header: Metadata-Flavor\n");
    }
    String key = path.substring(PREFIX.length());
    switch (key) {
      case "":
        return text(200, "instance/\noslogin/\nproject/\n");
      case "project/project-id":
        return text(200, project);
      case "project/numeric-project-id":
        return text(200, Long.toString(projectNumber));
      default:
        break;
    }
    SimulatedGceInstance me = self.get();
    if (me == null || !key.startsWith("instance/")) {
      return text(404, "Not Found\n");
    }
    switch (key) {
      case "instance/id":
        return text(200, me.idText());
      case "instance/name":
      case "instance/hostname":
        return text(200, key.endsWith("name") ? me.name() : me.name() + "." + me.zone() + ".c." + project + ".internal");
      case "instance/zone":
        return text(200, "projects/" + projectNumber + "/zones/" + me.zone());
      case "instance/machine-type":
        return text(200, "projects/" + projectNumber + "/machineTypes/" + me.machineType());
      case "instance/network-interfaces/0/ip":
        return me.networkIp().map(ip -> text(200, ip)).orElse(text(404, "Not Found\n"));
      default:
        return text(404, "Not Found\n");
    }
  }

  private static ResponseDefinition text(int status, String body) {
    return aResponse().withStatus(status).withHeader("Metadata-Flavor", "Google")
        .withHeader("Content-Type", "application/text").withBody(body).build();
  }
}
