package io.clusterresolver.runtime;

import static io.clusterresolver.runtime.TestCluster.cpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ClusterSpec;
import io.clusterresolver.proto.DeviceFilters;
import io.clusterresolver.runtime.rpc.CreateContextRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS and mutual TLS with certificates generated at test time. */
class MutualTlsTest {
  @TempDir static Path dir;

  static KeyStore worker0Key;
  static KeyStore clientKey;
  static KeyStore strangerKey;
  static KeyStore trusted; // the cluster's trust store: worker 0 and the legitimate client
  static ClusterSpec cluster;
  static TaskServer worker0;

  @BeforeAll
  static void start() throws Exception {
    worker0Key = TestCerts.generate(dir, "worker0", "/job:worker/replica:0/task:0");
    clientKey = TestCerts.generate(dir, "client", "/job:localhost/replica:0/task:0");
    strangerKey = TestCerts.generate(dir, "stranger", "/job:localhost/replica:0/task:0");
    trusted = TestCerts.trusting(worker0Key, clientKey);
    cluster = TestCluster.cluster("worker", 1);
    worker0 = TaskServer.builder(cluster, "worker", 0)
        .function("upper", in -> new String(in, StandardCharsets.UTF_8).toUpperCase()
            .getBytes(StandardCharsets.UTF_8))
        // The server hides its devices from the client task, whatever that client claims.
        .deviceFilters(DeviceFilters.builder()
            .setDeviceFilters("localhost", 0, List.of("/job:localhost")).build())
        .tls(TlsConfig.of(worker0Key, TestCerts.PASSWORD, trusted, true))
        .start();
  }

  @AfterAll
  static void stop() {
    if (worker0 != null) {
      worker0.close();
    }
  }

  @Test
  void trustedClientConnectsOverMutualTls() {
    TlsConfig tls = TlsConfig.of(clientKey, TestCerts.PASSWORD, trusted, true);
    try (ClusterConnection connection =
        Cluster.connect(cluster, ConnectOptions.builder().tls(tls).build())) {
      // Only its own device: worker 0's server filters the client task out.
      assertThat(connection.devices()).containsExactly(cpu("localhost", 0));
    }
  }

  @Test
  void identityComesFromTheCertificateNotFromTheHeader() {
    TlsConfig tls = TlsConfig.of(clientKey, TestCerts.PASSWORD, trusted, true);
    // The client claims to be worker 0 itself (which would see everything); its certificate says
    // /job:localhost/replica:0/task:0, and that is what the server filters.
    TaskChannel liar = new TaskChannel("worker", 0, cluster.taskAddress("worker", 0),
        new Caller("worker", 0), tls);
    try {
      assertThat(liar.blocking(5000).createContext(
              CreateContextRequest.newBuilder().setContextId("liar").build()).getVisibleDevicesList())
          .isEmpty();
    } finally {
      liar.shutdown();
    }
  }

  @Test
  void clientWithAnUntrustedCertificateIsRefused() throws Exception {
    // The stranger trusts the server, but the server does not trust the stranger.
    TlsConfig tls =
        TlsConfig.of(strangerKey, TestCerts.PASSWORD, TestCerts.trusting(worker0Key, strangerKey), true);
    assertThatThrownBy(() -> Cluster.connect(cluster, ConnectOptions.builder().tls(tls)
            .connectTimeout(Duration.ofSeconds(2)).callTimeout(Duration.ofMillis(500)).build()))
        .isInstanceOfSatisfying(RemoteTaskException.class,
            e -> assertThat(e.task()).isEqualTo("/job:worker/replica:0/task:0"))
        .hasMessageContaining(cluster.taskAddress("worker", 0));
  }

  @Test
  void plaintextClientIsRefused() {
    assertThatThrownBy(() -> Cluster.connect(cluster, ConnectOptions.builder()
            .connectTimeout(Duration.ofSeconds(1)).callTimeout(Duration.ofMillis(300)).build()))
        .isInstanceOf(RemoteTaskException.class)
        .hasMessageContaining("/job:worker/replica:0/task:0");
  }

  @Test
  void serverOnlyTlsWorksAndTrustsTheHeader() throws Exception {
    ClusterSpec plain = TestCluster.cluster("ps", 1);
    try (TaskServer ps = TaskServer.builder(plain, "ps", 0)
            .tls(TlsConfig.of(worker0Key, TestCerts.PASSWORD, trusted, false)).start();
        ClusterConnection connection = Cluster.connect(plain, ConnectOptions.builder()
            .tls(TlsConfig.of(clientKey, TestCerts.PASSWORD, trusted, false)).build())) {
      assertThat(connection.devices()).containsExactly(cpu("localhost", 0), cpu("ps", 0));
      assertThat(ps.contextCount()).isEqualTo(1);
    }
  }
}
