package io.clusterresolver.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.clusterresolver.testkit.SimulatedTpu;
import io.clusterresolver.testkit.SimulatedTpuNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code tf-vectors/tpu.json}: TensorFlow's TPU resolver against the {@code tpu} provider, each
 * vector's nodes served by a {@link SimulatedTpu} (the Cloud TPU API v2 over REST, through the real
 * {@code google-cloud-tpu} client) and its metadata server answering as the README says (project
 * {@code test-project}, zone {@code projects/123456/zones/us-central1-c}, internal IP {@code 10.128.1.2},
 * no TPU VM attributes).
 *
 * <p>TF talked to the v1 API: a node with {@code ipAddress}/{@code port} (and no
 * {@code networkEndpoints}) is served as the v2 API describes the same node, one network endpoint
 * with that address and port; a node without {@code state} is served without one
 * ({@code STATE_UNSPECIFIED}). kwargs become properties: {@code tpu} -> {@code name} (a list in the
 * property's comma-separated form: one element is that name, none an empty name, several are several
 * nodes), {@code project}, {@code zone}; every vector also gets the simulation's endpoints and
 * {@code credentials=none}. This file carries no {@code expect_java_error}: TF's errors are mapped
 * with the README's table ({@link Rules#javaError}).
 */
class TpuConformanceTest {

  static final String FILE = "tf-vectors/tpu.json";
  static final String PROVIDER = "tpu";
  private static final Pattern NODE = Pattern.compile("projects/([^/]+)/locations/([^/]+)/nodes/([^/]+)");

  static SimulatedTpu tpu;

  @BeforeAll
  static void start() {
    tpu = SimulatedTpu.start("test-project", "us-central1-c");
  }

  @AfterAll
  static void stop() {
    tpu.close();
  }

  @TestFactory
  Stream<DynamicNode> tpu() {
    return VectorRunner.run(FILE, TpuConformanceTest::open);
  }

  static Area.Session open(Vector vector) {
    mapErrors(vector);
    tpu.clear().clearFaults().identifyAs(null, -1);
    tpu.metadataValue("project/project-id", "test-project")
        .metadataValue("instance/zone", "projects/123456/zones/us-central1-c")
        .metadataValue("instance/network-interfaces/0/ip", "10.128.1.2");
    for (Map.Entry<String, JsonNode> e : vector.setup().path("nodes").properties()) {
      Matcher m = NODE.matcher(e.getKey());
      if (!m.matches()) {
        throw new IllegalStateException(vector.id() + ": node name " + e.getKey() + " is not a resource name");
      }
      tpu.put(m.group(1), m.group(2), node(m.group(3), e.getValue()));
    }
    return new Session(vector);
  }

  /** A node of TF's (v1) JSON as the v2 API serves it. */
  static SimulatedTpuNode node(String name, JsonNode json) {
    SimulatedTpuNode.Builder b = SimulatedTpuNode.builder(name).acceleratorType(null).health(null);
    b.state(json.has("state") ? SimulatedTpuNode.State.valueOf(json.get("state").asText())
        : SimulatedTpuNode.State.STATE_UNSPECIFIED);
    if (json.has("health")) {
      b.health(SimulatedTpuNode.Health.valueOf(json.get("health").asText()));
    }
    if (json.has("networkEndpoints")) {
      for (JsonNode e : json.get("networkEndpoints")) {
        b.endpoint(e.get("ipAddress").asText(), e.path("port").asInt(0), null);
      }
    } else if (json.has("ipAddress")) {
      // v1's single address: in v2 it is the node's one network endpoint.
      b.endpoint(json.get("ipAddress").asText(), json.path("port").asInt(0), null);
    }
    return b.build();
  }

  /** The README's error table (the cloud areas carry no expect_java_error): TF's type -> the Java exception. */
  static void mapErrors(Vector vector) {
    for (Vector.Step step : vector.steps()) {
      JsonNode error = step.error();
      if (error == null || step.expectJavaError() != null) {
        continue;
      }
      String type = error.path("type").asText();
      if (Rules.javaError(type) != null) {
        ((ObjectNode) step.json()).put("expect_java_error", Rules.javaError(type));
        continue;
      }
      switch (type) {
        case "ImportError":
          ((ObjectNode) step.json()).put("deviation", "Python import");
          break;
        case "AttributeError":
          if ("rpc_layer".equals(step.op())) {
            // TF's TPU resolver has no rpc_layer attribute; the contract's rpcLayer() is the rpc-layer
            // property, grpc by default (what TF's master() writes): checked as the Java outcome.
            ObjectNode json = (ObjectNode) step.json();
            json.put("deviation", "tpu: TF's TPUClusterResolver has no rpc_layer attribute");
            json.putObject("java").put("value", "grpc");
          }
          break;
        default:
          // unmapped: the runner reports the step as failed
      }
    }
  }

