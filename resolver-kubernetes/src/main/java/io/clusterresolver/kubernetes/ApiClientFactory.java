package io.clusterresolver.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.internal.CertUtils;
import io.fabric8.kubernetes.client.internal.SSLUtils;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * fabric8's JDK HTTP client for the API server, configured from its {@link Config} (proxies, the token and its
 * 401 refresh, client certificates, TLS), that never follows a redirect: the JDK client would send the bearer token
 * to whichever host a redirect names. The API server never redirects a list; a 3xx is reported.
 *
 * <p>Its TLS set-up reads nothing a resolve does not use. fabric8 builds its trust before it knows whether TLS is
 * needed, and merges the API server's certificate authority into a copy of the JDK's whole {@code cacerts} (about
 * 50 ms of a cold resolve; the JDK's handshake reads {@code cacerts} once more for its own checks, which stays):
 * <ul>
 *   <li>an {@code http} API server (a local proxy such as {@code kubectl proxy}, a simulation) gets a context that
 *       trusts no certificate, which it never uses;
 *   <li>an {@code https} API server with a certificate authority ({@code ca-file}, the service account's
 *       {@code ca.crt}, a kubeconfig's {@code certificate-authority[-data]}) is trusted through that authority
 *       alone, as {@code kubectl} (client-go) trusts it: the authority that signs the API server's certificate is
 *       the one the cluster names, not any of the JDK's public ones;
 *   <li>anything else (no certificate authority: the JDK's {@code cacerts}; {@code insecure-skip-tls-verify}; a
 *       trust store of fabric8's {@code kubernetes.truststore.file}) is fabric8's own set-up, as before.
 * </ul>
 *
 * <p>The JDK client runs its work on {@link PodSource#CALLS}, the daemon threads that wait for its answers, instead
 * of a pool of its own.
 */
final class ApiClientFactory extends JdkHttpClientFactory {

  @Override
  public HttpClient.Builder newBuilder(Config config) {
    boolean plainHttp = isPlainHttp(config.getMasterUrl());
    if (!plainHttp && !trustsTheAuthorityAlone(config)) {
      return super.newBuilder(config);
    }
    // Trusting every certificate is the one setting that skips fabric8's trust store; the context made with it is
    // replaced below, and the Config keeps its own setting for anything later.
    boolean trustCerts = config.isTrustCerts();
    config.setTrustCerts(true);
    HttpClient.Builder builder;
    try {
      builder = super.newBuilder(config);
    } finally {
      config.setTrustCerts(trustCerts);
    }
    if (plainHttp) {
      return builder.sslContext(null, new TrustManager[] {TrustsNone.INSTANCE});
    }
    try { // a client certificate's key managers once more: fabric8 made them for the context replaced here
      return builder.sslContext(SSLUtils.keyManagers(config), authorityAlone(config));
    } catch (IOException | GeneralSecurityException e) {
      throw KubernetesClientException.launderThrowable(e); // what fabric8's own set-up throws for a bad file
    }
  }

  @Override
  protected java.net.http.HttpClient.Builder createNewHttpClientBuilder() {
    return java.net.http.HttpClient.newBuilder().executor(PodSource.CALLS);
  }

  @Override
  protected void additionalConfig(java.net.http.HttpClient.Builder builder) {
    builder.followRedirects(java.net.http.HttpClient.Redirect.NEVER);
  }

  /** Whether the API server is asked over plain {@code http}: no TLS connection is made to it. */
  static boolean isPlainHttp(String masterUrl) {
    try {
      return masterUrl != null && "http".equalsIgnoreCase(URI.create(masterUrl).getScheme());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Whether the API server is trusted through the certificate authority its configuration names, and only it. */
  private static boolean trustsTheAuthorityAlone(Config config) {
    return !config.isTrustCerts() && !isSet(config.getTrustStoreFile())
        && (isSet(config.getCaCertData()) || isSet(config.getCaCertFile()));
  }

  private static boolean isSet(String value) {
    return value != null && !value.isEmpty();
  }

  /**
   * Trust managers that trust the certificates of the configured authority (every certificate of its PEM
   * bundle), and nothing else.
   *
   * @throws CertificateException when the file or data holds no certificate
   */
  static TrustManager[] authorityAlone(Config config) throws IOException, GeneralSecurityException {
    Collection<? extends Certificate> authorities;
    try (InputStream pem = CertUtils.getInputStreamFromDataOrFile(config.getCaCertData(), config.getCaCertFile())) {
      authorities = CertificateFactory.getInstance("X.509").generateCertificates(pem);
    }
    if (authorities.isEmpty()) {
      throw new CertificateException("no certificate in the certificate authority "
          + (isSet(config.getCaCertFile()) ? "file " + config.getCaCertFile() : "data"));
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

  /** A trust manager that trusts no certificate, for a client that must never make a TLS connection. */
  private enum TrustsNone implements X509TrustManager {
    INSTANCE;

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      throw new CertificateException("no TLS connection is made to an http API server");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      throw new CertificateException("no TLS connection is made to an http API server");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
