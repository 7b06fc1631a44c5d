package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which libraries a resolve loads, read from the JVM's own class-loading log (a JVM of its own per resolve): without
 * a kubeconfig (an endpoint and a token file, as in a pod; over {@code http}, or {@code https} with the cluster's
 * certificate authority) no class of fabric8's, whose {@code Config} and client
 * only a kubeconfig needs, and one JSON library (jackson-core 2, the command's), not fabric8's Jackson 3 too; with a
 * kubeconfig, fabric8's client and its Jackson (so that the first checks can fail).
 */
class KubernetesClassesLoadedTest {

  /** The child JVM: one resolve of {@code key=value} properties ({@code env:NAME=value}: its environment). */
  public static void main(String[] args) {
    Map<String, String> properties = new LinkedHashMap<>();
    Map<String, String> env = new LinkedHashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      boolean variable = arg.startsWith("env:");
      (variable ? env : properties).put(arg.substring(variable ? 4 : 0, eq), arg.substring(eq + 1));
    }
    System.out.println(ClusterResolvers.create("kubernetes", properties, env).resolve().clusterSpec());
  }

  /** The names of the classes a resolve of {@code args} loaded, after checking that it listed the pod. */
  private static List<String> classesLoadedBy(List<String> args, Path dir) throws Exception {
    Path log = dir.resolve("classes.log");
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xlog:class+load=info:file=" + log,
        "-cp", System.getProperty("java.class.path"), KubernetesClassesLoadedTest.class.getName()));
    command.addAll(args);
    Path out = dir.resolve("out.txt");
    Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    if (!child.waitFor(90, TimeUnit.SECONDS)) {
      child.destroyForcibly();
    }
    String text = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(child.exitValue()).as(text).isZero();
    assertThat(text).as("the resolve listed the pod").contains("10.0.0.5");
    List<String> classes = new ArrayList<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      String[] fields = line.split(" "); // [uptime][info][class,load] NAME source: ...
      if (fields.length > 1) {
        classes.add(fields[1]);
      }
    }
    return classes;
  }

  @Test
  void withoutAKubeconfigNoClassOfFabric8sIsLoaded(@TempDir Path dir) throws Exception {
    try (SimulatedKubernetes k8s = SimulatedKubernetes.start()) {
      KubernetesTestSupport support = new KubernetesTestSupport(k8s, "training", "resolver");
      k8s.add(SimulatedPod.builder("training", "w-0").label("app", "trainer").podIps("10.0.0.5").build());
      List<String> args = new ArrayList<>();
      support.properties(k8s, Map.of()).forEach((k, v) -> args.add(k + "=" + v));

      List<String> classes = classesLoadedBy(args, dir);

      assertThat(classes).contains(UrlConnectionCalls.class.getName(), PodListJson.class.getName());
      assertThat(classes).noneMatch(c -> c.startsWith("io.fabric8.")).noneMatch(c -> c.startsWith("org.slf4j."));
      assertThat(classes).contains("com.fasterxml.jackson.core.JsonParser")
          .noneMatch(c -> c.startsWith("tools.jackson."));
    }
  }

  @Test
  void anHttpsServerTrustedThroughItsAuthorityAloneLoadsNoClassOfFabric8s(@TempDir Path dir) throws Exception {
    try (SimulatedKubernetes k8s = SimulatedKubernetes.start()) {
      KubernetesTestSupport support = new KubernetesTestSupport(k8s, "training", "resolver");
      k8s.add(SimulatedPod.builder("training", "w-0").label("app", "trainer").podIps("10.0.0.5").build());
      // The simulated API server's page, served again over TLS with the testkit's certificate.
      HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          k8s.endpoint().resolve("/api/v1/namespaces/training/pods?labelSelector=app%3Dtrainer&limit=500"))
          .header("Authorization", "Bearer " + support.token).build(), HttpResponse.BodyHandlers.ofString());
      Path ca = Files.writeString(dir.resolve("ca.crt"), KubernetesTlsTest.pem(KubernetesTlsTest.serverCertificate()));
      try (HostileEndpoint https = HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"),
          page.body())) {
        List<String> args = new ArrayList<>();
        support.properties(k8s, Map.of("clusterresolver.kubernetes.endpoint", https.httpsUri().toString(),
            "clusterresolver.kubernetes.ca-file", ca.toString())).forEach((k, v) -> args.add(k + "=" + v));

        List<String> classes = classesLoadedBy(args, dir);

        assertThat(classes).contains(ClusterTrust.class.getName(), "javax.net.ssl.TrustManagerFactory");
        assertThat(classes).noneMatch(c -> c.startsWith("io.fabric8.")).noneMatch(c -> c.startsWith("tools.jackson."));
      }
    }
  }

  @Test
  void aKubeconfigsListingIsFabric8s(@TempDir Path dir) throws Exception {
    try (SimulatedKubernetes k8s = SimulatedKubernetes.start()) {
      KubernetesTestSupport support = new KubernetesTestSupport(k8s, "training", "resolver");
      k8s.add(SimulatedPod.builder("training", "w-0").label("app", "trainer").podIps("10.0.0.5").build());
      Path kubeconfig = support.kubeconfig(k8s, dir.resolve("config"), "training");

      List<String> classes = classesLoadedBy(List.of("clusterresolver.kubernetes.selector=app=trainer",
          "clusterresolver.kubernetes.timeout=20s", "env:KUBECONFIG=" + kubeconfig, "env:HOME=" + dir), dir);

      assertThat(classes).contains(Fabric8Calls.class.getName(), "io.fabric8.kubernetes.client.Config",
          "tools.jackson.core.JsonParser").doesNotContain(UrlConnectionCalls.class.getName());
    }
  }
}
