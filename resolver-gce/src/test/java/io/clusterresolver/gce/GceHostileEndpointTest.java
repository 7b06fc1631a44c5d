package io.clusterresolver.gce;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.HostileEndpointContract;
import io.clusterresolver.testkit.SimulatedGce;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The gce provider against an endpoint that is not Compute Engine (issue 20, attacks 4 and 7). The
 * metadata server is the simulation's; the API endpoint is the hostile one.
 */
class GceHostileEndpointTest extends HostileEndpointContract {

  SimulatedGce gce;

  GceHostileEndpointTest() {
    super("clusterresolver.gce", "instances.aggregatedList");
  }

  @BeforeEach
  void start() {
    gce = SimulatedGce.start();
  }

  @AfterEach
  void stop() {
    gce.close();
  }

  @Override
  protected ClusterResolverException resolveAgainst(URI endpoint, Map<String, String> properties) {
    Map<String, String> p = new LinkedHashMap<>(gce.providerProperties());
    p.put("clusterresolver.gce.endpoint", endpoint.toString());
    properties.forEach((k, v) -> p.put("clusterresolver.gce." + k, v));
    return catchThrowableOfType(() -> ClusterResolvers.create("gce", p, Map.of()).resolve(),
        ClusterResolverException.class);
  }

  @Override
  protected String endpointAsNamed(URI endpoint) {
    return endpoint.toString();
  }

  @Override
  protected String trickledAnswer() {
    return "{\"kind\": \"compute#instanceAggregatedList\"" + " ".repeat(38) + "}";
  }

  @Override
  protected List<String> trickleErrorNames() {
    return List.of("instances.aggregatedList", "2000 ms", "clusterresolver.gce.timeout");
  }

  @Override
  protected String[] endlessAnswer() {
    return new String[] {"{\"kind\":\"compute#instanceAggregatedList\",\"items\":{\"zones/a\":{\"instances\":[",
        "{\"name\":\"i\",\"status\":\"RUNNING\"},"};
  }

  @Override
  protected List<String> notTheApiErrorNames() {
    return List.of("not a Compute Engine answer", "instances.aggregatedList", "clusterresolver.gce.endpoint");
  }
}
