package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import io.fabric8.kubernetes.client.Config;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connection without a kubeconfig, made without fabric8's {@code Config}, against what that {@code Config} made of
 * the same settings: the API server's URL as fabric8 writes it ({@code Config.setMasterUrl}: a trailing {@code /}),
 * which the page's path, the messages and the resolver's description are built on.
 */
class ApiConnectionTest {

  @TempDir
  Path dir;

  private ApiConnection connect(Map<String, String> properties, Map<String, String> environment) throws Exception {
    Path token = dir.resolve("token");
    Files.writeString(token, "a-token", StandardCharsets.UTF_8);
    Map<String, String> p = new java.util.LinkedHashMap<>(properties);
    p.put("clusterresolver.kubernetes.token-file", token.toString());
    p.put("clusterresolver.kubernetes.namespace", "ml");
    p.put("clusterresolver.kubernetes.selector", "app=trainer");
    ResolverConfig config = ResolverConfig.resolve(KubernetesClusterResolverProvider.NAME, KubernetesProperties.DECLARATIONS.all(),
        PropertySources.withEnvironment(p, environment));
    List<String> problems = new ArrayList<>();
    ApiConnection connection = ApiConnection.resolve(config, problems);
    assertThat(problems).isEmpty();
    return connection;
  }

  /** What fabric8's {@code Config} answered for the URL the connection was given before (its endpoint). */
  private static String fabric8sMasterUrl(String endpoint) {
    Config config = Config.empty();
    config.setMasterUrl(endpoint);
    return config.getMasterUrl();
  }

  @Test
  void anEndpointIsTheApiServersUrlAsFabric8WritesIt() throws Exception {
    for (String endpoint : List.of("http://127.0.0.1:8001", "https://api.example:6443/", "https://10.0.0.1",
        "https://[fd00::1]:6443", "https://gateway.example/clusters/a")) {
      ApiConnection connection = connect(Map.of("clusterresolver.kubernetes.endpoint", endpoint), Map.of());

      assertThat(connection.masterUrl()).as(endpoint).isEqualTo(fabric8sMasterUrl(endpoint)).endsWith("/");
      assertThat(connection.fromKubeconfig()).isFalse();
      assertThat(connection.toString()).contains(connection.masterUrl());
    }
  }

  @Test
  void inAPodTheServiceIsTheApiServersUrlAsFabric8WritesIt() throws Exception {
    ApiConnection v4 = connect(Map.of(), Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1"));
    ApiConnection v6 = connect(Map.of(), Map.of("KUBERNETES_SERVICE_HOST", "fd00::1", "KUBERNETES_SERVICE_PORT", "6443"));

    assertThat(v4.masterUrl()).isEqualTo(fabric8sMasterUrl("https://10.96.0.1:443")).isEqualTo("https://10.96.0.1:443/");
    assertThat(v6.masterUrl()).isEqualTo(fabric8sMasterUrl("https://[fd00::1]:6443"))
        .isEqualTo("https://[fd00::1]:6443/");
  }
}
