package io.clusterresolver.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * How the API server is trusted, on the JDK alone (both ways of calling it use this: {@link UrlConnectionCalls} and
 * fabric8's client through {@link ApiClientFactory}): over plain {@code http} not at all (no TLS connection is made),
 * over {@code https} through the certificate authority the cluster names and only it, as {@code kubectl} (client-go)
 * trusts it.
 */
final class ClusterTrust {

  private ClusterTrust() {}

  /** Whether the API server is asked over plain {@code http}: no TLS connection is made to it. */
  static boolean isPlainHttp(String masterUrl) {
    try {
      return masterUrl != null && "http".equalsIgnoreCase(URI.create(masterUrl).getScheme());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Trust managers that trust the certificates of a PEM bundle, and nothing else.
   *
   * @param source what the bundle is ({@code file /path}), named when it holds no certificate
   * @throws CertificateException when the bundle holds no certificate
   */
  static TrustManager[] authorityAlone(InputStream pem, String source) throws GeneralSecurityException, IOException {
    Collection<? extends Certificate> authorities = CertificateFactory.getInstance("X.509").generateCertificates(pem);
    if (authorities.isEmpty()) {
      throw new CertificateException("no certificate in the certificate authority " + source);
    }
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    int i = 0;
    for (Certificate authority : authorities) {
      store.setCertificateEntry("authority-" + i++, authority);
    }
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    return trust.getTrustManagers();
  }
}
