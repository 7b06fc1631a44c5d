package io.clusterresolver.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The rules of TF-COMPATIBILITY.md, for skip reasons. */
final class Rules {

  private static final Map<String, String> SUMMARIES = Map.ofEntries(
      Map.entry("D1", "jobs() is sorted"),
      Map.entry("D2", "jobTasks of an empty job is []"),
      Map.entry("D3", "typed inputs: a Python-only input (float, bool or string index, bytes, tuple, "
          + "int64 index, a dict where a ClusterSpec is required) has no Java counterpart"),
      Map.entry("D4", "empty TF_CONFIG means unset; invalid JSON names the position"),
      Map.entry("D5", "union overrides honoured, own rpc layer, one query per member"),
      Map.entry("D6", "an rpc layer with an empty master gives \"\""),
      Map.entry("D7", "Slurm placement follows the real task distribution"),
      Map.entry("D8", "Slurm GPUs: visible ids, CPU-only allocations"),
      Map.entry("D9", "Slurm state known from construction"),
      Map.entry("D10", "Slurm job-level variables outside a step"),
      Map.entry("D11", "Compute Engine: one list call per page"),
      Map.entry("D12", "Kubernetes: pod IPs, configured namespace, ready pods"),
      Map.entry("D13", "connect: exact master match"),
      Map.entry("K7-slurm-wins", "host lists: real Slurm's expansion wins over TensorFlow's"));

  private Rules() {}

  /** {@code "D3 (typed inputs: ...)"} for each rule of a comma-joined list. */
  static String describe(String deviation) {
    List<String> parts = new ArrayList<>();
    for (String rule : deviation.split(",")) {
      String id = rule.trim();
      parts.add(id + " (" + SUMMARIES.getOrDefault(id, "see TF-COMPATIBILITY.md") + ")");
    }
    return String.join(", ", parts);
  }
}
