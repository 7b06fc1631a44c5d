package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.ClusterResolvers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;

/**
 * The Slurm areas ({@code slurm.json}, {@code slurm-real.json}): how their setups map to the
 * {@code slurm} provider, and the own checks of the deviations D7-D10, whose steps the
 * {@link VectorRunner} skips because TensorFlow's outcome does not apply.
 *
 * <p>The own checks compute the expected cluster independently of the provider — node list and
 * tasks per node as Slurm gives them, ranks placed by {@code SLURM_DISTRIBUTION}, jobs in name
 * order — and check the rules: D7 the cluster is that placement (and a process finds itself at
 * {@code SLURMD_NODENAME:port-base+SLURM_LOCALID} when Slurm says so); D8 CPU-only allocations work
 * and a task's accelerators and GPU ids are those {@link #expectedGpus} derives from the
 * environment and properties alone (never from the resolver's own answer); D9 {@code master()} and the task are known before
 * {@code clusterSpec()}; D10 outside a step the job-level variables give the cluster.
 */
final class SlurmRules {

  static final String PROVIDER = "slurm";
  private static final int DEFAULT_PORT_BASE = 8888;

  private SlurmRules() {}

  /** {@code setup.env} as a mutable map. */
  static Map<String, String> environment(JsonNode setup) {
    return ProviderSession.environment(setup.path("env"));
  }

  /** kwargs as {@code clusterresolver.slurm.*} properties (conformance/README.md). */
  static Map<String, String> properties(JsonNode kwargs) {
    return ProviderSession.properties(kwargs, SlurmRules::set);
  }

  /** One kwarg (or setter) as a property; Slurm's {@code rpc_layer=None} means "no scheme". */
  static void set(Map<String, String> properties, String kwarg, JsonNode value) {
    String key = "clusterresolver." + PROVIDER + "." + kwarg.replace('_', '-');
    if (value == null || value.isNull()) {
      if (kwarg.equals("rpc_layer")) {
        properties.put(key, "");
      } else {
        properties.remove(key);
      }
    } else if (value.isObject()) { // jobs {"ps": 1, "worker": 3}, tasks_per_node {"hostB": 1}
      List<String> pairs = new ArrayList<>();
      value.fields().forEachRemaining(f -> pairs.add(f.getKey() + ":" + f.getValue().asText()));
      properties.put(key, String.join(",", pairs));
    } else if (value.isValueNode()) {
      if (kwarg.equals("task_id") && !value.isIntegralNumber()) {
        throw new Area.SkipStep("D3: task id " + value + " is not an integer");
      }
      properties.put(key, value.asText());
    } else {
      throw new Area.SkipStep("D3: kwarg " + kwarg + "=" + value + " has no property form");
    }
  }

  /**
   * A configuration one of our rules rejects where TF runs on (docs/tf-compatibility.md, "Ports" and
   * "Exit codes of Slurm mistakes"), read from the setup alone: the rule, the exception creating the
   * resolver throws and the fact its message names. {@code null} when none applies.
   */
  static String[] rejection(Map<String, String> env, Map<String, String> properties) {
    String portBase = properties.get("clusterresolver.slurm.port-base");
    if (portBase != null && (Long.parseLong(portBase) < 1 || Long.parseLong(portBase) > 65535)) {
      return new String[] {"Ports", "ConfigurationException", "clusterresolver.slurm.port-base"};
    }
    boolean inStep = env.containsKey("SLURM_STEP_NODELIST") || env.containsKey("SLURM_STEP_ID");
    String nodeVar = inStep ? "SLURM_STEP_NODELIST" : "SLURM_JOB_NODELIST";
    String tasksVar = inStep ? "SLURM_STEP_TASKS_PER_NODE" : "SLURM_TASKS_PER_NODE";
    if (properties.containsKey("clusterresolver.slurm.tasks-per-node") || !env.containsKey(nodeVar)
        || !env.containsKey(tasksVar) || env.containsKey("SLURM_HET_SIZE")) {
      return null;
    }
    if (REPEAT_ZERO.matcher(env.get(tasksVar)).find()) {
      return new String[] {"Repeat 0", "ConfigurationException", tasksVar};
    }
    List<String> hosts;
    List<Integer> counts;
    try {
      hosts = SlurmText.hosts(env.get(nodeVar));
      counts = SlurmText.counts(env.get(tasksVar));
    } catch (IllegalArgumentException notSlurmsForm) {
      return null; // TF's own error vectors (malformed lists): TF's outcome applies
    }
    if (hosts.size() != counts.size()) {
      return new String[] {"Slurm lists", "ClusterResolverException", tasksVar};
    }
    int total = counts.stream().mapToInt(Integer::intValue).sum();
    String numTasks = env.get(inStep ? "SLURM_STEP_NUM_TASKS" : "SLURM_NTASKS");
    String procId = env.get("SLURM_PROCID");
    boolean consistent = numTasks == null || numTasks.equals(Integer.toString(total)); // else TF's own error
    if (consistent && procId != null && procId.matches("-?[0-9]{1,9}") && (Integer.parseInt(procId) < 0
        || Integer.parseInt(procId) >= total)) {
      return new String[] {"Slurm rank", "ClusterResolverException", "SLURM_PROCID"};
    }
    return null;
  }

