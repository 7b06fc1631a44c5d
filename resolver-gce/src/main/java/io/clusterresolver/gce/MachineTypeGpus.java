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
   * The machine types of one resolve, each asked on a daemon thread the moment the listing reads an instance that
   * needs it ({@link #ask}), so that its round trip overlaps the rest of the page and the next pages instead of
   * following the last one; {@link #gpus} then takes that answer. The calls run under the resolve's session (its
   * deadline and retries); a failure of one is the resolve's when its GPUs are taken, as when it was asked then.
   * {@link #close()} stops and waits for the calls still running, so none outlives the resolve (and the lease of
   * its clients). Used by the resolve's own thread only.
   */
  static final class Lookups implements AutoCloseable {
    private final ComputeClients compute;
    private final CloudApi.Session session;
    private final String scope;
    private final String project;
    /** The calls started, by zone and type. */
    private final Map<String, InBackground<Integer>> asked = new HashMap<>();

    Lookups(ComputeClients compute, CloudApi.Session session, String scope, String project) {
      this.compute = compute;
      this.session = session;
      this.scope = scope;
      this.project = project;
    }

    /** Starts asking for the type's GPUs in the background, unless they are known or already asked. */
    void ask(String zone, String type) {
      String zonalType = zone + "/" + type;
      if (!asked.containsKey(zonalType) && !CACHE.contains(scope + "|" + project, zonalType)) {
        asked.put(zonalType, InBackground.start(Threads.CATALOG, "gce machineTypes.get " + zonalType,
            () -> of(compute, session, scope, project, zone, type)));
      }
    }

    /** The type's GPUs: the answer of the call {@link #ask} started, else asked now (or known). */
    int gpus(String zone, String type) {
      InBackground<Integer> call = asked.get(zone + "/" + type);
      return call != null ? call.join() : of(compute, session, scope, project, zone, type);
    }

    /** Stops the calls still running and waits for their end. */
    @Override
    public void close() {
      asked.values().forEach(InBackground::cancel);
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
