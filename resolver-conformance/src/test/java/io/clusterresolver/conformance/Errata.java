package io.clusterresolver.conformance;

import java.util.Map;

/**
 * Steps whose TF outcome conflicts with a deliberate deviation although the data does not tag
 * them. Each is listed by vector id and op with the rule and the reason, and reported as skipped
 * with that text — never silently. Keep this list short and explain every entry.
 */
final class Errata {

  private static final Map<String, String> UNTAGGED = Map.of(
      "clusterspec/def-unsorted-jobs as_cluster_def",
      "D1 (untagged in the data): TF returns the ClusterDef it was given, jobs unsorted; a Java "
          + "ClusterSpec keeps jobs sorted (D1), so its ClusterDef is written sorted (K2). The `jobs` "
          + "step of the same setup carries D1.");

  private Errata() {}

  /** The skip reason for an untagged step, or {@code null}. */
  static String untaggedDeviation(String vectorId, String op) {
    String id = vectorId;
    int slash = id.lastIndexOf('/');
    String key = (slash > 0 ? id.substring(0, slash) : id) + " " + op;
    return UNTAGGED.get(key);
  }
}
