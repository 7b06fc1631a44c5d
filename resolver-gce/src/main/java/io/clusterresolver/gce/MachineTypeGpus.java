package io.clusterresolver.gce;

import com.google.gson.stream.JsonReader;
import io.clusterresolver.cloud.CatalogCache;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.InBackground;
import io.clusterresolver.cloud.NotTheApiException;
import io.clusterresolver.google.GoogleJson;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * GPUs of machine types whose GPUs are bundled (a2, a3, g2…), from {@code machineTypes.get}, asked
 * once per API endpoint, project, zone and type for the JVM: a machine type never changes.
 */
final class MachineTypeGpus {

  private static final CatalogCache<Integer> CACHE = CatalogCache.create();

  private MachineTypeGpus() {}

  /** The GPU count of the type {@code zone/type}, asked of the API (the cache is the prefetch's). */
  private static int ask(ComputeCalls compute, CloudApi.Session session, String project, String zonalType) {
    int slash = zonalType.indexOf('/');
    String zone = zonalType.substring(0, slash);
    String type = zonalType.substring(slash + 1);
    return session.call("machineTypes.get " + zonalType, remaining -> {
      Answer answer = compute.machineType(project, zone, type, remaining);
      return NotTheApiException.require(answer, "compute#machineType".equals(answer.kind()),
          "no \"kind\": \"compute#machineType\"");
    }).gpus();
  }

  /**
   * The machine types of one resolve, keyed {@code zone/type}: one {@linkplain CatalogCache.Prefetch#start started}
   * as the listing reads a member that needs it is asked at once on a daemon thread, so that its round trip overlaps
   * the rest of the listing; the caller cancels what still runs when it no longer needs it.
   */
  static CatalogCache.Prefetch<Integer> prefetch(ComputeCalls compute, CloudApi.Session session, String scope,
      String project) {
    return CACHE.prefetch(session, scope + "|" + project, Threads.CATALOG, "gce machineTypes.get", keys -> {
      Map<String, Integer> gpus = new HashMap<>();
      for (String zonalType : keys) {
        gpus.put(zonalType, ask(compute, session, project, zonalType));
      }
      return gpus;
    });
  }

  /** The threads of the calls beside a listing, made on first use: at most 4 at once. */
  private static final class Threads {
    static final ExecutorService CATALOG = InBackground.daemonThreads("cluster-resolver-gce-catalog", 4);
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