  /** A tasks-per-node item repeated zero times, like {@code 4(x0)}. */
  static final Pattern REPEAT_ZERO = Pattern.compile("\\(x0+\\)");

  /** A session running a vector's steps on the provider, recreated when a setter changes a property. */
  static Area.Session session(Vector vector) {
    JsonNode setup = vector.setup();
    String[] rejection = rejection(environment(setup), propertiesOrEmpty(setup.path("kwargs")));
    if (rejection != null) {
      // Every step needs the resolver, whose creation fails; only the environment's setters do not.
      for (Vector.Step step : vector.steps()) {
        if (!step.op().equals("set_env") && !step.op().equals("unset_env")) {
          Rules.expectError(step, rejection[0], rejection[1], rejection[2]);
        }
      }
    }
    return new ProviderSession(PROVIDER, setup, SlurmRules::set) {
      @Override
      public String unsupported() {
        return setup.has("nvidia_smi")
            ? "D8: the slurm provider runs no nvidia-smi (GPU ids come from CUDA_VISIBLE_DEVICES or"
                + " gpus-per-node; without them a task is CPU-only), checked by the D7-D10 own checks"
            : null;
      }
    };
  }

  /** The kwargs as properties, or none when one has no property form (its steps are skipped for that). */
  private static Map<String, String> propertiesOrEmpty(JsonNode kwargs) {
    try {
      return properties(kwargs);
    } catch (Area.SkipStep e) {
      return Map.of();
    }
  }

  /** The deviations whose own checks this class has. */
  private static boolean slurmDeviation(String deviation) {
    if (deviation == null) {
      return false;
    }
    for (String rule : deviation.split(",")) {
      if (List.of("D7", "D8", "D9", "D10").contains(rule.trim())) {
        return true;
      }
    }
    return false;
  }

  /** One dynamic test per vector that has a D7-D10 deviation (or cannot run), counted in its own tally. */
  static Stream<DynamicNode> ownChecks(String file) {
    String name = file + " (D7-D10 own checks)";
    Tally tally = Tally.of(name);
    if (ConformanceData.file(file).isEmpty()) {
      return Stream.empty();
    }
    List<DynamicNode> tests = new ArrayList<>();
    for (JsonNode node : ConformanceData.readJson(file).path("vectors")) {
      Vector vector = new Vector(node);
      boolean deviates = slurmDeviation(vector.deviation()) || vector.setup().has("nvidia_smi")
          || vector.steps().stream().anyMatch(s -> slurmDeviation(s.deviation()) && s.java() == null);
      if (!deviates) {
        continue;
      }
      tests.add(DynamicTest.dynamicTest("rules " + vector.id(), () -> {
        try {
          check(vector);
          tally.passed();
        } catch (AssertionError | RuntimeException e) {
          tally.failed(vector.id(), String.valueOf(e.getMessage()));
          throw e;
        }
      }));
    }
    tests.add(DynamicTest.dynamicTest(name + " tally", tally::print));
    return tests.stream();
  }

