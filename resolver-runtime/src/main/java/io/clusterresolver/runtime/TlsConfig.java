package io.clusterresolver.runtime;

import io.grpc.ChannelCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * Transport security for task servers and connections: TLS, or mutual TLS.
 *
 * <p>Each task holds its own key (a key store with one private key and its certificate chain) and
 * trusts the certificates of a trust store. Under mutual TLS a server accepts only clients whose
 * certificate it trusts, and takes the caller's task identity, used for device filtering, from the
 * subject CN of that certificate ({@code CN=/job:worker/replica:0/task:1}) instead of from what
 * the client says. Without mutual TLS, device filters isolate tasks but do not authenticate them.
 *
 * <p>Passwords are used once to open the stores and not kept.
 */
public final class TlsConfig {
  private final List<KeyManager> keyManagers;
  private final List<TrustManager> trustManagers;
  private final boolean mutual;

  private TlsConfig(List<KeyManager> keyManagers, List<TrustManager> trustManagers, boolean mutual) {
    this.keyManagers = keyManagers;
    this.trustManagers = trustManagers;
    this.mutual = mutual;
  }

  /**
   * TLS from key stores in memory.
   *
   * @param keyStore this task's private key and certificate chain
   * @param keyPassword the password of the key
   * @param trustStore the certificates this task trusts (servers', and clients' under mutual TLS)
   * @param mutual whether servers require and verify client certificates
   */
  public static TlsConfig of(
      KeyStore keyStore, char[] keyPassword, KeyStore trustStore, boolean mutual) {
    try {
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keyStore, keyPassword);
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trustStore);
      return new TlsConfig(
          List.of(kmf.getKeyManagers()), List.of(tmf.getTrustManagers()), mutual);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("Cannot use the TLS key or trust store: " + e.getMessage(), e);
    }
  }

  /**
   * TLS from key store files (PKCS12 or JKS, detected from the content).
   *
   * @throws IllegalArgumentException naming the file when it cannot be read or opened
   */
  public static TlsConfig fromFiles(
      Path keyStore, char[] keyStorePassword, Path trustStore, char[] trustStorePassword,
      boolean mutual) {
    return of(
        load(keyStore, keyStorePassword, "key store"),
        keyStorePassword,
        load(trustStore, trustStorePassword, "trust store"),
        mutual);
  }

  private static KeyStore load(Path file, char[] password, String what) {
    try {
      return KeyStore.getInstance(file.toFile(), password);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "Cannot open the TLS " + what + " " + file + ": " + e.getMessage()
              + " (check the path and the password)",
          e);
    }
  }

  /** Whether servers require client certificates and take caller identities from them. */
  public boolean mutual() {
    return mutual;
  }

  ServerCredentials serverCredentials() {
    TlsServerCredentials.Builder builder =
        TlsServerCredentials.newBuilder()
            .keyManager(keyManagers.toArray(new KeyManager[0]))
            .trustManager(trustManagers.toArray(new TrustManager[0]));
    if (mutual) {
      builder.clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
    }
    return builder.build();
  }

  ChannelCredentials channelCredentials() {
    return TlsChannelCredentials.newBuilder()
        .keyManager(keyManagers.toArray(new KeyManager[0]))
        .trustManager(trustManagers.toArray(new TrustManager[0]))
        .build();
  }

  @Override
  public String toString() {
    return "TlsConfig{mutual=" + mutual + ", keyManagers=" + keyManagers.size()
        + ", trustManagers=" + trustManagers.size() + "}";
  }
}
