package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.testkit.SimulatedGce;
import io.clusterresolver.testkit.SimulatedGceInstance;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;

/**
 * {@code tf-vectors/gce.json}: TensorFlow's {@code GCEClusterResolver} (instance-group mode) against
 * the {@code gce} provider. Each vector's data is served by a simulated Compute Engine
 * ({@link SimulatedGce}): the group's member URLs in its pages (as many items per page as the
 * vector's pages hold), and each instance with its network interfaces' {@code networkIP}s (an
 * instance whose {@code instances.get} failed in TF's fake does not exist). The provider is created
 * with TF's constructor arguments as properties — {@code task_type} (TF's one job name, default
 * {@code worker}) as {@code jobs=TYPE:*} and {@code task-type}, {@code task_id} (default 0),
 * {@code rpc_layer} ({@code None} = no scheme), {@code port}, {@code project}, {@code zone} as
 * {@code zones}, {@code instance_group} — and {@code order=address}, TF's order of the members
 * (sorted addresses). Answers and errors are compared, not calls: D11 (one listing per page, where
 * TF makes one {@code instances.get} per member).
 */
class GceConformanceTest {

  static final String FILE = "tf-vectors/gce.json";
  static final String PROVIDER = "gce";

  private static SimulatedGce gce;
  /** The simulated projects of union members (one each: two members may name the same group). */
  private static final List<SimulatedGce> MEMBERS = new ArrayList<>();

  @TestFactory
  Stream<DynamicNode> gce() {
    return VectorRunner.run(FILE, GceConformanceTest::open);
  }

