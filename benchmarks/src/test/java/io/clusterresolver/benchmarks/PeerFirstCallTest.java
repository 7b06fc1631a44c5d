package io.clusterresolver.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The peers {@link CloudColdStart} {@code --peers} times really find members in the worlds it times them
 * on: at least one and at most the world's count (Hazelcast and the raw calls read one page), so that the
 * table cannot time a peer that failed (Hazelcast's discovery logs a failure and returns no node).
 */
class PeerFirstCallTest {

  @TempDir
  static Path dir;
  private static CloudWorlds worlds;

  @BeforeAll
  static void startWorlds() throws Exception {
    worlds = new CloudWorlds(dir);
    for (String provider : CloudWorlds.PROVIDERS) {
      worlds.start(provider);
    }
    // what JDK_JAVA_OPTIONS gives the peer's JVM in the benchmark: trust the simulated Resource Manager
    for (String option : worlds.jvmOptions("azure")) {
      String[] kv = option.substring(2).split("=", 2);
      System.setProperty(kv[0], kv[1]);
    }
  }

  @AfterAll
  static void stopWorlds() {
    worlds.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"gce", "azure", "tpu", "kubernetes", "aws"})
  void everyPeerFindsMembersOfTheWorld(String provider) throws Exception {
    int world = worlds.expectedMembers(provider);
    for (String peer : CloudColdStart.peersOf(provider)) {
      int found = PeerFirstCall.members(peer, worlds.properties(provider), worlds.zones(provider));
      assertTrue(found > 0 && found <= world, peer + " found " + found + " members of the " + provider
          + " world's " + world);
    }
  }
}
