package io.clusterresolver.cloud;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Small, retry-free building blocks for {@link io.clusterresolver.spi.ClusterResolverProvider#isAvailable}: read a hint
 * file (DMI vendor, hypervisor uuid) and make one HTTP request to a metadata server with short
 * timeouts. None of them throws; a failure is an empty answer. Nothing retries: detection must
 * cost no noticeable time off the platform.
 */
public final class PlatformProbes {

  /** The DMI files that name the machine's vendor on Linux. */
  public static final Path DMI_SYS_VENDOR = Path.of("/sys/class/dmi/id/sys_vendor");
  public static final Path DMI_BOARD_VENDOR = Path.of("/sys/class/dmi/id/board_vendor");
  public static final Path HYPERVISOR_UUID = Path.of("/sys/hypervisor/uuid");

  private PlatformProbes() {}

  /** The first line of a small file, trimmed, or empty when it is missing or unreadable. */
  public static Optional<String> firstLine(Path file) {
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > 4096) {
        return Optional.empty();
      }
      String text = Files.readString(file, StandardCharsets.UTF_8);
      int nl = text.indexOf('\n');
      return Optional.of((nl >= 0 ? text.substring(0, nl) : text).trim());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Whether a file's first line contains {@code needle}, ignoring case. */
  public static boolean fileContains(Path file, String needle) {
    return firstLine(file).map(s -> s.toLowerCase(Locale.ROOT).contains(needle.toLowerCase(Locale.ROOT)))
        .orElse(false);
  }

  /** Whether a file's first line starts with {@code prefix}, ignoring case. */
  public static boolean fileStartsWith(Path file, String prefix) {
    return firstLine(file).map(s -> s.toLowerCase(Locale.ROOT).startsWith(prefix.toLowerCase(Locale.ROOT)))
        .orElse(false);
  }

  /**
   * One HTTP request, no retries, no redirects, connect and read each bounded by {@code timeout}.
   *
   * @return the status and body (at most 64 KiB), or empty on any failure
   */
  public static Optional<Response> http(String method, URI uri, Map<String, String> headers, Duration timeout) {
    return exchange(method, uri, headers, timeout, timeout, PROBE_BODY_BYTES);
  }

  /** The body {@link #http} reads at most. */
  static final int PROBE_BODY_BYTES = 64 * 1024;

  /**
   * One request as {@link #http} makes it, with its own connect and read timeouts, reading at most
   * {@code maxBytes} of the body ({@link Response#complete()} says whether that was all of it).
   */
  static Optional<Response> exchange(String method, URI uri, Map<String, String> headers, Duration connectTimeout,
      Duration readTimeout, int maxBytes) {
    HttpURLConnection connection = null;
    try {
      connection = (HttpURLConnection) uri.toURL().openConnection(java.net.Proxy.NO_PROXY);
      connection.setConnectTimeout(millis(connectTimeout));
      connection.setReadTimeout(millis(readTimeout));
      connection.setInstanceFollowRedirects(false);
      connection.setUseCaches(false);
      connection.setRequestMethod(method);
      headers.forEach(connection::setRequestProperty);
      int status = connection.getResponseCode();
      var in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
      byte[] body = new byte[0];
      boolean complete = true;
      if (in != null) {
        try (in) {
          body = in.readNBytes(maxBytes);
          complete = body.length < maxBytes || in.read() < 0;
        }
      }
      Map<String, String> answerHeaders = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      connection.getHeaderFields().forEach((name, values) -> {
        if (name != null && !values.isEmpty()) {
          answerHeaders.put(name, values.get(0));
        }
      });
      return Optional.of(new Response(status, new String(body, StandardCharsets.UTF_8), answerHeaders, complete));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    } finally {
      if (connection != null) {
        connection.disconnect();
      }
    }
  }

  private static int millis(Duration timeout) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
  }

  /** An HTTP status and body. */
  public static final class Response {
    private final int status;
    private final String body;
    private final Map<String, String> headers;
    private final boolean complete;

    Response(int status, String body, Map<String, String> headers, boolean complete) {
      this.status = status;
      this.body = body;
      this.headers = headers;
      this.complete = complete;
    }

    public int status() {
      return status;
    }

    public String body() {
      return body;
    }

    /** The first value of an answer header (the name in any case), if the answer has it. */
    public Optional<String> header(String name) {
      return Optional.ofNullable(headers.get(name));
    }

    /** Whether the body is all the server sent, not cut at the size read. */
    public boolean complete() {
      return complete;
    }

    /** Whether the status is 2xx. */
    public boolean ok() {
      return status >= 200 && status < 300;
    }

    /** Only the status: a body may hold a token. */
    @Override
    public String toString() {
      return "Response{" + status + "}";
    }
  }
}
