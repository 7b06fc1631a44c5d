package io.clusterresolver.tpu;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TPUs per host from a Cloud TPU {@code acceleratorType} such as {@code v4-32}, counted as TensorFlow
 * and JAX report them per host: TensorCores on v2 and v3, chips on v4, v5p (megacore), v5e
 * ({@code v5litepod}) and v6e.
 *
 * <p>The suffix counts TensorCores on v2, v3, v4 and v5p (two per chip) and chips on v5e and v6e. A
 * slice whose suffix is at most 8 is one host; larger slices have 4 chips per host. The number of
 * workers the node lists is the authoritative host count: the slice's total is divided among them.
 */
final class AcceleratorTypes {

  private static final Pattern TYPE = Pattern.compile("(v2|v3|v4|v5p|v5litepod|v5e|v6e)-(\\d{1,6})");

  private AcceleratorTypes() {}

  /**
   * The accelerators of each host of a slice.
   *
   * @param acceleratorType the node's type, like {@code v5litepod-16}
   * @param hosts the number of workers the node lists (0 when unknown)
   * @return {@code {"TPU": n}}, or empty for a type this version does not know
   */
  static Optional<Map<String, Integer>> perHost(String acceleratorType, int hosts) {
    if (acceleratorType == null) {
      return Optional.empty();
    }
    Matcher m = TYPE.matcher(acceleratorType.trim().toLowerCase(java.util.Locale.ROOT));
    if (!m.matches()) {
      return Optional.empty();
    }
    String generation = m.group(1);
    int suffix = Integer.parseInt(m.group(2));
    if (suffix < 1) {
      return Optional.empty();
    }
    boolean coresInSuffix = !generation.equals("v5litepod") && !generation.equals("v5e") && !generation.equals("v6e");
    boolean reportCores = generation.equals("v2") || generation.equals("v3");
    // The slice's total in the unit reported per host.
    int total = coresInSuffix && !reportCores ? Math.max(1, suffix / 2) : suffix;
    // Four chips per host beyond a single host, in the reported unit.
    int perFullHost = reportCores ? 8 : 4;
    int perHost;
    if (hosts == 1) {
      perHost = total;
    } else if (hosts > 1 && total % hosts == 0) {
      perHost = total / hosts;
    } else {
      perHost = suffix <= 8 ? total : Math.min(total, perFullHost);
    }
    return Optional.of(Map.of("TPU", perHost));
  }
}
