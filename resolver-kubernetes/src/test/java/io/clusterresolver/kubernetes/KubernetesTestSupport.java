package io.clusterresolver.kubernetes;

import io.clusterresolver.testkit.SimulatedKubernetes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** A service-account directory (token, namespace) for a simulated API server, and the properties pointing at both. */
final class KubernetesTestSupport {

  final Path serviceAccount;
  final String token;

  KubernetesTestSupport(SimulatedKubernetes k8s, String namespace, String account) {
    try {
      serviceAccount = Files.createTempDirectory("sa");
      token = "eyJhbGciOiJSUzI1NiJ9.test-" + UUID.randomUUID();
      // Deleted as the test JVM exits, in the reverse order: the files, then the directory.
      serviceAccount.toFile().deleteOnExit();
      Files.writeString(serviceAccount.resolve("token"), token, StandardCharsets.UTF_8).toFile().deleteOnExit();
      Files.writeString(serviceAccount.resolve("namespace"), namespace, StandardCharsets.UTF_8).toFile().deleteOnExit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    k8s.acceptTokens(Map.of(token, "system:serviceaccount:" + namespace + ":" + account));
  }

  /** Writes a new token into the token file (as the kubelet does when it rotates it). */
  void rotate(String newToken) {
    try {
      Path tmp = Files.createTempFile(serviceAccount, "token", ".tmp");
      Files.writeString(tmp, newToken, StandardCharsets.UTF_8);
      Files.move(tmp, serviceAccount.resolve("token"), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes {@code file}, a kubeconfig whose current context is the simulated API server with this support's token
   * and {@code namespace}, as {@code kubectl} writes one.
   */
  Path kubeconfig(SimulatedKubernetes k8s, Path file, String namespace) throws IOException {
    return Files.writeString(file, String.join("\n", "apiVersion: v1", "kind: Config", "clusters:", "- name: sim",
        "  cluster:", "    server: " + k8s.endpoint(), "users:", "- name: me", "  user:", "    token: " + token,
        "contexts:", "- name: sim", "  context:", "    cluster: sim", "    user: me", "    namespace: " + namespace,
        "current-context: sim", ""), StandardCharsets.UTF_8);
  }

  /** Endpoint, token file, selector {@code app=trainer} and a 20 s timeout, plus {@code extra}. */
  Map<String, String> properties(SimulatedKubernetes k8s, Map<String, String> extra) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("clusterresolver.kubernetes.endpoint", k8s.endpoint().toString());
    p.put("clusterresolver.kubernetes.token-file", serviceAccount.resolve("token").toString());
    p.put("clusterresolver.kubernetes.selector", "app=trainer");
    // Generous: the first list in a cold JVM (fabric8 and Jackson 3 loading the Pod model) takes seconds on a busy machine.
    p.put("clusterresolver.kubernetes.timeout", "20s");
    p.putAll(extra);
    return p;
  }
}
