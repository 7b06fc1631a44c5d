package io.clusterresolver.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.http.TlsVersion;
import io.fabric8.kubernetes.client.internal.CertUtils;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/**
 * fabric8's JDK HTTP client for the API server of a kubeconfig ({@link Fabric8Calls}; without one the calls go on
 * {@link UrlConnectionCalls}), configured from its {@link Config} (proxies, the user's token or exec plugin or OIDC,
 * client certificates, TLS), that never follows a redirect: the JDK client would send the bearer token
 * to whichever host a redirect names. The API server never redirects a list; a 3xx is reported.
 *
 * <p>Its TLS set-up reads nothing a resolve does not use. fabric8 builds its trust and a TLS context before it knows
 * whether TLS is needed, and merges the API server's certificate authority into a copy of the JDK's whole
 * {@code cacerts} (about 50 ms of a cold resolve; the JDK's handshake reads {@code cacerts} once more for its own
 * checks, which stays); a TLS context alone costs about 20 ms the first time (the JDK's table of cipher suites):
 * <ul>
 *   <li>an {@code http} API server (a local proxy such as {@code kubectl proxy}, a simulation) gets no TLS set-up at
 *       all: its client's TLS context ({@link NoTls}) makes no TLS connection, so it trusts no certificate;
 *   <li>an {@code https} API server with a certificate authority ({@code ca-file}, the service account's
 *       {@code ca.crt}, a kubeconfig's {@code certificate-authority[-data]}) is trusted through that authority
 *       alone, as {@code kubectl} (client-go) trusts it: the authority that signs the API server's certificate is
 *       the one the cluster names, not any of the JDK's public ones. One TLS context is made, with fabric8's key
 *       managers (a client certificate) and these trust managers;
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
    boolean plainHttp = ClusterTrust.isPlainHttp(config.getMasterUrl());
    if (!plainHttp && !trustsTheAuthorityAlone(config)) {
      return super.newBuilder(config);
    }
    HttpClient.Builder builder = newBuilder();
    // fabric8's common configuration (redirects, timeouts, HTTP/1.1, proxies, key managers, TLS versions, the
    // token's interceptors) with the trust of its TLS context replaced. Trusting every certificate is the one
    // setting that keeps fabric8 from building a trust store for trust managers that are replaced; the Config keeps
    // its own setting for anything later.
    boolean trustCerts = config.isTrustCerts();
    config.setTrustCerts(true);
    try {
      HttpClientUtils.applyCommonConfiguration(config, new OwnTrust(builder, plainHttp ? null : config), this);
    } finally {
      config.setTrustCerts(trustCerts);
    }
    return builder;
  }

  /**
   * The JDK client's builder, on {@link PodSource#CALLS}, with a TLS context that makes no TLS connection: fabric8
   * replaces it with the context it set up, and a client without one (of an {@code http} API server) keeps it,
   * instead of the JDK's default context (which reads {@code cacerts}).
   */
  @Override
  protected java.net.http.HttpClient.Builder createNewHttpClientBuilder() {
    return java.net.http.HttpClient.newBuilder().executor(PodSource.CALLS).sslContext(NoTls.CONTEXT);
  }

  @Override
  protected void additionalConfig(java.net.http.HttpClient.Builder builder) {
    builder.followRedirects(java.net.http.HttpClient.Redirect.NEVER);
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
    try (InputStream pem = CertUtils.getInputStreamFromDataOrFile(config.getCaCertData(), config.getCaCertFile())) {
      return ClusterTrust.authorityAlone(pem, isSet(config.getCaCertFile()) ? "file " + config.getCaCertFile() : "data");
    }
  }

  /**
   * fabric8's builder with the trust of its TLS context replaced: for an {@code http} API server ({@code tls}
   * {@code null}) no TLS context is made; for an {@code https} one, one context with fabric8's key managers and the
   * certificate authority alone. Everything else goes to fabric8's builder as it is.
   */
  private static final class OwnTrust implements HttpClient.Builder {
    private final HttpClient.Builder builder;
    private final Config tls;

    OwnTrust(HttpClient.Builder builder, Config tls) {
      this.builder = builder;
      this.tls = tls;
    }

    @Override
    public HttpClient.Builder sslContext(KeyManager[] keyManagers, TrustManager[] trustManagers) {
      if (tls == null) {
        return this; // plain http: the client keeps NoTls
      }
      try {
        builder.sslContext(keyManagers, authorityAlone(tls));
      } catch (IOException | GeneralSecurityException e) {
        throw KubernetesClientException.launderThrowable(e); // what fabric8's own set-up throws for a bad file
      }
      return this;
    }

    @Override
    public HttpClient build() {
      return builder.build();
    }

    @Override
    public HttpClient.Builder connectTimeout(long connectTimeout, TimeUnit unit) {
      builder.connectTimeout(connectTimeout, unit);
      return this;
    }

    @Override
    public HttpClient.Builder websocketPingInterval(long interval, TimeUnit unit) {
      builder.websocketPingInterval(interval, unit);
      return this;
    }

    @Override
    public HttpClient.Builder addOrReplaceInterceptor(String name, Interceptor interceptor) {
      builder.addOrReplaceInterceptor(name, interceptor);
      return this;
    }

    @Override
    public HttpClient.Builder authenticatorNone() {
      builder.authenticatorNone();
      return this;
    }

    @Override
    public HttpClient.Builder followAllRedirects() {
      builder.followAllRedirects(); // then additionalConfig: never
      return this;
    }

    @Override
    public HttpClient.Builder proxyAddress(InetSocketAddress proxyAddress) {
      builder.proxyAddress(proxyAddress);
      return this;
    }

    @Override
    public HttpClient.Builder proxyAuthorization(String credentials) {
      builder.proxyAuthorization(credentials);
      return this;
    }

    @Override
    public HttpClient.Builder proxyType(HttpClient.ProxyType type) {
      builder.proxyType(type);
      return this;
    }

    @Override
    public HttpClient.Builder tlsVersions(TlsVersion... tlsVersions) {
      builder.tlsVersions(tlsVersions);
      return this;
    }

    @Override
    public HttpClient.Builder tlsServerName(String serverName) {
      builder.tlsServerName(serverName);
      return this;
    }

    @Override
    public HttpClient.Builder preferHttp11() {
      builder.preferHttp11();
      return this;
    }

    @Override
    public HttpClient.DerivedClientBuilder tag(Object value) {
      builder.tag(value);
      return this;
    }
  }

  /**
   * The TLS context of a client that makes no TLS connection (of an {@code http} API server): it trusts no
   * certificate because it starts no handshake, and making it loads none of the JDK's TLS implementation.
   */
  static final class NoTls extends SSLContextSpi {
    static final SSLContext CONTEXT = new SSLContext(new NoTls(), null, "none") {};

    private static final String NONE = "no TLS connection is made to an http API server";

    @Override
    protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom random) {
      throw new UnsupportedOperationException(NONE);
    }

    @Override
    protected SSLSocketFactory engineGetSocketFactory() {
      throw new UnsupportedOperationException(NONE);
    }

    @Override
    protected SSLServerSocketFactory engineGetServerSocketFactory() {
      throw new UnsupportedOperationException(NONE);
    }

    @Override
    protected SSLEngine engineCreateSSLEngine() {
      throw new UnsupportedOperationException(NONE);
    }

    @Override
    protected SSLEngine engineCreateSSLEngine(String host, int port) {
      throw new UnsupportedOperationException(NONE);
    }

    @Override
    protected SSLSessionContext engineGetServerSessionContext() {
      throw new UnsupportedOperationException(NONE);
    }

    @Override
    protected SSLSessionContext engineGetClientSessionContext() {
      throw new UnsupportedOperationException(NONE);
    }

    @Override
    protected SSLParameters engineGetDefaultSSLParameters() {
      return new SSLParameters(); // the JDK client asks for them when it is built
    }

    @Override
    protected SSLParameters engineGetSupportedSSLParameters() {
      return new SSLParameters();
    }
  }
}
