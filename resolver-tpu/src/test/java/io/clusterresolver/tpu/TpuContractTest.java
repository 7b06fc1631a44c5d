package io.clusterresolver.tpu;

import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.testkit.Fault;
import io.clusterresolver.testkit.ProviderContractTest;
import io.clusterresolver.testkit.SimulatedTpu;
import io.clusterresolver.testkit.SimulatedTpuNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The provider contract (TCK) against a simulated Cloud TPU API with the real google-cloud-tpu client,
 * signing in with a service-account key file (the simulation's token endpoint issues the tokens).
 *
 * <p>Members are the workers of one READY {@code v4-32}-style node: {@code setMembers(n)} gives it n
 * network endpoints, worker i at 10.9.0.(200 - i) — descending addresses, so the spec's order is the
 * API's and could not come from sorting. {@code identifyAs(i)} makes the metadata server describe
 * worker i (its internal IP); {@code -1} a VM of the project that is no worker.
 */
class TpuContractTest extends ProviderContractTest {

  static final String NODE = "tck-node";
  static SimulatedTpu tpu;
  static Path keyFile;
  static String privateKey;

  @BeforeAll
  static void start() throws IOException {
    tpu = SimulatedTpu.start();
    tpu.requireToken(true);
    keyFile = Files.createTempFile("tpu-tck-key", ".json");
    privateKey = TpuTestSupport.writeServiceAccountKey(tpu, keyFile);
  }

  @AfterAll
  static void stop() throws IOException {
    tpu.close();
    Files.deleteIfExists(keyFile);
  }

  @Override
  protected ClusterResolverProvider provider() {
    return new TpuClusterResolverProvider();
  }

  @Override
  protected void setMembers(int n) {
    String[] ips = new String[n];
    for (int i = 0; i < n; i++) {
      ips[i] = "10.9.0." + (200 - i);
    }
    tpu.add(SimulatedTpuNode.builder(NODE).acceleratorType("v4-" + Math.max(8, 8 * n)).workers(ips).build());
  }

  @Override
  protected Map<String, String> properties(Map<String, String> extra) {
    Map<String, String> p = new LinkedHashMap<>(tpu.providerProperties(NODE));
    p.put("clusterresolver.tpu.credentials", keyFile.toString());
    p.put("clusterresolver.tpu.timeout", "5s");
    p.putAll(extra);
    return p;
  }

  /** The workers' IPs as {@link #setMembers} gives them, in the API's worker order, at TPU's port 8470. */
  @Override
  protected List<String> expectedAddresses(int n) {
    return java.util.stream.IntStream.range(0, n).mapToObj(i -> "10.9.0." + (200 - i) + ":8470").toList();
  }

  @Override
  protected void identifyAs(int index) {
    tpu.identifyAs(index < 0 ? null : NODE, index);
  }

  @Override
  protected void failPersistently() {
    tpu.inject(Fault.serverError().always());
  }

  @Override
  protected void heal() {
    tpu.clearFaults();
  }

  /**
   * The fault matrix in the Cloud TPU API's shapes. A resolve is one {@code nodes.get}, not a paged
   * listing: a fault "on page k" hits that one call (the middle of the listing is the listing).
   */
  @Override
  protected boolean inject(Fault fault) {
    return tpu.inject(fault);
  }

  /** nodes.get, metadata reads and token requests are retried by the provider (429, 5xx, resets). */
  @Override
  protected boolean retriesTransientFaults() {
    return true;
  }

  /** TensorFlow's rule, which the issue keeps: a process on no worker is task 0, and its master is worker 0. */
  @Override
  protected OptionalInt strangerTaskId() {
    return OptionalInt.of(0);
  }

  @Override
  protected Collection<String> extraSecrets() {
    List<String> secrets = new ArrayList<>(tpu.issuedTokens());
    // A line from the middle of the private key's base64 body.
    String[] lines = privateKey.split("\n");
    secrets.add(lines[lines.length / 2]);
    if (tpu.issuedTokens().isEmpty()) {
      throw new UncheckedIOException(new IOException("the client never asked the token endpoint for a token"));
    }
    return secrets;
  }
}
