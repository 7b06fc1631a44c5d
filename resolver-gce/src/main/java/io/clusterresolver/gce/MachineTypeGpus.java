package io.clusterresolver.gce;

import com.google.gson.stream.JsonReader;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.NotTheApiException;
import io.clusterresolver.google.GoogleJson;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * GPUs of machine types whose GPUs are bundled (a2, a3, g2…), from {@code machineTypes.get}, asked
 * once per API endpoint, project, zone and type for the JVM: a machine type never changes.
 */
final class MachineTypeGpus {

  private static final Map<String, Integer> CACHE = new ConcurrentHashMap<>();

  private MachineTypeGpus() {}

  /** The GPU count of a type in a zone, asked of the API the first time only. */
  static int of(ComputeClients compute, CloudApi.Session session, String scope, String project, String zone,
      String type) {
    String key = scope + "|" + project + "|" + zone + "|" + type;
    Integer known = CACHE.get(key);
    if (known != null) {
      return known;
    }
    Answer machineType = session.call("machineTypes.get " + zone + "/" + type, remaining -> {
      Answer answer = compute.machineType(project, zone, type, remaining);
      return NotTheApiException.require(answer, "compute#machineType".equals(answer.kind()),
          "no \"kind\": \"compute#machineType\"");
    });
    int gpus = machineType.gpus();
    CACHE.put(key, gpus);
    return gpus;
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
