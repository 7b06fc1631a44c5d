package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.client.Config;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Kubeconfig#fromKubeconfig} against fabric8's own {@code Config.fromKubeconfig} on the same file: the
 * settings a resolve's client is made from come out the same, for the kubeconfig shapes users have (a token, relative
 * and absolute certificate files, inline data, several contexts, basic auth, an OIDC auth-provider, a proxy, TLS
 * options).
 */
class KubeconfigReadingTest {

  /** What a resolve's client is made from, read off a fabric8 {@code Config} by its getters. */
  private static Map<String, Object> settings(Config c) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("masterUrl", c.getMasterUrl());
    s.put("namespace", c.getNamespace());
    s.put("currentContext", c.getCurrentContext() == null ? null : c.getCurrentContext().getName());
    s.put("contexts", c.getContexts() == null ? null : c.getContexts().stream().map(n -> n.getName()).toList());
    s.put("oauthToken", c.getOauthToken());
    s.put("autoOAuthToken", c.getAutoOAuthToken());
    s.put("username", c.getUsername());
    s.put("password", c.getPassword());
    s.put("caCertFile", c.getCaCertFile());
    s.put("caCertData", c.getCaCertData());
    s.put("clientCertFile", c.getClientCertFile());
    s.put("clientCertData", c.getClientCertData());
    s.put("clientKeyFile", c.getClientKeyFile());
    s.put("clientKeyData", c.getClientKeyData());
    s.put("trustCerts", c.isTrustCerts());
    s.put("disableHostnameVerification", c.isDisableHostnameVerification());
    s.put("httpProxy", c.getHttpProxy());
    s.put("httpsProxy", c.getHttpsProxy());
    s.put("tlsServerName", c.getTlsServerName());
    s.put("authProvider", c.getAuthProvider() == null ? null
        : c.getAuthProvider().getName() + " " + c.getAuthProvider().getConfig());
    s.put("impersonateUsername", c.getImpersonateUsername());
    s.put("impersonateGroups", c.getImpersonateGroups() == null ? null : Arrays.asList(c.getImpersonateGroups()));
    s.put("file", c.getFile());
    return s;
  }

  private static void assertReadAsFabric8ReadsIt(Path file, String... lines) throws Exception {
    String contents = String.join("\n", lines) + "\n";
    Files.writeString(file, contents, StandardCharsets.UTF_8);
    Map<String, Object> fabric8 = settings(Config.fromKubeconfig(null, contents, file.toString()));
    Map<String, Object> ours = settings(Kubeconfig.fromKubeconfig(contents, file));
    assertThat(ours).isEqualTo(fabric8);
  }

  @Test
  void aTokenAndTheCurrentContextsNamespace(@TempDir Path dir) throws Exception {
    assertReadAsFabric8ReadsIt(dir.resolve("config"),
        "apiVersion: v1", "kind: Config",
        "clusters:", "- name: a", "  cluster:", "    server: https://10.0.0.1:6443",
        "    certificate-authority-data: Y2VydA==",
        "- name: b", "  cluster:", "    server: http://127.0.0.1:8001",
        "users:", "- name: me", "  user:", "    token: sha256~secret",
        "contexts:", "- name: a", "  context:", "    cluster: a", "    user: me",
        "- name: b", "  context:", "    cluster: b", "    user: me", "    namespace: ml",
        "current-context: b");
  }

  @Test
  void relativeFilesResolveAgainstTheKubeconfigsDirectory(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve("kube/certs"));
    assertReadAsFabric8ReadsIt(dir.resolve("kube/config"),
        "apiVersion: v1", "kind: Config",
        "clusters:", "- name: c", "  cluster:", "    server: https://api.example:6443",
        "    certificate-authority: certs/ca.crt", "    tls-server-name: kubernetes.default",
        "    proxy-url: http://proxy.example:3128",
        "users:", "- name: u", "  user:", "    client-certificate: certs/me.crt",
        "    client-key: " + dir.resolve("elsewhere/me.key"),
        "    as: admin", "    as-groups: [ops, ml]",
        "contexts:", "- name: c", "  context:", "    cluster: c", "    user: u", "    namespace: training",
        "current-context: c");
  }

  @Test
  void insecureBasicAuthAndAnOidcAuthProvider(@TempDir Path dir) throws Exception {
    assertReadAsFabric8ReadsIt(dir.resolve("config"),
        "apiVersion: v1", "kind: Config",
        "clusters:", "- name: c", "  cluster:", "    server: https://api.example", "    insecure-skip-tls-verify: true",
        "users:", "- name: basic", "  user:", "    username: alice", "    password: s3cret",
        "- name: oidc", "  user:", "    auth-provider:", "      name: oidc", "      config:",
        "        client-id: k8s", "        id-token: eyJ.id.token", "        idp-issuer-url: https://issuer.example",
        "contexts:", "- name: basic", "  context: {cluster: c, user: basic}",
        "- name: oidc", "  context: {cluster: c, user: oidc}",
        "current-context: oidc",
        "preferences: {}", "extensions:", "- name: x", "  extension: {any: thing}");
  }

  @Test
  void aFileThatIsNotYamlFailsWithTheExceptionFabric8Throws(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("config");
    String notYaml = "clusters: [unclosed\n";
    Files.writeString(file, notYaml, StandardCharsets.UTF_8);
    Throwable fabric8 = catchThrowable(() -> Config.fromKubeconfig(null, notYaml, file.toString()));
    Throwable ours = catchThrowable(() -> Kubeconfig.fromKubeconfig(notYaml, file));
    assertThat(fabric8).isNotNull();
    assertThat(ours).isInstanceOf(fabric8.getClass()).hasMessage(fabric8.getMessage());
  }
}
