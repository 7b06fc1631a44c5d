package io.clusterresolver.cloud;

import io.clusterresolver.ClusterResolverException;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * A cloud's instance metadata service, the one way every provider asks it: {@code GET base/path}
 * through {@link PlatformProbes} (plain HTTP, no proxy, no redirects), with the service's request
 * headers, short connect and read timeouts and a small bounded answer. Optionally a token step first
 * (IMDSv2: {@code PUT /latest/api/token}, then the token in a header of the GET), a header every true
 * answer carries (Compute Engine's {@code Metadata-Flavor: Google}, so a proxy's or captive portal's
 * page is never taken for an answer) and a few retries of lost answers and server errors.
 *
 * <p>A value that is not there (404) or a service that does not answer at all is an empty
 * {@link Optional}; any other answer that is not a value is a {@link BadAnswer} naming the service,
 * the request and what came back. Instances are immutable and thread-safe; nothing is cached.
 */
public final class MetadataClient {

  /** The answer size a client reads at most unless told otherwise. */
  public static final int DEFAULT_MAX_ANSWER_BYTES = 64 * 1024;

  /** What the client was built with. */
  private record Settings(String provider, URI base, Map<String, String> headers, Duration connectTimeout,
      Duration readTimeout, int maxAnswerBytes, TokenStep token, String answerHeader, String answerHeaderValue,
      int retries) {}

  private final Settings s;

  private MetadataClient(Settings settings) {
    this.s = settings;
  }

  /**
   * A client of the service at {@code base}.
   *
   * @param provider the provider's name, the first word of every message
   * @param base the service's address; a path is kept, every request's path is appended to it
   */
  public static Builder builder(String provider, URI base) {
    return new Builder(provider, base);
  }

  /** The service's address. */
  public URI base() {
    return s.base();
  }

  /**
   * One value: the answer's body, trimmed.
   *
   * @param path the path under {@link #base()}, with a query if the service wants one
   * @return the value, or empty when the service has none (404, or an empty body) or does not answer
   * @throws BadAnswer when the service answers something else: another status, an answer without the
   *     header a true answer carries, or one over the size limit
   */
  public Optional<String> get(String path) {
    return value(path, why -> { });
  }

  /**
   * One value as {@link #get(String)} reads it, never throwing: when there is none, {@code whyNot} is
   * told why in a few words (no answer, HTTP 404, or what was wrong with the answer), for a log line.
   */
  public Optional<String> get(String path, Consumer<String> whyNot) {
    try {
      return value(path, whyNot);
    } catch (BadAnswer e) {
      whyNot.accept(e.reason());
      return Optional.empty();
    }
  }

  private Optional<String> value(String path, Consumer<String> whyNot) {
    Optional<Map<String, String>> sent = tokenHeaders();
    if (sent.isEmpty()) {
      whyNot.accept("no token from " + s.token().method() + " " + uri(s.token().path()));
      return Optional.empty();
    }
    Optional<PlatformProbes.Response> answer = request("GET", path, sent.get());
    Optional<String> value = answer.map(r -> checked("GET", path, r).trim()).filter(v -> !v.isEmpty());
    if (value.isEmpty()) {
      whyNot.accept(answer.map(r -> "HTTP " + r.status() + (r.status() == 404 ? "" : ", empty") + " from ")
          .orElse("no answer from ") + uri(path));
    }
    return value;
  }

