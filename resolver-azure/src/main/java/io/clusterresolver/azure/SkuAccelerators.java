package io.clusterresolver.azure;

import io.clusterresolver.cloud.CatalogCache;
import io.clusterresolver.cloud.CloudApi;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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

  /** Lists the SKUs of every location not yet known (all pages of each). */
  void load(Set<String> locations, CloudApi.Session session) {
    for (String location : new TreeSet<>(locations)) {
      if (known(location)) {
        continue;
      }
      Map<String, Integer> gpus = new HashMap<>();
      String filter = "location eq '" + location + "'";
      Paging.forEach(session, "ResourceSkus.List(" + location + ")",
          ctx -> arm.resourceSkus(filter, ctx),
          sku -> {
            if ("virtualMachines".equalsIgnoreCase(sku.resourceType()) && sku.name() != null) {
              int n = gpus(sku);
              if (n > 0) {
                gpus.put(sku.name().toLowerCase(Locale.ROOT), n);
              }
            }
          });
      BY_LOCATION.put(scope, key(location), Map.copyOf(gpus));
    }
  }

  /** Whether the SKUs of {@code location} are known to this JVM. */
  boolean known(String location) {
    return BY_LOCATION.contains(scope, key(location));
  }

  /** GPUs of a size in a location ({@link #load} first); 0 when none or unknown. */
  int gpus(String location, String size) {
    if (location == null || size == null) {
      return 0;
    }
    return BY_LOCATION.get(scope, key(location)).orElse(Map.of()).getOrDefault(size.toLowerCase(Locale.ROOT), 0);
  }

  private static String key(String location) {
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
