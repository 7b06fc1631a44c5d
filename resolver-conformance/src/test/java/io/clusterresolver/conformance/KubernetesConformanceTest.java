package io.clusterresolver.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * {@code tf-vectors/kubernetes.json}: TensorFlow's Kubernetes resolver against a fake CoreV1 API,
 * replayed against the {@code kubernetes} provider and a {@link SimulatedKubernetes} serving each
 * vector's pods (conformance README, "Cloud areas").
 *
 * <p>Each vector's {@code [name, phase, ip]} pods are served in namespace {@code ml} with the labels
 * of their selector, {@code ip} as the pod's own IP ({@code status.podIP}) and another address as the
 * node's ({@code status.hostIP}); the same pods are also served in namespace {@code decoy}. TF's
 * defaults are given explicitly: port 8470 and selector {@code job-name=tensorflow}. Rule D12 (pod IPs,
 * the configured namespace, pods that are not ready left out, not fatal) is checked on every vector
 * with assertions of this class: every list call names namespace {@code ml} and TF's label selector,
 * and no answer holds a node IP or a decoy. Where TF raised because a pod was not running, D12's
 * outcome is asserted instead, computed here from the vector's pods. TF's errors map as the README
 * says (ValueError -> IllegalArgumentException, RuntimeError -> ClusterResolverException).
 */
class KubernetesConformanceTest {

  static final String FILE = "tf-vectors/kubernetes.json";
  private static final String NAMESPACE = "ml";
  private static final String DEFAULT_SELECTOR = "job-name=tensorflow";
  private static final String TOKEN = "conformance-token";

  private static SimulatedKubernetes k8s;
  private static Path tokenFile;

  @BeforeAll
  static void start() throws IOException {
    k8s = SimulatedKubernetes.start();
    k8s.acceptTokens(Map.of(TOKEN, "system:serviceaccount:ml:conformance"));
    tokenFile = Files.createTempFile("conformance", ".token");
    Files.writeString(tokenFile, TOKEN, StandardCharsets.UTF_8);
  }

  @AfterAll
  static void stop() throws IOException {
    k8s.close();
    Files.deleteIfExists(tokenFile);
  }

  @TestFactory
  Stream<DynamicNode> kubernetes() {
    Tally tally = Tally.of(FILE);
    if (ConformanceData.file(FILE).isEmpty()) {
      return Stream.empty();
    }
    JsonNode root = ConformanceData.readJson(FILE);
    List<DynamicNode> tests = new ArrayList<>();
    List<Vector> vectors = new ArrayList<>();
    root.path("vectors").forEach(v -> vectors.add(new Vector(v)));
    tests.add(DynamicTest.dynamicTest(FILE + " header", () -> {
      assertThat(root.path("schema").asText()).isEqualTo(VectorRunner.SCHEMA);
      assertThat(root.path("count").asInt()).isEqualTo(vectors.size());
      assertThat(root.path("step_count").asInt()).isEqualTo(vectors.stream().mapToInt(v -> v.steps().size()).sum());
    }));
    for (Vector vector : vectors) {
      tests.add(DynamicTest.dynamicTest(vector.id(), () -> run(tally, vector)));
    }
    tests.add(DynamicTest.dynamicTest(FILE + " tally", tally::print));
    return tests.stream();
  }

  private static void run(Tally tally, Vector vector) {
    String unsupported = unsupported(vector.setup());
    if (unsupported != null) {
      tally.skipped(unsupported);
      throw new TestAbortedException(unsupported);
    }
    List<String> failures = new ArrayList<>();
    try {
      failures.addAll(runSteps(vector));
    } catch (RuntimeException | AssertionError e) {
      failures.add(e.toString());
    }
    if (!failures.isEmpty()) {
      tally.failed(vector.id(), String.join("; ", failures));
      throw new AssertionFailedError(vector.id() + ": " + String.join("\n    ", failures));
    }
    tally.passed();
  }

  /** Why a vector has no counterpart, or {@code null}. */
  private static String unsupported(JsonNode setup) {
    if (!setup.has("pods_by_selector")) {
      return setup.path("kwargs").has("executable_location")
          ? "no contract counterpart: TF's executable_location (the provider picks in-cluster or kubeconfig itself)"
          : "no contract counterpart: Python's ImportError for a missing kubernetes package (fabric8 is a dependency)";
    }
    JsonNode mapping = setup.path("job_to_label_mapping");
    int withSelectors = 0;
    for (JsonNode selectors : mapping) {
      if (selectors.size() > 1) {
        return "no contract counterpart: several selectors for one job (one selector per resolver)";
      }
      withSelectors += selectors.size();
    }
    return withSelectors > 1 ? "no contract counterpart: a selector per job (use job-label)" : null;
  }