  /**
   * Whether the service answers {@code path} as itself (a 2xx answer, with the header a true answer
   * carries), even with an empty body; never throws: for platform detection.
   */
  public boolean answers(String path) {
    try {
      return tokenHeaders().flatMap(h -> request("GET", path, h))
          .map(r -> r.status() != 404 && checked("GET", path, r) != null).orElse(false);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The request headers, with the token when the service wants one; empty when it gave none (no GET then). */
  private Optional<Map<String, String>> tokenHeaders() {
    TokenStep token = s.token();
    if (token == null) {
      return Optional.of(s.headers());
    }
    Optional<PlatformProbes.Response> answer = request(token.method(), token.path(), token.headers());
    return answer.map(r -> checked(token.method(), token.path(), r).trim()).filter(t -> !t.isEmpty()).map(value -> {
      Map<String, String> withToken = new LinkedHashMap<>(s.headers());
      withToken.put(token.answerHeader(), value);
      return withToken;
    });
  }

  /** One request, retried when no answer or a server error (5xx) comes back and retries are left. */
  private Optional<PlatformProbes.Response> request(String method, String path, Map<String, String> sent) {
    URI uri = uri(path);
    long backoffMs = 100;
    for (int attempt = 0; ; attempt++) {
      Optional<PlatformProbes.Response> answer =
          PlatformProbes.exchange(method, uri, sent, s.connectTimeout(), s.readTimeout(), s.maxAnswerBytes());
      boolean again = answer.isEmpty() || answer.get().status() >= 500;
      if (!again || attempt >= s.retries()) {
        return answer;
      }
      try {
        Thread.sleep(ThreadLocalRandom.current().nextLong(backoffMs / 2, backoffMs + 1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return answer;
      }
      backoffMs *= 2;
    }
  }

  /** The body of an answer that is a value, else {@code ""} for a 404; anything else is a {@link BadAnswer}. */
  private String checked(String method, String path, PlatformProbes.Response answer) {
    if (answer.status() == 404) {
      return "";
    }
    String request = method + " " + uri(path);
    if (!answer.ok()) {
      throw new BadAnswer(s.provider(), "the metadata service answered " + request + " with HTTP " + answer.status());
    }
    String flavor = s.answerHeader();
    if (flavor != null && !answer.header(flavor).filter(s.answerHeaderValue()::equals).isPresent()) {
      throw new BadAnswer(s.provider(), request + " was answered without " + flavor + ": " + s.answerHeaderValue()
          + ", so not by the metadata service (a proxy or a captive portal?)");
    }
    if (!answer.complete()) {
      throw new BadAnswer(s.provider(), "the metadata service's answer to " + request + " is over "
          + s.maxAnswerBytes() / 1024 + " KiB");
    }
    return answer.body();
  }

  private URI uri(String path) {
    String start = s.base().toString().replaceAll("/+$", "");
    return URI.create(start + "/" + (path.startsWith("/") ? path.substring(1) : path));
  }

  @Override
  public String toString() {
    return "MetadataClient{" + s.provider() + ", " + s.base() + "}";
  }

  /** The metadata service answered, but not with a value: an error status, a stranger's page, too much. */
  public static final class BadAnswer extends ClusterResolverException {
    private static final long serialVersionUID = 1L;
    private final String reason;

    BadAnswer(String provider, String reason) {
      super(provider + ": " + reason);
      this.reason = reason;
    }

    /** What was wrong, without the provider's name in front. */
    public String reason() {
      return reason;
    }
  }

  /** A token asked for first and sent with every GET (IMDSv2's session token). */
  private record TokenStep(String method, String path, Map<String, String> headers, String answerHeader) {
    TokenStep {
      headers = Map.copyOf(headers);
    }
  }

  /** Builds a {@link MetadataClient}: timeouts of 1 s to connect and 2 s to read, no retries, 64 KiB answers. */
  public static final class Builder {
    private final String provider;
    private final URI base;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private Duration connectTimeout = Duration.ofSeconds(1);
    private Duration readTimeout = Duration.ofSeconds(2);
    private int maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES;
    private TokenStep token;
    private String answerHeader;
    private String answerHeaderValue;
    private int retries;

    private Builder(String provider, URI base) {
      this.provider = provider;
      this.base = base;
    }

    /** A header sent with every request ({@code Metadata: true}, {@code Metadata-Flavor: Google}). */
    public Builder header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    /** The longest wait for a connection and, separately, for each read of the answer. */
    public Builder timeouts(Duration connect, Duration read) {
      this.connectTimeout = connect;
      this.readTimeout = read;
      return this;
    }

    /** One timeout for both the connection and each read (a detection probe's). */
    public Builder timeout(Duration timeout) {
      return timeouts(timeout, timeout);
    }

    /** The largest answer read; a larger one is a {@link BadAnswer}. */
    public Builder maxAnswerBytes(int bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("maxAnswerBytes must be positive: " + bytes);
      }
      this.maxAnswerBytes = bytes;
      return this;
    }

    /** A header and value every answer of the true service carries ({@code Metadata-Flavor: Google}). */
    public Builder answersWith(String name, String value) {
      this.answerHeader = name;
      this.answerHeaderValue = value;
      return this;
    }

    /**
     * A token asked for before every GET, sent back in {@code tokenHeader}: IMDSv2's
     * {@code PUT /latest/api/token} with {@code x-aws-ec2-metadata-token-ttl-seconds}, then
     * {@code x-aws-ec2-metadata-token}. Without a token no GET goes out: the value is absent.
     */
    public Builder token(String method, String path, Map<String, String> requestHeaders, String tokenHeader) {
      this.token = new TokenStep(method, path, requestHeaders, tokenHeader);
      return this;
    }

    /** Retries of a request that got no answer or a server error (5xx), with jittered backoff from 100 ms. */
    public Builder retries(int retries) {
      this.retries = Math.max(0, retries);
      return this;
    }

    public MetadataClient build() {
      return new MetadataClient(new Settings(provider, base, Map.copyOf(headers), connectTimeout, readTimeout,
          maxAnswerBytes, token, answerHeader, answerHeaderValue, retries));
    }
  }
}
