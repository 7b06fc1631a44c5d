package io.clusterresolver.tpu;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.HostileEndpointContract;
import io.clusterresolver.testkit.SimulatedTpu;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The tpu provider against an endpoint that is not the Cloud TPU API (issue 20, attacks 4 and 7). */
class TpuHostileEndpointTest extends HostileEndpointContract {

  SimulatedTpu tpu;

  TpuHostileEndpointTest() {
    super("clusterresolver.tpu", "nodes.get");
  }

  @BeforeEach
  void start() {
    tpu = SimulatedTpu.start();
  }

  @AfterEach
  void stop() {
    tpu.close();
  }

  @Override
  protected ClusterResolverException resolveAgainst(URI endpoint, Map<String, String> properties) {
    List<String> keyValues = new ArrayList<>(List.of("endpoint", endpoint.toString()));
    properties.forEach((k, v) -> keyValues.addAll(List.of(k, v)));
    return catchThrowableOfType(() -> TpuTestSupport.resolver(tpu, "n", keyValues.toArray(String[]::new)).resolve(),
        ClusterResolverException.class);
  }

  @Override
  protected String trickledAnswer() {
    return "{\"name\": \"projects/p/locations/z/nodes/n\", \"state\": \"READY\"" + " ".repeat(40) + "}";
  }

  /** The whole answer takes 50 s; 2 s plus a cold JVM's first client on a loaded machine is far below. */
  @Override
  protected Duration trickleBound() {
    return Duration.ofSeconds(12);
  }

  @Override
  protected List<String> trickleErrorNames() {
    return List.of("nodes.get", "2000 ms");
  }

  /** A node is one small answer: the provider's size limit is the kit's, checked by the other providers. */
  @Override
  protected String[] endlessAnswer() {
    return null;
  }

  @Override
  protected HostileEndpoint notTheApi() {
    return HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"), "{}");
  }

  @Override
  protected List<String> notTheApiErrorNames() {
    return List.of("not a Cloud TPU API answer", "clusterresolver.tpu.endpoint");
  }

  /** An empty node is not a node that is not ready yet. */
  @Override
  protected List<String> notTheApiErrorNeverSays() {
    return List.of("STATE_UNSPECIFIED");
  }
}