  /**
   * The union vectors with gce members are tagged D1 and D5 (so the runner skips them): checked here
   * against those rules instead — every {@code cluster_spec} holds TF's jobs and tasks by content,
   * {@code jobs()} is sorted (D1), and each gce member listed its group once (D5: TF lists twice).
   */
  @TestFactory
  Stream<DynamicNode> unionGceMembersRules() {
    String file = UnionConformanceTest.FILE;
    String name = file + " (gce members, D1/D5 own checks)";
    Tally tally = Tally.of(name);
    if (ConformanceData.file(file).isEmpty()) {
      return Stream.empty();
    }
    List<DynamicNode> tests = new ArrayList<>();
    for (JsonNode node : ConformanceData.readJson(file).path("vectors")) {
      Vector vector = new Vector(node);
      if (!node.path("setup").path("resolvers").toString().contains("\"kind\":\"gce\"")) {
        continue;
      }
      tests.add(DynamicTest.dynamicTest("rules " + vector.id(), () -> {
        try {
          checkUnion(vector);
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

  private static void checkUnion(Vector vector) {
    int before = MEMBERS.size();
    ClusterResolver union = UnionConformanceTest.build(vector.setup(), Map.of());
    List<SimulatedGce> members = List.copyOf(MEMBERS.subList(before, MEMBERS.size()));
    for (Vector.Step step : vector.steps()) {
      if (!"cluster_spec".equals(step.op()) || !step.hasValue()) {
        continue;
      }
      members.forEach(SimulatedGce::resetCounts);
      ClusterSpec spec = union.clusterSpec();
      JsonNode tf = step.value();
      Optional<String> difference = Values.difference(tf.get("as_dict"), Values.encode(spec).get("as_dict"));
      if (difference.isPresent()) {
        throw new AssertionFailedError("tasks differ from TF's: " + difference.get());
      }
      List<String> sorted = new ArrayList<>(spec.jobs());
      sorted.sort(Comparator.naturalOrder());
      if (!spec.jobs().equals(sorted)) {
        throw new AssertionFailedError("D1: jobs() " + spec.jobs() + " is not sorted");
      }
      for (SimulatedGce member : members) {
        if (member.callCount("instanceGroups.listInstances") != 1) {
          throw new AssertionFailedError("D5: a gce member listed its group "
              + member.callCount("instanceGroups.listInstances") + " times for one clusterSpec()");
        }
      }
    }
  }

  @AfterAll
  static void stop() {
    if (gce != null) {
      gce.close();
      gce = null;
    }
    closeMembers();
  }

  /**
   * A {@code gce} member of a union vector ({@code {"kind": "gce", "pages", "instances", "kwargs"}}):
   * the gce provider against its own simulated project serving that member's data.
   */
  static synchronized ClusterResolver member(JsonNode member) {
    SimulatedGce own = SimulatedGce.start(member.path("kwargs").path("project").asText("test-project"));
    MEMBERS.add(own);
    serve(own, member);
    return ClusterResolvers.create(PROVIDER, ProviderSession.properties(member.path("kwargs"),
        (properties, kwarg, value) -> setProperty(own, properties, kwarg, value)), Map.of());
  }

  /** Stops the simulations of union members. */
  static synchronized void closeMembers() {
    MEMBERS.forEach(SimulatedGce::close);
    MEMBERS.clear();
  }

  static Area.Session open(Vector vector) {
    JsonNode setup = vector.setup();
    String unsupported = unsupported(setup);
    ProviderSession provider = new ProviderSession(PROVIDER, setup,
        (properties, kwarg, value) -> setProperty(simulation(null), properties, kwarg, value));
    return new Area.Session() {
      private boolean served;

      @Override
      public String unsupported() {
        return unsupported;
      }

      /** The data README's error table (gce.json carries no expect_java_error). */
      @Override
      public String expectJavaError(Vector.Step step) {
        String mapped = Rules.javaError(step.error().path("type").asText());
        return mapped != null ? mapped : step.expectJavaError();
      }

      @Override
      public Object run(Vector.Step step) {
        if (step.error() != null && "KeyError".equals(step.error().path("type").asText())
            && "items".equals(step.error().path("message").asText())) {
          throw new Area.SkipStep("TF raises KeyError('items') on a group page without items, which is how Compute"
              + " Engine answers for an empty group; the gce provider resolves an empty job (GceProviderTest"
              + " anEmptyGroupIsAnEmptyJob)");
        }
        if ("set_task_type".equals(step.op())) {
          throw new Area.SkipStep("the contract has no setters: a gce resolver's task type is fixed when it is"
              + " created, which TF's RuntimeError on set_task_type enforces");
        }
        if (!served) {
          serve(simulation(setup.path("kwargs").path("project").asText("test-project")), setup);
          served = true;
        }
        return provider.run(step);
      }
    };
  }

  /** Why a whole vector cannot be checked against TF's answer, or {@code null}. */
  private static String unsupported(JsonNode setup) {
    List<String> addresses = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = setup.path("instances").fields(); it.hasNext(); ) {
      JsonNode ips = it.next().getValue();
      if (ips.isArray() && ips.size() > 0) {
        addresses.add(ips.get(0).asText());
      }
    }
    List<String> asText = new ArrayList<>(addresses);
    asText.sort(Comparator.naturalOrder());
    List<String> numeric = new ArrayList<>(addresses);
    numeric.sort(Comparator.comparing(GceConformanceTest::numeric));
    if (!asText.equals(numeric)) {
      return "TF sorts member addresses as strings (" + String.join(", ", asText) + "); order=address compares"
          + " them numerically (" + String.join(", ", numeric) + "), checked by GceProviderTest"
          + " orderByAddressIsNumeric";
    }
    return null;
  }

  private static BigInteger numeric(String ip) {
    try {
      return new BigInteger(1, InetAddress.getByName(ip).getAddress());
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException(ip, e);
    }
  }

  /** TF's constructor arguments as gce properties. */
  static void setProperty(SimulatedGce sim, Map<String, String> properties, String kwarg, JsonNode value) {
    String prefix = "clusterresolver.gce.";
    if (properties.isEmpty()) {
      // TF's constructor defaults, and the simulation this runner serves the vector from.
      properties.put(prefix + "task-type", "worker");
      properties.put(prefix + "jobs", "worker:*");
      properties.put(prefix + "task-id", "0");
      properties.put(prefix + "order", "address");
      properties.put(prefix + "credentials", "none");
      properties.put(prefix + "endpoint", sim.endpoint().toString());
      properties.put(prefix + "metadata-endpoint", sim.metadataEndpoint().toString());
    }
    switch (kwarg) {
      case "task_type":
        if (value.isNull() || value.asText().isEmpty()) {
          throw new Area.SkipStep("an empty job name has no Java form (a ClusterSpec job name is never empty)");
        }
        properties.put(prefix + "task-type", value.asText());
        properties.put(prefix + "jobs", value.asText() + ":*");
        break;
      case "task_id":
        if (!value.isNull() && !value.isIntegralNumber()) {
          throw new Area.SkipStep("D3: task id " + value + " is not an integer");
        }
        properties.put(prefix + "task-id", value.asText());
        break;
      case "rpc_layer":
        properties.put(prefix + "rpc-layer", value.isNull() ? "" : value.asText());
        break;
      case "zone":
        properties.put(prefix + "zones", value.asText());
        break;
      case "instance_group":
        properties.put(prefix + "instance-group", value.asText());
        break;
      case "credentials":
        if (!value.isNull()) {
          throw new Area.SkipStep("D3: credentials " + value + " is a Python credentials object");
        }
        break;
      default:
        if (!value.isValueNode()) {
          throw new Area.SkipStep("D3: kwarg " + kwarg + "=" + value + " has no property form");
        }
        properties.put(prefix + kwarg.replace('_', '-'), value.asText());
    }
  }

  /** The simulated project, started on first use (again when a vector names another project). */
  private static synchronized SimulatedGce simulation(String project) {
    if (gce == null || (project != null && !project.equals(gce.project()))) {
      if (gce != null) {
        gce.close();
      }
      gce = SimulatedGce.start(project != null ? project : "test-project");
    }
    return gce;
  }

  /** Serves a vector's (or a union member's) group pages and instances. */
  static void serve(SimulatedGce sim, JsonNode setup) {
    JsonNode kwargs = setup.path("kwargs");
    String zone = kwargs.path("zone").asText();
    sim.clear().clearFaults().zone(zone);
    List<String> members = new ArrayList<>();
    int firstPage = 0;
    for (JsonNode page : setup.path("pages")) {
      int items = 0;
      for (JsonNode item : page.path("items")) {
        String url = item.path("instance").asText();
        members.add(url.substring(url.lastIndexOf('/') + 1));
        items++;
      }
      firstPage = firstPage == 0 ? items : firstPage;
    }
    sim.pageCap(setup.path("pages").size() > 1 && firstPage > 0 ? firstPage : SimulatedGce.MAX_RESULTS);
    sim.defineInstanceGroup(zone, kwargs.path("instance_group").asText(), members);
    long id = 1000;
    for (Iterator<Map.Entry<String, JsonNode>> it = setup.path("instances").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> instance = it.next();
      JsonNode ips = instance.getValue();
      if (!ips.isArray() || ips.size() == 0) {
        continue; // TF's fake failed instances.get for it: the instance does not exist
      }
      SimulatedGceInstance.Builder b = SimulatedGceInstance.builder(instance.getKey(), id++).zone(zone)
          .networkIp(ips.get(0).asText());
      for (int n = 1; n < ips.size(); n++) {
        b.otherNic(ips.get(n).asText());
      }
      sim.add(b.build());
    }
  }
}