  /** Checks one vector against D7-D10, from its setup alone. */
  static void check(Vector vector) {
    JsonNode setup = vector.setup();
    Map<String, String> env = environment(setup);
    Map<String, String> properties;
    try {
      properties = properties(setup.path("kwargs"));
    } catch (Area.SkipStep e) {
      throw new AssertionFailedError("no property form for the kwargs: " + e.getMessage());
    }
    String[] rejection = rejection(env, properties);
    if (rejection != null) {
      // A rule of ours rejects the configuration: creating the resolver (or its first answer) fails.
      try {
        ClusterResolvers.create(PROVIDER, properties, env).resolve();
      } catch (RuntimeException e) {
        same(rejection[0] + ": " + e + " is a " + rejection[1], true, isA(e, rejection[1]));
        same(rejection[0] + ": the message names " + rejection[2], true, String.valueOf(e.getMessage()).contains(rejection[2]));
        return;
      }
      throw new AssertionFailedError(rejection[0] + ": expected a " + rejection[1] + " naming " + rejection[2]);
    }
    Layout expected = Layout.of(env, properties);
    if (expected.problem != null) {
      // D7: a layout Slurm cannot produce (a node named twice) is an error, never a wrong cluster.
      expect(expected.problem, () -> ClusterResolvers.create(PROVIDER, properties, env));
      return;
    }
    if (expected.highestPort() > 65535) {
      // Ports: a rank that would listen past 65535 is a configuration error, never an address.
      try {
        ClusterResolvers.create(PROVIDER, properties, env).resolve();
      } catch (ConfigurationException e) {
        same("the port named in the error", true, e.getMessage().contains(Integer.toString(expected.highestPort()))
            || e.getMessage().contains("port"));
        return;
      }
      throw new AssertionFailedError("expected a ConfigurationException for port " + expected.highestPort());
    }
    if (expected.procId >= 0 && expected.procId < expected.placement.size()) {
      Gpus gpus = expectedGpus(env, properties, expected);
      if (gpus.tooMany != null) {
        // K8: more GPUs per task than a node has is a ClusterResolverException.
        expect(gpus.tooMany, () -> ClusterResolvers.create(PROVIDER, properties, env).resolve());
        return;
      }
    }
    ClusterResolver resolver = ClusterResolvers.create(PROVIDER, properties, env); // D8: CPU-only works
    String rpc = properties.getOrDefault("clusterresolver.slurm.rpc-layer", "grpc");
    Optional<Map.Entry<String, Integer>> own = expected.ownTask();
    // D9: known before clusterSpec() was ever called.
    if (own.isPresent() && !properties.containsKey("clusterresolver.slurm.task-type")
        && !properties.containsKey("clusterresolver.slurm.task-id")) {
      String address = expected.address(expected.procId);
      same("master() before clusterSpec()", rpc.isEmpty() ? address : rpc + "://" + address, resolver.master());
      same("taskType()", Optional.of(own.get().getKey()), resolver.taskType());
      same("taskId()", OptionalInt.of(own.get().getValue()), resolver.taskId());
      // D7/D10: where Slurm says this process runs.
      if (env.containsKey("SLURMD_NODENAME") && env.containsKey("SLURM_LOCALID")
          && !properties.containsKey("clusterresolver.slurm.tasks-per-node")) {
        same("own address from SLURMD_NODENAME and SLURM_LOCALID",
            env.get("SLURMD_NODENAME") + ":" + (expected.portBase + Integer.parseInt(env.get("SLURM_LOCALID"))),
            address);
      }
    }
    // D7: the whole cluster is Slurm's placement.
    same("clusterSpec()", expected.asMap(), resolver.clusterSpec().asMap());
    // D8: the ids actually visible.
    checkDevices(env, properties, expected, resolver);
  }

