package io.clusterresolver.gce;

import com.google.gson.stream.JsonReader;
import io.clusterresolver.cloud.CatalogCache;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.InBackground;
import io.clusterresolver.cloud.NotTheApiException;
import io.clusterresolver.google.GoogleJson;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
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
   * The machine types of one resolve, each asked on a daemon thread the moment the listing reads an instance that
   * needs it ({@link #ask(String, String)}), so that its round trip overlaps the rest of the page and the next pages
   * instead of following the last one; {@link #gpus} then takes that answer. The kit's {@link CatalogCache.Prefetch}
   * does the work: calls under the resolve's session (its deadline and retries), a failure the resolve's when the
   * GPUs are taken, a type kept for the JVM never asked again, and {@link #close()} stopping the calls still running
   * so that none outlives the resolve.
   */
  static final class Lookups implements AutoCloseable {
    private final CatalogCache.Prefetch<Integer> prefetch;

    Lookups(ComputeCalls compute, CloudApi.Session session, String scope, String project) {
      this.prefetch = CACHE.prefetch(session, scope + "|" + project, Threads.CATALOG, "gce machineTypes.get", keys -> {
        Map<String, Integer> gpus = new HashMap<>();
        for (String zonalType : keys) {
          gpus.put(zonalType, MachineTypeGpus.ask(compute, session, project, zonalType));
        }
        return gpus;
      });
    }

    /** Starts asking for the type's GPUs in the background, unless they are known or already asked. */
    void ask(String zone, String type) {
      prefetch.start(List.of(zone + "/" + type));
    }

    /** The type's GPUs: the answer of the call {@link #ask} started, else asked now (or known). */
    int gpus(String zone, String type) {
      String zonalType = zone + "/" + type;
      return prefetch.await(List.of(zonalType)).get(zonalType);
    }

    /** Stops the calls still running and waits for their end. */
    @Override
    public void close() {
      prefetch.cancel();
    }
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
