package io.clusterresolver.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.net.URI;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * fabric8's JDK HTTP client for the API server, configured from its {@link Config} (proxies, the token and its
 * 401 refresh, TLS), that never follows a redirect: the JDK client would send the bearer token to whichever host a
 * redirect names. The API server never redirects a list; a 3xx is reported.
 *
 * <p>For an {@code http} API server (a local proxy such as {@code kubectl proxy}, a simulation) it makes no TLS
 * set-up: fabric8 builds its TLS context before it knows whether one is needed, and its trust managers read the
 * JDK's whole {@code cacerts} (about 50 ms of a cold resolve). The client of an {@code http} server gets a context
 * that trusts no certificate instead, which it never uses.
 */
final class ApiClientFactory extends JdkHttpClientFactory {

  @Override
  public HttpClient.Builder newBuilder(Config config) {
    if (!isPlainHttp(config.getMasterUrl())) {
      return super.newBuilder(config);
    }
    // Trusting every certificate is the one setting that skips the cacerts read; only the TLS set-up of this
    // builder reads it, and its context is replaced below. The Config keeps its own setting for anything later.
    boolean trustCerts = config.isTrustCerts();
    config.setTrustCerts(true);
    HttpClient.Builder builder;
    try {
      builder = super.newBuilder(config);
    } finally {
      config.setTrustCerts(trustCerts);
    }
    return builder.sslContext(null, new TrustManager[] {TrustsNone.INSTANCE});
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
