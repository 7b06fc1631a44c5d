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
import org.junit.jupiter.api.io.TempDir;

/**
 * With every logger at {@code ALL} the service account's bearer token must not be in the log (issue 20), whichever
 * way the pods are listed: on the JDK's {@code HttpURLConnection} (a token file and an endpoint), which logs every
 * request header at {@code FINE}, and through fabric8's client for a kubeconfig, under which the JDK's
 * {@code java.net.http} client logs its headers with {@code -Djdk.httpclient.HttpClient.log=headers}. The JDK reads
 * that property once per JVM, so each resolve runs in a JVM of its own.
 */
class KubernetesHeaderLogTest {

  /** What the child logs at FINE itself: the proof that its FINE records reach the log. */
  private static final String FINE_PROBE = "child logging at ALL";

  /** The child JVM: every logger at ALL to standard error, one resolve, the cluster on standard output. */
  public static void main(String[] args) {
    Logger root = Logger.getLogger("");
    root.setLevel(Level.ALL);
    ConsoleHandler all = new ConsoleHandler();
    all.setLevel(Level.ALL);
    root.addHandler(all);
    Logger.getLogger(KubernetesHeaderLogTest.class.getName()).fine(FINE_PROBE);
    Map<String, String> properties = new java.util.LinkedHashMap<>();
    Map<String, String> env = new java.util.LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      (arg.startsWith("env:") ? env : properties).put(arg.substring(arg.startsWith("env:") ? 4 : 0, eq),
          arg.substring(eq + 1));
    }
    System.out.println(ClusterResolvers.create("kubernetes", properties, env).resolve().clusterSpec());
  }

  /** Runs the child with {@code args} and answers what it wrote, after checking that it listed the pod. */
  private static String resolveInAJvmOfItsOwn(List<String> args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djdk.httpclient.HttpClient.log=headers,requests",
        "-cp", System.getProperty("java.class.path"), KubernetesHeaderLogTest.class.getName()));
    command.addAll(args);
    Path log = Files.createTempFile("headers", ".log");
    Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!child.waitFor(90, TimeUnit.SECONDS)) {
      child.destroyForcibly();
    }
    String text = Files.readString(log, StandardCharsets.UTF_8);
    Files.delete(log);
    assertThat(child.exitValue()).as(text).isZero();
    assertThat(text).as("FINE records are logged").contains(FINE_PROBE);
    assertThat(text).as("the resolve listed the pod").contains("10.0.0.5");
    return text;
  }

  @Test
  void theBearerTokenIsNotInTheLogOfTheListingOnHttpUrlConnection() throws Exception {
    try (SimulatedKubernetes k8s = SimulatedKubernetes.start()) {
      KubernetesTestSupport support = new KubernetesTestSupport(k8s, "training", "resolver");
      k8s.add(SimulatedPod.builder("training", "w-0").label("app", "trainer").podIps("10.0.0.5").build());
      List<String> args = new ArrayList<>();
      support.properties(k8s, Map.of()).forEach((k, v) -> args.add(k + "=" + v));

      String text = resolveInAJvmOfItsOwn(args);

      assertThat(text).doesNotContain(support.token).doesNotContainIgnoringCase("bearer ");
    }
  }

  @Test
  void theBearerTokenIsNotInTheJdkClientsHeaderLogOfAKubeconfigsListing(@TempDir Path dir) throws Exception {
    try (SimulatedKubernetes k8s = SimulatedKubernetes.start()) {
      KubernetesTestSupport support = new KubernetesTestSupport(k8s, "training", "resolver");
      k8s.add(SimulatedPod.builder("training", "w-0").label("app", "trainer").podIps("10.0.0.5").build());
      Path kubeconfig = support.kubeconfig(k8s, dir.resolve("config"), "training");

      String text = resolveInAJvmOfItsOwn(List.of("clusterresolver.kubernetes.selector=app=trainer",
          "clusterresolver.kubernetes.timeout=20s", "env:KUBECONFIG=" + kubeconfig, "env:HOME=" + dir));

      assertThat(text).as("the JDK client under fabric8 logged the headers").contains("HEADERS");
      assertThat(text).doesNotContain(support.token).doesNotContainIgnoringCase("bearer ");
    }
  }
}
