package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
      Map.entry("K7-slurm-wins", "host lists: real Slurm's expansion wins over TensorFlow's"),
      Map.entry("Ports", "a port outside 1..65535 (port-base 0, or past 65535) is a configuration error"),
      Map.entry("Slurm lists", "a node list and a tasks-per-node list of different lengths are a"
          + " ClusterResolverException naming both variables"),
      Map.entry("Slurm rank", "a SLURM_PROCID outside the step's tasks is a ClusterResolverException"),
      Map.entry("Repeat 0", "a tasks-per-node item repeated 0 times ((x0)) names no node: rejected"),
      Map.entry("K6-keywords", "a union's keywords are typed builder methods: an unknown one does not compile"),
      Map.entry("Python import", "a Python module is missing (ImportError): no Java counterpart"));

  private Rules() {}

  /**
   * Tags a step with a rule of ours (docs/tf-compatibility.md) that replaces TF's outcome: the Java
   * exception expected instead, and the fact its message must name ({@code null}: any message).
   */
  static void expectError(Vector.Step step, String rule, String exception, String mentions) {
    ObjectNode json = (ObjectNode) step.json();
    json.put("deviation", rule);
    ObjectNode java = json.putObject("java");
    java.put("error", exception);
    if (mentions != null) {
      java.put("mentions", mentions);
    }
  }

  /**
   * The data README's error table, for the areas whose files carry no {@code expect_java_error}: the
   * Java exception for the Python exception TF raised, or {@code null} when the table has no row
   * (an {@code ImportError} is Python's own: the caller skips it with the reason "Python import").
   */
  static String javaError(String pythonType) {
    switch (pythonType) {
      case "ValueError":
      case "JSONDecodeError":
      case "TypeError":
      case "KeyError":
      case "IndexError":
      case "AssertionError":
      case "NotImplementedError": // a request TF's resolver does not support: a configuration error
        return "IllegalArgumentException";
      case "RuntimeError":
      case "FileNotFoundError":
      case "OSError":
        return "ClusterResolverException";
      default:
        return null;
    }
  }

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
