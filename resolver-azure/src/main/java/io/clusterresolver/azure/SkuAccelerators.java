package io.clusterresolver.azure;

import io.clusterresolver.cloud.CatalogCache;
import io.clusterresolver.cloud.CloudApi;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * GPUs per VM size from Resource SKUs ({@code $filter=location eq '…'}, capability {@code GPUs}),
 * asked once per location, subscription and endpoint for the life of the JVM: sizes never change.
 */
final class SkuAccelerators {

  /** (scope, location) -> (lower-case size name -> GPUs). */
  private static final CatalogCache<Map<String, Integer>> BY_LOCATION = CatalogCache.create();

  private final ArmClients arm;
  private final String scope;

  SkuAccelerators(ArmClients arm, String scope) {
    this.arm = arm;
    this.scope = scope;
  }

  /**
   * The SKUs of one resolve: a location {@linkplain CatalogCache.Prefetch#start started} (by its {@link #key}) is
   * listed on a thread of its own, the others when {@linkplain CatalogCache.Prefetch#await awaited}; neither for a
   * location this JVM knows.
   */
  CatalogCache.Prefetch<Map<String, Integer>> prefetch(CloudApi.Session session) {
    return BY_LOCATION.prefetch(session, scope, "cluster-resolver-azure-skus", locations -> load(locations, session));
  }

  /** GPUs by lower-case size name of each location (all pages of each). */
  private Map<String, Map<String, Integer>> load(List<String> locations, CloudApi.Session session) {
    Map<String, Map<String, Integer>> byLocation = new HashMap<>();
    for (String location : locations) {
      Map<String, Integer> gpus = new HashMap<>();
      String filter = "location eq '" + location + "'";
      Paging.forEach(session, "ResourceSkus.List(" + location + ")",
          arm.resourceSkus(filter),
          sku -> {
            if ("virtualMachines".equalsIgnoreCase(sku.resourceType()) && sku.name() != null) {
              int n = gpus(sku);
              if (n > 0) {
                gpus.put(sku.name().toLowerCase(Locale.ROOT), n);
              }
            }
          });
      byLocation.put(location, Map.copyOf(gpus));
    }
    return byLocation;
  }

  /** GPUs of a size in a location, from {@code byLocation} (a prefetch's answer); 0 when none or unknown. */
  static int gpus(Map<String, Map<String, Integer>> byLocation, String location, String size) {
    if (location == null || size == null) {
      return 0;
    }
    return byLocation.getOrDefault(key(location), Map.of()).getOrDefault(size.toLowerCase(Locale.ROOT), 0);
  }

  /** A location as the catalog knows it (and Resource SKUs' filter takes it): lower case, no spaces. */
  static String key(String location) {
    return location.toLowerCase(Locale.ROOT).replace(" ", "");
  }

  private static int gpus(ArmResources.Sku sku) {
    if (sku.capabilities() == null) {
      return 0;
    }
    for (ArmResources.Sku.Capability c : sku.capabilities()) {
      if ("GPUs".equals(c.name()) && c.value() != null) {
        try {
          return Integer.parseInt(c.value().trim());
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 0;
  }

  /** For tests: forget the cached SKUs. */
  static void clear() {
    BY_LOCATION.clear();
  }
}