  /** The job and its selector (TF's default when the mapping is null or empty). */
  private static Map.Entry<String, String> job(JsonNode setup) {
    for (Iterator<Map.Entry<String, JsonNode>> it = setup.path("job_to_label_mapping").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().size() == 1) {
        return Map.entry(e.getKey(), e.getValue().get(0).asText());
      }
    }
    return Map.entry("worker", DEFAULT_SELECTOR);
  }

  /**
   * The mapping's jobs as the {@code jobs} property, or {@code null} when the one job is TF's default
   * {@code worker}: the job with a selector takes every pod ({@code job:*}); a job whose selector list
   * is empty is kept, empty, as TF keeps it ({@code job:0}).
   */
  private static String jobs(JsonNode setup, String selectedJob) {
    List<String> jobs = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = setup.path("job_to_label_mapping").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().isEmpty()) {
        jobs.add(e.getKey() + ":0");
      }
    }
    if (jobs.isEmpty() && selectedJob.equals("worker")) {
      return null;
    }
    jobs.add(selectedJob + ":*");
    return String.join(",", jobs);
  }

  /** One pod of the vector: {@code [name, phase, ip]}. */
  private record TfPod(String name, String phase, String ip) {}

  private static List<TfPod> pods(JsonNode setup, String selector) {
    List<TfPod> pods = new ArrayList<>();
    for (JsonNode p : setup.path("pods_by_selector").path(selector)) {
      pods.add(new TfPod(p.get(0).asText(), p.get(1).asText(), p.get(2).isNull() ? null : p.get(2).asText()));
    }
    return pods;
  }

  static List<String> runSteps(Vector vector) {
    JsonNode setup = vector.setup();
    Map.Entry<String, String> job = job(setup);
    List<TfPod> pods = pods(setup, job.getValue());
    serve(pods, job.getValue());
    Map<String, String> properties = properties(setup.path("kwargs"), job.getValue());
    String jobs = jobs(setup, job.getKey());
    if (jobs != null) {
      properties.put("clusterresolver.kubernetes.jobs", jobs);
    }
    List<String> failures = new ArrayList<>();
    List<Object> answers = new ArrayList<>();
    ClusterResolver resolver = null;
    for (Vector.Step step : vector.steps()) {
      String op = step.op();
      if (op.equals("set_task_type") || op.equals("set_task_id")) {
        String key = "clusterresolver.kubernetes." + op.substring(4).replace('_', '-');
        properties.put(key, step.arg(0).asText());
        resolver = null;
        continue;
      }
      if (resolver == null) {
        resolver = ClusterResolvers.create("kubernetes", properties, Map.of());
      }
      Object result;
      Throwable thrown = null;
      try {
        result = ResolverOps.run(resolver, step);
        answers.add(result);
      } catch (RuntimeException e) {
        result = null;
        thrown = e;
        answers.add(e.getMessage());
      }
      Optional<String> problem = d12Applies(step, pods)
          ? d12Outcome(step, job.getKey(), pods, properties, result, thrown)
          : tfOutcome(step, result, thrown);
      problem.ifPresent(p -> failures.add(op + ": " + p));
    }
    failures.addAll(d12Requests(job.getValue()));
    for (Object answer : answers) {
      String text = String.valueOf(answer instanceof ClusterSpec s ? s.asMap() : answer);
      if (text.contains("192.168.77.") || text.contains("10.250.")) {
        failures.add("D12: an answer holds a node IP or a pod of another namespace: " + text);
      }
    }
    return failures;
  }

  /** Serves the vector's pods in namespace ml, and the same pods in namespace decoy with other IPs. */
  private static void serve(List<TfPod> pods, String selector) {
    k8s.clear().resetCounts();
    String[] label = selector.split("=", 2);
    int n = 0;
    for (TfPod p : pods) {
      n++;
      SimulatedPod.Builder b = SimulatedPod.builder(NAMESPACE, p.name()).label(label[0], label[1]).phase(p.phase())
          .ready(p.phase().equals("Running")).hostIp("192.168.77." + n);
      if (p.ip() != null) {
        b.podIps(p.ip());
      }
      k8s.add(b.build());
      k8s.add(SimulatedPod.builder("decoy", p.name()).label(label[0], label[1]).podIps("10.250.0." + n).build());
    }
  }

  private static Map<String, String> properties(JsonNode kwargs, String selector) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("clusterresolver.kubernetes.endpoint", k8s.endpoint().toString());
    p.put("clusterresolver.kubernetes.token-file", tokenFile.toString());
    p.put("clusterresolver.kubernetes.namespace", NAMESPACE);
    p.put("clusterresolver.kubernetes.selector", selector);
    p.put("clusterresolver.kubernetes.port", kwargs.has("tf_server_port") ? kwargs.get("tf_server_port").asText() : "8470");
    if (kwargs.has("rpc_layer")) {
      p.put("clusterresolver.kubernetes.rpc-layer", kwargs.get("rpc_layer").isNull() ? "" : kwargs.get("rpc_layer").asText());
    }
    return p;
  }

  /** TF raised because a pod was not running: D12 leaves such pods out instead. */
  private static boolean d12Applies(Vector.Step step, List<TfPod> pods) {
    return step.error() != null && "RuntimeError".equals(step.error().path("type").asText())
        && pods.stream().anyMatch(p -> !p.phase().equals("Running"));
  }

  /** TF's outcome, with its errors mapped as the README says. */
  private static Optional<String> tfOutcome(Vector.Step step, Object result, Throwable thrown) {
    if (step.hasValue()) {
      if (thrown != null) {
        return Optional.of("expected " + step.value() + " but got " + thrown);
      }
      return Values.difference(Values.withJobsSorted(step.value()), Values.encode(result));
    }
    String type = step.error().path("type").asText();
    Class<?> expected = type.equals("RuntimeError") ? ClusterResolverException.class : IllegalArgumentException.class;
    if (thrown == null) {
      return Optional.of("TF raised " + type + " but the answer is " + Values.encode(result));
    }
    return expected.isInstance(thrown) ? Optional.empty()
        : Optional.of("TF raised " + type + ", expected " + expected.getSimpleName() + " but got " + thrown);
  }

  /**
   * D12's outcome, computed from the vector's pods: the Running ones in name order (TF's order, and
   * ours for pods created together) at their own IP; never an error for the others.
   */
  private static Optional<String> d12Outcome(Vector.Step step, String job, List<TfPod> pods,
      Map<String, String> properties, Object result, Throwable thrown) {
    List<String> running = pods.stream().filter(p -> p.phase().equals("Running"))
        .sorted(Comparator.comparing(TfPod::name)).map(p -> p.ip() + ":" + properties.get("clusterresolver.kubernetes.port"))
        .toList();
    if (thrown instanceof ClusterResolverException) {
      return Optional.of("D12: a pod that is not running must be left out, not fail the resolve: " + thrown);
    }
    switch (step.op()) {
      case "cluster_spec":
        ClusterSpec.Builder expected = ClusterSpec.builder().addJob(job, running);
        for (String entry : properties.getOrDefault("clusterresolver.kubernetes.jobs", "").split(",")) {
          if (entry.endsWith(":0")) {
            expected.addEmptyJob(entry.substring(0, entry.length() - 2)); // a job without selectors (TF keeps it)
          }
        }
        return thrown != null ? Optional.of("D12: " + thrown)
            : Values.difference(Values.encode(expected.build()), Values.encode(result));
      case "master":
        // The task asked for: master(job, index)'s arguments, else the task-type/task-id properties (TF's order).
        String type = step.hasArgs() && !step.arg(0).isNull() ? step.arg(0).asText()
            : properties.get("clusterresolver.kubernetes.task-type");
        String id = step.args().size() > 1 && !step.arg(1).isNull() ? step.arg(1).asText()
            : properties.get("clusterresolver.kubernetes.task-id");
        Integer index = id == null ? null : Integer.valueOf(id);
        boolean exists = job.equals(type) && index != null && index >= 0 && index < running.size();
        if (!exists) {
          return thrown instanceof IllegalArgumentException && thrown.getMessage().contains(String.valueOf(type))
              ? Optional.empty() : Optional.of("D12: expected no such task " + type + "/" + index + " among the "
              + running.size() + " running pods (IllegalArgumentException naming it), got "
              + (thrown != null ? thrown : result));
        }
        JsonNode rpcArgument = step.kwarg("rpc_layer");
        String layer = rpcArgument.isTextual() && !rpcArgument.asText().isEmpty() ? rpcArgument.asText()
            : properties.getOrDefault("clusterresolver.kubernetes.rpc-layer", "grpc");
        String master = (layer.isEmpty() ? "" : layer + "://") + running.get(index);
        return master.equals(result) ? Optional.empty() : Optional.of("D12: expected " + master + ", got " + result);
      default:
        return Optional.of("D12: no rule for op " + step.op());
    }
  }

  /** D12: every list call names the configured namespace and TF's selector; none lists all namespaces. */
  private static List<String> d12Requests(String selector) {
    List<String> problems = new ArrayList<>();
    for (SimulatedKubernetes.RecordedRequest r : k8s.requests()) {
      if (!r.path().equals("/api/v1/namespaces/" + NAMESPACE + "/pods")) {
        problems.add("D12: listed " + r.path() + " instead of namespace " + NAMESPACE);
      }
      if (!selector.equals(r.query().get("labelSelector"))) {
        problems.add("D12: labelSelector " + r.query().get("labelSelector") + " instead of TF's " + selector);
      }
    }
    return problems;
  }
}
