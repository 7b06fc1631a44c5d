package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.ConsoleHandler;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * With {@code -Djdk.httpclient.HttpClient.log=headers} the JDK's HTTP client (under fabric8) logs
 * every request header; the service account's bearer token must not be among them (issue 20). The
 * JDK reads the property once per JVM, so the resolve runs in a JVM of its own.
 */
class KubernetesHeaderLogTest {

  /** The child JVM: every logger at ALL to standard error, one resolve, the cluster on standard output. */
  public static void main(String[] args) {
    Logger root = Logger.getLogger("");
    root.setLevel(Level.ALL);
    ConsoleHandler all = new ConsoleHandler();
    all.setLevel(Level.ALL);
    root.addHandler(all);
    Map<String, String> properties = new java.util.LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      properties.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    System.out.println(ClusterResolvers.create("kubernetes", properties, Map.of()).resolve().clusterSpec());
  }

  @Test
  void theBearerTokenIsNotInTheJdkClientsHeaderLog() throws Exception {
    try (SimulatedKubernetes k8s = SimulatedKubernetes.start()) {
      KubernetesTestSupport support = new KubernetesTestSupport(k8s, "training", "resolver");
      k8s.add(SimulatedPod.builder("training", "w-0").label("app", "trainer").podIps("10.0.0.5").build());
      List<String> command = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Djdk.httpclient.HttpClient.log=headers,requests",
          "-cp", System.getProperty("java.class.path"), KubernetesHeaderLogTest.class.getName()));
      support.properties(k8s, Map.of()).forEach((k, v) -> command.add(k + "=" + v));
      Path log = Files.createTempFile("headers", ".log");
      Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!child.waitFor(90, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
      String text = Files.readString(log, StandardCharsets.UTF_8);
      Files.delete(log);
      assertThat(child.exitValue()).as(text).isZero();
      assertThat(text).as("the JDK client logged the headers").contains("HEADERS");
      assertThat(text).as("the resolve listed the pod").contains("10.0.0.5");
      assertThat(text).doesNotContain(support.token).doesNotContainIgnoringCase("bearer ");
    }
  }
}
