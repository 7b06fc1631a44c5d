package io.clusterresolver.gce;

import com.google.gson.stream.JsonReader;
import io.clusterresolver.cloud.CatalogCache;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.NotTheApiException;
import io.clusterresolver.google.GoogleJson;
import java.io.IOException;

/**
 * GPUs of machine types whose GPUs are bundled (a2, a3, g2…), from {@code machineTypes.get}, asked
 * once per API endpoint, project, zone and type for the JVM: a machine type never changes.
 */
final class MachineTypeGpus {

  private static final CatalogCache<Integer> CACHE = CatalogCache.create();

  private MachineTypeGpus() {}

  /** The GPU count of a type in a zone, asked of the API the first time only. */
  static int of(ComputeClients compute, CloudApi.Session session, String scope, String project, String zone,
      String type) {
    String zonalType = zone + "/" + type;
    return CACHE.get(scope + "|" + project, zonalType, () -> session.call("machineTypes.get " + zonalType, remaining -> {
      Answer answer = compute.machineType(project, zone, type, remaining);
      return NotTheApiException.require(answer, "compute#machineType".equals(answer.kind()),
          "no \"kind\": \"compute#machineType\"");
    }).gpus());
  }

  /**
   * What a resolve reads of a {@code MachineType}: its {@code kind} and the sum of its
   * {@code accelerators[].guestAcceleratorCount}.
   */
  record Answer(String kind, int gpus) {
    static Answer read(JsonReader in) throws IOException {
      String kind = "";
      int gpus = 0;
      for (String field = GoogleJson.firstField(in); field != null; field = GoogleJson.nextField(in)) {
        switch (field) {
          case "kind" -> kind = GoogleJson.string(in);
          case "accelerators" -> {
            for (int count : GoogleJson.list(in, Answer::guestAcceleratorCount)) {
              gpus += count;
            }
          }
          default -> in.skipValue();
        }
      }
      return new Answer(kind, gpus);
    }

    private static int guestAcceleratorCount(JsonReader accelerator) throws IOException {
      return GoogleJson.member(accelerator, "guestAcceleratorCount", GoogleJson::int32, 0);
    }
  }

  /** For tests: forget every cached type. */
  static void clear() {
    CACHE.clear();
  }
}
