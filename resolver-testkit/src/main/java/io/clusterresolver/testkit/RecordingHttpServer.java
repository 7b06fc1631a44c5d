package io.clusterresolver.testkit;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A plain HTTP server on loopback for a test of what a client sends: it records every request (method, raw path,
 * raw query, headers) before the test's {@link Answer} answers it. For a client's own request tests (a request
 * compared with an SDK's, a metadata server's rules); a simulated cloud is a {@link SimulatedApi}. Thread-safe;
 * close it after the test.
 */
public final class RecordingHttpServer implements AutoCloseable {

  /**
   * One request as the server saw it.
   *
   * @param method the HTTP method
   * @param path the raw (still escaped) path
   * @param query the raw query, or {@code null} when there is none
   * @param headers the request headers, looked up in any case ({@link #header})
   */
  public record Request(String method, String path, String query, Headers headers) {
    /** The first value of a request header, or {@code null}. */
    public String header(String name) {
      return headers.getFirst(name);
    }
  }

  /** How the test answers a request (after it is recorded). */
  @FunctionalInterface
  public interface Answer {
    /** Answers {@code request}: {@link RecordingHttpServer#send} or the exchange's own methods. */
    void answer(Request request, HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  private final List<Request> requests = new CopyOnWriteArrayList<>();

  private RecordingHttpServer(Answer answer) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        Headers headers = new Headers();
        headers.putAll(exchange.getRequestHeaders());
        Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
            exchange.getRequestURI().getRawQuery(), headers);
        requests.add(request);
        answer.answer(request, exchange);
      }
    });
    server.start();
  }

  /** Starts a server on a free loopback port that answers each request by {@code answer}. */
  public static RecordingHttpServer start(Answer answer) throws IOException {
    return new RecordingHttpServer(answer);
  }

  /** {@code http://127.0.0.1:PORT}. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The requests so far, in the order they came. */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  /**
   * Sends a whole answer: the status, {@code headers}, and {@code body} with its length (no body when empty).
   */
  public static void send(HttpExchange exchange, int status, Map<String, String> headers, byte[] body)
      throws IOException {
    headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      exchange.getResponseBody().write(body);
    }
  }

  /** Stops the server at once. */
  @Override
  public void close() {
    server.stop(0);
  }
}