  /**
   * D8 from the environment and the properties alone: the ids a task sees (CUDA_VISIBLE_DEVICES, or
   * 0..gpus-per-node-1 when unset); when Slurm bound GPUs per task (a step with SLURM_GPUS_PER_TASK,
   * or fewer ids visible than SLURM_GPUS_ON_NODE) they are all the task's; otherwise each task gets
   * gpus-per-task, else gpus-per-node over the most tasks on a node, else its node's visible ids over
   * its node's tasks, and its slice starts at its local id times that count.
   */
  static Gpus expectedGpus(Map<String, String> env, Map<String, String> properties, Layout layout) {
    String cvd = env.get("CUDA_VISIBLE_DEVICES");
    String perNodeProperty = properties.get("clusterresolver.slurm.gpus-per-node");
    String perTaskProperty = properties.get("clusterresolver.slurm.gpus-per-task");
    List<String> visible = new ArrayList<>();
    if (cvd != null) {
      visible.addAll(SlurmText.cudaIds(cvd));
    } else if (perNodeProperty != null) {
      for (int i = 0; i < Integer.parseInt(perNodeProperty); i++) {
        visible.add(Integer.toString(i));
      }
    }
    boolean inStep = env.containsKey("SLURM_STEP_NODELIST") || env.containsKey("SLURM_STEP_ID");
    boolean bound = inStep && cvd != null && (env.containsKey("SLURM_GPUS_PER_TASK")
        || Integer.parseInt(env.getOrDefault("SLURM_GPUS_ON_NODE", "0").trim()) > visible.size());
    int nodeGpus = perNodeProperty != null ? Integer.parseInt(perNodeProperty) : visible.size();
    int nodeTasks = perNodeProperty != null ? layout.maxTasksOnANode() : layout.tasksOnOwnNode();
    int perTask;
    if (perTaskProperty != null) {
      perTask = Integer.parseInt(perTaskProperty);
      if (!bound && (long) perTask * nodeTasks > nodeGpus) {
        return Gpus.tooMany(perTask + " GPUs per task for " + nodeTasks + " tasks on a node with " + nodeGpus);
      }
    } else if (bound) {
      perTask = visible.size();
    } else {
      perTask = nodeTasks == 0 ? 0 : nodeGpus / nodeTasks;
    }
    List<String> devices = visible;
    if (!bound) {
      int from = Math.min(visible.size(), layout.localId() * perTask);
      devices = visible.subList(from, Math.min(visible.size(), from + perTask));
    }
    return new Gpus(perTask > 0 ? Map.of("GPU", perTask) : Map.of(), List.copyOf(devices), null);
  }

  /** A task's expected accelerators and GPU ids, or why the configuration asks for too many. */
  static final class Gpus {
    final Map<String, Integer> accelerators;
    final List<String> devices;
    final String tooMany;

    Gpus(Map<String, Integer> accelerators, List<String> devices, String tooMany) {
      this.accelerators = accelerators;
      this.devices = devices;
      this.tooMany = tooMany;
    }

    static Gpus tooMany(String why) {
      return new Gpus(null, null, why);
    }
  }

  private static void checkDevices(Map<String, String> env, Map<String, String> properties, Layout layout,
      ClusterResolver resolver) {
    if (layout.procId < 0) {
      return;
    }
    Gpus expected = expectedGpus(env, properties, layout);
    same("numAccelerators()", expected.accelerators, resolver.numAccelerators());
    if ("true".equals(properties.getOrDefault("clusterresolver.slurm.auto-set-gpu", "true"))) {
      same("visibleDevices()", Optional.of(expected.devices), resolver.visibleDevices());
    } else {
      same("visibleDevices() with auto-set-gpu=false", Optional.empty(), resolver.visibleDevices());
    }
  }

  /** Whether the exception's class or one of its superclasses has this simple name. */
  private static boolean isA(Throwable e, String simpleName) {
    for (Class<?> c = e.getClass(); c != null; c = c.getSuperclass()) {
      if (c.getSimpleName().equals(simpleName)) {
        return true;
      }
    }
    return false;
  }

  private static void expect(String what, Runnable action) {
    try {
      action.run();
    } catch (ClusterResolverException e) {
      return;
    }
    throw new AssertionFailedError("expected a ClusterResolverException: " + what);
  }

  private static void same(String what, Object expected, Object actual) {
    if (!expected.equals(actual)) {
      throw new AssertionFailedError(what + ": expected " + expected + " but was " + actual, expected, actual);
    }
  }

  /** The cluster computed independently from the environment, as Slurm placed the ranks. */
  static final class Layout {
    final List<String> hosts = new ArrayList<>();
    final List<Integer> counts = new ArrayList<>();
    final List<int[]> placement = new ArrayList<>(); // rank -> {node index, local id}
    final Map<String, Integer> jobs = new TreeMap<>();
    final int procId;
    final int portBase;
    String problem;

    private Layout(int procId, int portBase) {
      this.procId = procId;
      this.portBase = portBase;
    }

