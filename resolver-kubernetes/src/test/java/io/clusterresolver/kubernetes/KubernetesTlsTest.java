package io.clusterresolver.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.testkit.HostileEndpoint;
import io.clusterresolver.testkit.SimulatedAzure;
import io.clusterresolver.testkit.SimulatedKubernetes;
import io.clusterresolver.testkit.SimulatedPod;
import io.fabric8.kubernetes.client.Config;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code https} API server with a certificate authority and a bearer token, what a cluster runs: the server's
 * certificate is the testkit's (signed for {@code 127.0.0.1}), its answer the simulated API server's own page of
 * pods. The authority named by {@code ca-file} is trusted, and only it (as {@code kubectl} trusts it), and the token
 * goes to no server it does not sign. Both schemes are asked over HTTP/1.1: an http server without an HTTP/2 upgrade.
 */
class KubernetesTlsTest {

  static SimulatedKubernetes k8s;
  static KubernetesTestSupport support;
  static HostileEndpoint apiServer;
  static String pageJson;

  @TempDir
  static Path dir;

  @BeforeAll
  static void start() throws Exception {
    k8s = SimulatedKubernetes.start();
    support = new KubernetesTestSupport(k8s, "ml", "trainer");
    for (int i = 0; i < 3; i++) {
      k8s.add(SimulatedPod.builder("ml", "trainer-" + i).statefulSet("trainer", i).label("app", "trainer")
          .podIps("10.20.0." + (i + 1)).port("grpc", 2222).ready(true).build());
    }
    // The simulated API server's own answer, served again over TLS by a server with the testkit's certificate.
    HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        k8s.endpoint().resolve("/api/v1/namespaces/ml/pods?labelSelector=app%3Dtrainer&limit=500"))
        .header("Authorization", "Bearer " + support.token).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    pageJson = page.body();
    apiServer = HostileEndpoint.answer(200, Map.of("Content-Type", "application/json"), pageJson);
  }

  @AfterAll
  static void stop() {
    apiServer.close();
    k8s.close();
  }

  /** The testkit's server certificate (CN=localhost, for 127.0.0.1), as the PEM a cluster's {@code ca.crt} is. */
  static X509Certificate serverCertificate() throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = HostileEndpoint.class.getResourceAsStream("simulated-azure-truststore.p12")) {
      store.load(in, "simulated".toCharArray());
    }
    return (X509Certificate) store.getCertificate(Collections.list(store.aliases()).get(0));
  }

  /** A public root of the JDK's own {@code cacerts}: an authority that did not sign the server's certificate. */
  static X509Certificate aPublicRoot() throws Exception {
    KeyStore cacerts = KeyStore.getInstance(KeyStore.getDefaultType());
    try (InputStream in = Files.newInputStream(Path.of(System.getProperty("java.home"), "lib", "security",
        "cacerts"))) {
      cacerts.load(in, null);
    }
    return (X509Certificate) cacerts.getCertificate(Collections.list(cacerts.aliases()).get(0));
  }

  static String pem(X509Certificate certificate) throws Exception {
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(certificate.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }

  static Path file(String name, String text) throws Exception {
    return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
  }

  static Map<String, String> properties(Path caFile) {
    Map<String, String> p = new LinkedHashMap<>(support.properties(k8s, Map.of()));
    p.put("clusterresolver.kubernetes.endpoint", apiServer.httpsUri().toString());
    p.put("clusterresolver.kubernetes.namespace", "ml");
    p.put("clusterresolver.kubernetes.port-name", "grpc");
    p.put("clusterresolver.kubernetes.ca-file", caFile.toString());
    p.put("clusterresolver.kubernetes.shared-listing", "false");
    return p;
  }

  @Test
  void aServerSignedByTheConfiguredAuthorityIsListedWithTheToken() throws Exception {
    Path ca = file("ca.crt", pem(serverCertificate()));
    int before = apiServer.requests().size();

    ClusterSpec spec = ClusterResolvers.create("kubernetes", properties(ca), Map.of()).resolve().clusterSpec();

    assertThat(spec.jobTasks("worker")).containsExactly("10.20.0.1:2222", "10.20.0.2:2222", "10.20.0.3:2222");
    List<Map<String, List<String>>> requests = apiServer.requests();
    assertThat(requests).hasSize(before + 1);
    assertThat(requests.get(before).get("Authorization")).containsExactly("Bearer " + support.token);
  }

  @Test
  void aBundleWithCommentsTrustsEachOfItsCertificatesAndNoOther() throws Exception {
    X509Certificate server = serverCertificate();
    X509Certificate root = aPublicRoot();
    Path bundle = file("bundle.crt", "# the cluster's authorities\n" + pem(root) + "\n" + pem(server)
        + "# end\n");
    Config config = Config.empty();
    config.setCaCertFile(bundle.toString());

    TrustManager[] trust = ApiClientFactory.authorityAlone(config);

    assertThat(trust).hasSize(1);
    assertThat(Arrays.asList(((X509TrustManager) trust[0]).getAcceptedIssuers()))
        .as("the two certificates of the file, not the JDK's cacerts").containsExactlyInAnyOrder(root, server);
    // ... and a resolve through it reaches the server the second one signed.
    ClusterSpec spec = ClusterResolvers.create("kubernetes", properties(bundle), Map.of()).resolve().clusterSpec();
    assertThat(spec.jobTasks("worker")).hasSize(3);
  }

  @Test
  void anAuthorityThatDidNotSignTheServerFailsTheHandshakeAndNoTokenIsSent() throws Exception {
    Path other = file("other.crt", pem(aPublicRoot()));
    long withCredentials = apiServer.requestsWithCredentials();

    Throwable t = catchThrowable(() -> ClusterResolvers.create("kubernetes", properties(other), Map.of()).resolve());

    assertThat(t).isInstanceOf(ClusterResolverException.class).hasRootCauseInstanceOf(
        java.security.cert.CertPathBuilderException.class);
    assertThat(t).hasStackTraceContaining(SSLHandshakeException.class.getName());
    assertThat(t.getMessage()).contains("list pods in namespace ml");
    assertThat(apiServer.requestsWithCredentials()).isEqualTo(withCredentials);
  }

  @Test
  void anAuthorityFileWithoutACertificateIsAConfigurationErrorNamingIt() throws Exception {
    Path notPem = file("not.crt", "this is not a certificate\n");

    Throwable t = catchThrowable(() -> ClusterResolvers.create("kubernetes", properties(notPem), Map.of()));

    assertThat(t).isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("clusterresolver.kubernetes.ca-file (" + notPem + ")");
  }

  @Test
  void anHttpServerIsAskedOverHttp11WithoutAnUpgradeToHttp2() throws Exception {
    Map<String, String> p = properties(dir.resolve("unused"));
    p.remove("clusterresolver.kubernetes.ca-file");
    p.put("clusterresolver.kubernetes.endpoint", apiServer.uri().toString());
    int before = apiServer.requests().size();

    ClusterSpec spec = ClusterResolvers.create("kubernetes", p, Map.of()).resolve().clusterSpec();

    assertThat(spec.jobTasks("worker")).hasSize(3);
    Map<String, List<String>> headers = apiServer.requests().get(before);
    assertThat(headers.keySet()).as("the JDK client's h2c upgrade headers").noneMatch(
        h -> h.equalsIgnoreCase("Upgrade") || h.equalsIgnoreCase("HTTP2-Settings"));
  }

  @Test
  void anHttpsServerWithoutAnAuthorityIsTrustedThroughTheJdksOwnAuthorities() {
    Map<String, String> p = properties(dir.resolve("unused"));
    p.remove("clusterresolver.kubernetes.ca-file");

    // The testkit's certificate is in no public authority's chain: the JDK's cacerts refuse it.
    Throwable t = catchThrowable(() -> ClusterResolvers.create("kubernetes", p, Map.of()).resolve());

    assertThat(t).isInstanceOf(ClusterResolverException.class).hasStackTraceContaining("SSLHandshakeException");
    assertThat(URI.create(p.get("clusterresolver.kubernetes.endpoint")).getScheme()).isEqualTo("https");
  }

  @Test
  void aKubeconfigsClientCertificateIsPresentedWithTheAuthorityAlone() throws Exception {
    // An API server that requires a client certificate: the testkit's own key pair, for both ends.
    char[] password = SimulatedAzure.STORE_PASSWORD.toCharArray();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = HostileEndpoint.class.getResourceAsStream("simulated-azure-keystore.p12")) {
      keys.load(in, password);
    }
    String alias = Collections.list(keys.aliases()).get(0);
    X509Certificate certificate = (X509Certificate) keys.getCertificate(alias);
    KeyManagerFactory serverKeys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    serverKeys.init(keys, password);
    KeyStore clients = KeyStore.getInstance("PKCS12");
    clients.load(null, null);
    clients.setCertificateEntry("client", certificate);
    TrustManagerFactory clientTrust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    clientTrust.init(clients);
    SSLContext serverTls = SSLContext.getInstance("TLS");
    serverTls.init(serverKeys.getKeyManagers(), clientTrust.getTrustManagers(), null);
    HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(serverTls) {
      @Override
      public void configure(HttpsParameters params) {
        SSLParameters tls = getSSLContext().getDefaultSSLParameters();
        tls.setNeedClientAuth(true);
        params.setSSLParameters(tls);
      }
    });
    AtomicReference<String> client = new AtomicReference<>();
    server.createContext("/", exchange -> {
      client.set(((HttpsExchange) exchange).getSSLSession().getPeerPrincipal().getName());
      byte[] body = pageJson.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    try {
      Base64.Encoder base64 = Base64.getEncoder();
      String key = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'})
          .encodeToString(((PrivateKey) keys.getKey(alias, password)).getEncoded()) + "\n-----END PRIVATE KEY-----\n";
      Path kubeconfig = file("kubeconfig", String.join("\n",
          "apiVersion: v1",
          "kind: Config",
          "clusters:",
          "- name: tls",
          "  cluster:",
          "    server: https://127.0.0.1:" + server.getAddress().getPort(),
          "    certificate-authority-data: " + base64.encodeToString(pem(certificate).getBytes(StandardCharsets.UTF_8)),
          "users:",
          "- name: trainer",
          "  user:",
          "    client-certificate-data: " + base64.encodeToString(pem(certificate).getBytes(StandardCharsets.UTF_8)),
          "    client-key-data: " + base64.encodeToString(key.getBytes(StandardCharsets.UTF_8)),
          "contexts:",
          "- name: tls",
          "  context: {cluster: tls, user: trainer, namespace: ml}",
          "current-context: tls", ""));
      Map<String, String> p = Map.of("clusterresolver.kubernetes.kubeconfig", kubeconfig.toString(),
          "clusterresolver.kubernetes.selector", "app=trainer", "clusterresolver.kubernetes.port-name", "grpc",
          "clusterresolver.kubernetes.shared-listing", "false", "clusterresolver.kubernetes.timeout", "20s");

      ClusterSpec spec = ClusterResolvers.create("kubernetes", p, Map.of()).resolve().clusterSpec();

      assertThat(spec.jobTasks("worker")).hasSize(3);
      assertThat(client.get()).as("the client certificate the server was shown")
          .isEqualTo(certificate.getSubjectX500Principal().getName());
    } finally {
      server.stop(0);
    }
  }
}