  /**
   * One vector's steps on one {@code tpu} resolver: a {@link ProviderSession} (kwargs as properties,
   * setters recreate the resolver) plus the simulation's endpoints, and this area's own rules for the
   * ops TF's TPU resolver has and the contract does not (or answers differently).
   */
  static final class Session implements Area.Session {
    private final Vector vector;
    private final ProviderSession provider;
    private final Map<String, String> properties = new LinkedHashMap<>();
    private String unsupportedCoordinator;

    Session(Vector vector) {
      this.vector = vector;
      ObjectNode setup = vector.setup().deepCopy();
      // The simulation's endpoints, as kwargs of their own so that ProviderSession sets them first.
      ObjectNode withEndpoints = setup.objectNode();
      withEndpoints.put("endpoint", tpu.endpoint().toString());
      withEndpoints.put("metadata_endpoint", tpu.metadataEndpoint().toString());
      withEndpoints.put("credentials", "none");
      if (setup.path("kwargs").isObject()) {
        withEndpoints.setAll((ObjectNode) setup.get("kwargs"));
      }
      setup.set("kwargs", withEndpoints);
      this.provider = new ProviderSession(PROVIDER, setup, this::set);
    }

    /** One kwarg (or a setter's argument) as a {@code clusterresolver.tpu.*} property. */
    private void set(Map<String, String> target, String kwarg, JsonNode value) {
      switch (kwarg) {
        case "tpu":
          // A list as the property's comma-separated form: [] is "", [a] is a, [a, b] is a,b (several nodes).
          List<String> names = new ArrayList<>();
          Iterable<JsonNode> items = value.isArray() ? value : List.of(value);
          items.forEach(n -> names.add(n.asText()));
          target.put("clusterresolver.tpu.name", String.join(",", names));
          break;
        case "endpoint":
        case "metadata_endpoint":
        case "credentials":
        case "project":
        case "zone":
        case "task_type":
        case "task_id":
          String key = "clusterresolver.tpu." + kwarg.replace('_', '-');
          if (value == null || value.isNull()) {
            target.remove(key);
          } else {
            target.put(key, value.asText());
          }
          break;
        case "coordinator_name":
        case "coordinator_address":
          unsupportedCoordinator = "no tpu property for TF's coordinator_name/coordinator_address (a coordinator job"
              + " added to the cluster); issue 10's properties have none";
          break;
        case "job_name":
          throw new Area.SkipStep("no tpu property for TF's job_name: issue 10's tpu properties fix the job as"
              + " 'worker'");
        default:
          throw new IllegalStateException(vector.id() + ": kwarg " + kwarg + " is not mapped");
      }
      properties.clear();
      properties.putAll(target);
    }

    @Override
    public Object run(Vector.Step step) {
      switch (step.op()) {
        case "cluster_spec":
          if (unsupportedCoordinator != null) {
            throw new Area.SkipStep(unsupportedCoordinator);
          }
          return provider.run(step);
        case "master":
          String type = properties.get("clusterresolver.tpu.task-type");
          if (type != null && !type.equals("worker") && !step.hasArgs()) {
            throw new Area.SkipStep("task-type names no job of the node ('" + type + "'): Java's master() says so"
                + " (IllegalArgumentException naming the job), TF falls back to worker 0");
          }
          return provider.run(step);
        case "task_id":
          try {
            return provider.run(step);
          } catch (RuntimeException e) {
            if (!vector.setup().path("kwargs").has("tpu") || nodeIsReady()) {
              throw e;
            }
            throw new Area.SkipStep("the node is not READY or does not exist: Java's taskId() identifies this process"
                + " among the node's workers and reports that failure; TF answers 0 without asking the API");
          }
        case "environment":
          throw new Area.SkipStep("issue 10: environment() is 'google' (TF's TPU resolver says \"\" outside Google)");
        case "get_job_name":
        case "get_coordination_service_leader":
        case "api_available":
        case "tpu_name":
          throw new Area.SkipStep("TF-internal TPU resolver attribute " + step.op() + ": no contract counterpart");
        case "parse_devices":
          throw new Area.SkipStep("TF-internal device-name parsing (_get_device_dict_and_cores): no contract"
              + " counterpart");
        default:
          // construct, setters, task_type, rpc_layer, num_accelerators (logical_devices: skipped there)
          return provider.run(step);
      }
    }

    private boolean nodeIsReady() {
      for (JsonNode node : vector.setup().path("nodes")) {
        if ("READY".equals(node.path("state").asText())) {
          return true;
        }
      }
      return false;
    }

    /**
     * TF's TPU resolver ignores master()'s rpc_layer argument (always grpc://); the contract's
     * {@code master(type, id, rpcLayer)} uses it: the same address with the given scheme.
     */
    @Override
    public JsonNode javaExpectation(Vector.Step step, JsonNode tfValue) {
      JsonNode rpcLayer = step.kwarg("rpc_layer");
      if ("master".equals(step.op()) && rpcLayer.isTextual() && tfValue.isTextual()
          && tfValue.asText().startsWith("grpc://")) {
        return TextNode.valueOf(rpcLayer.asText() + "://" + tfValue.asText().substring("grpc://".length()));
      }
      return tfValue;
    }
  }
}