    static Layout of(Map<String, String> env, Map<String, String> properties) {
      Layout layout = new Layout(Integer.parseInt(env.getOrDefault("SLURM_PROCID", "-1")),
          Integer.parseInt(properties.getOrDefault("clusterresolver.slurm.port-base", "" + DEFAULT_PORT_BASE)));
      boolean inStep = env.containsKey("SLURM_STEP_NODELIST") || env.containsKey("SLURM_STEP_ID");
      String perNode = properties.get("clusterresolver.slurm.tasks-per-node");
      if (perNode != null && perNode.contains(":")) {
        for (String pair : perNode.split(",")) {
          layout.hosts.add(pair.substring(0, pair.lastIndexOf(':')));
          layout.counts.add(Integer.parseInt(pair.substring(pair.lastIndexOf(':') + 1)));
        }
      } else if (!inStep && env.containsKey("SLURM_HET_SIZE")) {
        for (int g = 0; g < Integer.parseInt(env.get("SLURM_HET_SIZE")); g++) {
          layout.hosts.addAll(SlurmText.hosts(env.get("SLURM_JOB_NODELIST_HET_GROUP_" + g)));
          layout.counts.addAll(SlurmText.counts(env.get("SLURM_TASKS_PER_NODE_HET_GROUP_" + g)));
        }
      } else {
        layout.hosts.addAll(SlurmText.hosts(env.get(inStep ? "SLURM_STEP_NODELIST" : "SLURM_JOB_NODELIST")));
        if (perNode != null) {
          layout.hosts.forEach(h -> layout.counts.add(Integer.parseInt(perNode)));
        } else {
          layout.counts.addAll(SlurmText.counts(env.get(inStep ? "SLURM_STEP_TASKS_PER_NODE" : "SLURM_TASKS_PER_NODE")));
        }
      }
      if (layout.hosts.stream().distinct().count() != layout.hosts.size()) {
        layout.problem = "a node named twice in the node list " + layout.hosts;
        return layout;
      }
      String distribution = inStep ? env.getOrDefault("SLURM_DISTRIBUTION", "block") : "block";
      int chunk = distribution.startsWith("cyclic") ? 1
          : distribution.startsWith("plane") ? Integer.parseInt(env.get("SLURM_DIST_PLANESIZE")) : Integer.MAX_VALUE;
      int total = layout.counts.stream().mapToInt(Integer::intValue).sum();
      int[] placed = new int[layout.hosts.size()];
      while (layout.placement.size() < total) {
        for (int node = 0; node < layout.hosts.size(); node++) {
          for (int k = 0; k < chunk && placed[node] < layout.counts.get(node); k++) {
            layout.placement.add(new int[] {node, placed[node]++});
          }
        }
      }
      String jobs = properties.get("clusterresolver.slurm.jobs");
      if (jobs == null) {
        layout.jobs.put("worker", total);
      } else {
        int explicit = 0;
        for (String pair : jobs.split(",")) {
          String count = pair.substring(pair.lastIndexOf(':') + 1);
          if (!count.equals("*")) {
            explicit += Integer.parseInt(count);
          }
        }
        for (String pair : jobs.split(",")) {
          String count = pair.substring(pair.lastIndexOf(':') + 1);
          layout.jobs.put(pair.substring(0, pair.lastIndexOf(':')),
              count.equals("*") ? total - explicit : Integer.parseInt(count));
        }
      }
      return layout;
    }

    String address(int rank) {
      int[] p = placement.get(rank);
      return hosts.get(p[0]) + ":" + (portBase + p[1]);
    }

    int highestPort() {
      int highest = 0;
      for (int[] p : placement) {
        highest = Math.max(highest, portBase + p[1]);
      }
      return highest;
    }

    int localId() {
      return placement.get(procId)[1];
    }

    int tasksOnOwnNode() {
      return counts.get(placement.get(procId)[0]);
    }

    int maxTasksOnANode() {
      return counts.stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /** Job and index of {@code SLURM_PROCID}: jobs take consecutive ranks in name order. */
    Optional<Map.Entry<String, Integer>> ownTask() {
      int first = 0;
      for (Map.Entry<String, Integer> job : jobs.entrySet()) {
        if (procId >= first && procId < first + job.getValue()) {
          return Optional.of(Map.entry(job.getKey(), procId - first));
        }
        first += job.getValue();
      }
      return Optional.empty();
    }

    Map<String, Object> asMap() {
      Map<String, Object> map = new TreeMap<>();
      int rank = 0;
      for (Map.Entry<String, Integer> job : jobs.entrySet()) {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < job.getValue(); i++) {
          addresses.add(address(rank++));
        }
        map.put(job.getKey(), addresses.isEmpty() ? Map.of() : addresses);
      }
      return map;
    }
  }
}
