package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolverException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ApiFailure#withoutAnswer}: each case is the exception the JDK itself throws at a real socket (refused, reset,
 * silent), wrapped the ways the providers' clients wrap it; the kind expected is what the exception is (a timeout or
 * no answer), its text the JDK's own.
 */
class ApiFailureWithoutAnswerTest {

  /** Accepts connections and never answers: every read on them waits. */
  private ServerSocket silent;
  /** What it accepted, kept reachable so that no cleaner closes them. */
  private final List<Socket> held = new CopyOnWriteArrayList<>();

  @BeforeEach
  void listen() throws IOException {
    silent = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(() -> {
      try {
        while (true) {
          held.add(silent.accept()); // never written to
        }
      } catch (IOException closed) {
        // the test is over
      }
    }, "silent-acceptor");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  @AfterEach
  void close() throws IOException {
    silent.close();
    for (Socket s : held) {
      s.close();
    }
  }

  @Test
  void aRefusedConnectionIsNoResponseAndRetryableNamingTheJdksException() throws IOException {
    Throwable thrown = catchThrowable(() -> new CloudHttp(AnswerLimit.ofBytes(1024), CloudHttp.Redirects.REPORTED,
        null).send(CloudHttp.Request.get(closedPort()), CloudHttp.Authorization.NONE, Duration.ofSeconds(5)));
    assertThat(thrown).isInstanceOf(ConnectException.class);

    ApiFailure f = ApiFailure.withoutAnswer(new UncheckedIOException((IOException) thrown));

    assertThat(f.kind()).isEqualTo(ApiFailure.Kind.NO_RESPONSE);
    assertThat(f.isRetryable()).isTrue();
    assertThat(f.message()).isEqualTo("ConnectException: " + thrown.getMessage());
    assertThat(f.httpStatus()).isZero();
    assertThat(f.attempts()).isEqualTo(1);
  }

  @Test
  void aResetConnectionIsNoResponseNamingTheTransportsExceptionNotTheWrapper() throws IOException {
    try (ServerSocket resetting = new ServerSocket(0, 4, InetAddress.getLoopbackAddress());
        Socket client = new Socket(resetting.getInetAddress(), resetting.getLocalPort());
        Socket accepted = resetting.accept()) {
      accepted.setSoLinger(true, 0); // close with a TCP RST
      accepted.close();
      Throwable thrown = catchThrowable(() -> client.getInputStream().read());
      assertThat(thrown).isInstanceOf(SocketException.class);

      // an SDK's exception around the JDK's: the message is the transport's, not the wrapper's
      ApiFailure f = ApiFailure.withoutAnswer(new IllegalStateException("Unable to execute HTTP request",
          new UncheckedIOException((IOException) thrown)));

      assertThat(f.kind()).isEqualTo(ApiFailure.Kind.NO_RESPONSE);
      assertThat(f.isRetryable()).isTrue();
      assertThat(f.message()).isEqualTo("SocketException: " + thrown.getMessage());
    }
  }

  @Test
  void aReadThatTimesOutOnHttpUrlConnectionIsATimeoutWhereverItIsInTheChain() throws IOException {
    HttpURLConnection http = (HttpURLConnection) silentUri().toURL().openConnection();
    http.setReadTimeout(100);
    Throwable thrown = catchThrowable(http::getResponseCode);
    assertThat(thrown).isInstanceOf(SocketTimeoutException.class);

    ApiFailure f = ApiFailure.withoutAnswer(new RuntimeException("wrapped", new UncheckedIOException((IOException) thrown)));

    assertThat(f.kind()).isEqualTo(ApiFailure.Kind.TIMEOUT);
    assertThat(f.isRetryable()).as("a call that ran out of time is not tried again").isFalse();
    assertThat(f.message()).isEqualTo("SocketTimeoutException: " + thrown.getMessage());
  }

  @Test
  void cloudHttpsOwnTimeoutIsATimeout() {
    Throwable thrown = catchThrowable(() -> new CloudHttp(AnswerLimit.ofBytes(1024), CloudHttp.Redirects.REPORTED,
        null).send(CloudHttp.Request.get(silentUri()), CloudHttp.Authorization.NONE, Duration.ofMillis(150)));
    assertThat(thrown).isInstanceOf(SocketTimeoutException.class);

    assertThat(ApiFailure.withoutAnswer(new UncheckedIOException((IOException) thrown)).kind())
        .isEqualTo(ApiFailure.Kind.TIMEOUT);
  }

  @Test
  void theHttpClientsRequestTimeoutIsATimeout() {
    HttpClient client = HttpClient.newHttpClient();
    Throwable thrown = catchThrowable(() -> client.send(HttpRequest.newBuilder(silentUri())
        .timeout(Duration.ofMillis(100)).build(), HttpResponse.BodyHandlers.discarding()));
    assertThat(thrown).isInstanceOf(HttpTimeoutException.class);

    ApiFailure f = ApiFailure.withoutAnswer(new UncheckedIOException((IOException) thrown));

    assertThat(f.kind()).isEqualTo(ApiFailure.Kind.TIMEOUT);
    // the request's timeout, or under load its connect timeout (HttpConnectTimeoutException, a subclass)
    assertThat(f.message()).isEqualTo(thrown.getClass().getSimpleName() + ": " + thrown.getMessage());
  }

  @Test
  void aWaitForAnotherThreadThatTimesOutIsATimeout() {
    Throwable thrown = catchThrowable(() -> new CompletableFuture<String>().get(10, TimeUnit.MILLISECONDS));
    assertThat(thrown).isInstanceOf(TimeoutException.class);

    ApiFailure f = ApiFailure.withoutAnswer(new IllegalStateException(thrown));

    assertThat(f.kind()).isEqualTo(ApiFailure.Kind.TIMEOUT);
    assertThat(f.message()).isEqualTo("TimeoutException"); // the JDK gives it no message
  }

  @Test
  void theInnermostIoExceptionIsNamedNotWhatCausedIt() {
    // how the JDK reports a refused certificate: the TLS exception says what failed, its cause only why
    IOException handshake = new SSLHandshakeException("PKIX path building failed");
    handshake.initCause(new CertificateException("unable to find valid certification path"));

    ApiFailure f = ApiFailure.withoutAnswer(new UncheckedIOException(handshake));

    assertThat(f.kind()).isEqualTo(ApiFailure.Kind.NO_RESPONSE);
    assertThat(f.message()).isEqualTo("SSLHandshakeException: PKIX path building failed");
  }

  @Test
  void withoutAnIoExceptionTheInnermostCauseIsNamed() {
    ApiFailure f = ApiFailure.withoutAnswer(new IllegalStateException("outer", new IllegalArgumentException("inner")));

    assertThat(f.kind()).isEqualTo(ApiFailure.Kind.NO_RESPONSE);
    assertThat(f.message()).isEqualTo("IllegalArgumentException: inner");
  }

  @Test
  void cloudApiRetriesARefusedConnectionButNotATimeout() throws IOException {
    CloudApi api = CloudApi.builder("demo", ApiFailure::withoutAnswer)
        .retryPolicy(RetryPolicy.builder().maxAttempts(3).baseBackoff(Duration.ofMillis(1)).build())
        .build();
    CloudHttp http = new CloudHttp(AnswerLimit.ofBytes(1024), CloudHttp.Redirects.REPORTED, null);
    URI refused = closedPort();
    AtomicInteger refusedCalls = new AtomicInteger();
    assertThatThrownBy(() -> api.session(Duration.ofSeconds(30)).call("List", remaining -> {
      refusedCalls.incrementAndGet();
      try {
        return http.send(CloudHttp.Request.get(refused), CloudHttp.Authorization.NONE, remaining);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessageStartingWith("demo: List failed without a valid HTTP response (ConnectException: ")
        .hasMessageContaining(" after 3 attempts; check clusterresolver.demo.endpoint");
    assertThat(refusedCalls).hasValue(3);

    AtomicInteger silentCalls = new AtomicInteger();
    assertThatThrownBy(() -> api.session(Duration.ofSeconds(30)).call("List", remaining -> {
      silentCalls.incrementAndGet();
      try {
        return http.send(CloudHttp.Request.get(silentUri()), CloudHttp.Authorization.NONE, Duration.ofMillis(100));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }))
        .isInstanceOf(ClusterResolverException.class)
        .hasMessage("demo: List did not complete within the timeout of 30000 ms (raise clusterresolver.demo.timeout"
            + " if the API is slow)");
    assertThat(silentCalls).hasValue(1);
  }

  private URI silentUri() {
    return URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/list");
  }

  /** A loopback port nothing listens on: one just closed. */
  private static URI closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return URI.create("http://127.0.0.1:" + s.getLocalPort() + "/list");
    }
  }
}
