package io.clusterresolver.azure;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS trust of the Resource Manager endpoint: the standard {@code javax.net.ssl.trustStore},
 * {@code javax.net.ssl.trustStorePassword} and {@code javax.net.ssl.trustStoreType} properties as
 * they are when the resolver is created (the JVM's default context reads them only once, at its
 * first use), else the JVM's default trust.
 */
final class TrustStores {

  private TrustStores() {}

  /** A context trusting the configured trust store, or {@code null} for the JVM default. */
  static SSLContext fromSystemProperties() {
    String file = System.getProperty("javax.net.ssl.trustStore");
    if (file == null || file.isEmpty() || "NONE".equals(file)) {
      return null;
    }
    String password = System.getProperty("javax.net.ssl.trustStorePassword");
    String type = System.getProperty("javax.net.ssl.trustStoreType", KeyStore.getDefaultType());
    try (InputStream in = Files.newInputStream(Path.of(file))) {
      KeyStore store = KeyStore.getInstance(type);
      store.load(in, password == null ? null : password.toCharArray());
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (Exception e) {
      throw new io.clusterresolver.ConfigurationException("azure: the trust store javax.net.ssl.trustStore="
          + file + " cannot be read (" + e.getClass().getSimpleName() + "): fix the javax.net.ssl.trustStore,"
          + " trustStorePassword and trustStoreType system properties");
    }
  }
}
