package io.clusterresolver.cloud;

import io.clusterresolver.ClusterResolverException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

/**
 * A cloud's instance metadata service, the one way every provider asks it: {@code GET base/path}
 * through {@link PlatformProbes} (plain HTTP, no proxy, no redirects), with the service's request
 * headers, short connect and read timeouts and a small bounded answer. Optionally a token step first
 * (IMDSv2: {@code PUT /latest/api/token}, then the token in a header of the GET), a header every true
 * answer carries (Compute Engine's {@code Metadata-Flavor: Google}, so a proxy's or captive portal's
 * page is never taken for an answer) and a few retries, by default of lost answers and server errors.
 *
 * <p>A value that is not there (404) or a service that does not answer at all is an empty
 * {@link Optional}; any other answer that is not a value is a {@link BadAnswer} naming the service,
 * the request and what came back. Instances are immutable and thread-safe; nothing is cached.
 *
 * <p>A service's own retry guidance is built in with {@link Builder#retriedStatuses}, {@link
 * Builder#retriesLostAnswers} and {@link Builder#backoff}, and a request made within a resolve is
 * bounded by its {@link Deadline} ({@link #fetch(String, Deadline)}). Azure's managed identity token, as
 * IMDS's guidance asks for it:
 *
 * <pre>{@code
 * MetadataClient imds = MetadataClient.builder("azure", URI.create("http://169.254.169.254"))
 *     .header("Metadata", "true").timeout(Duration.ofSeconds(2))
 *     .retries(3).retriedStatuses(s -> s == 404 || s == 408 || s == 410 || s == 429 || s >= 500)
 *     .retriesLostAnswers(false).backoff(Duration.ofMillis(200)).jitter(false).build();
 * Optional<PlatformProbes.Response> answer = imds.fetch(tokenPathAndQuery, resolveDeadline);
 * }</pre>
 */
public final class MetadataClient {

  /** The answer size a client reads at most unless told otherwise. */
  public static final int DEFAULT_MAX_ANSWER_BYTES = 64 * 1024;

  /** What the client was built with. */
  private record Settings(String provider, URI base, Map<String, String> headers, Duration connectTimeout,
      Duration readTimeout, int maxAnswerBytes, TokenStep token, String answerHeader, String answerHeaderValue,
      Retries retries) {}

  /**
   * When a request is sent again: {@code count} more times at most, after a status {@code statuses} accepts or,
   * when {@code lostAnswers}, after no answer; waiting {@code firstBackoff}, doubled each time, jittered (between
   * half and all of it) or not.
   */
  private record Retries(int count, IntPredicate statuses, boolean lostAnswers, Duration firstBackoff,
      boolean jitter) {}

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
   * The service's last answer to {@code GET path} within {@code deadline}, whatever its status, as the
   * client's retries leave it: for a service whose answers carry more than a value (a token and its expiry,
   * an error the caller reads). Nothing is checked: the status, the header a true answer carries and
   * {@link PlatformProbes.Response#complete()} are the caller's to judge.
   *
   * <p>Under a deadline each attempt is bounded whole, its connection, headers and body (on {@link CloudHttp}, so a
   * server that trickles its answer cannot hold it), by the read timeout or the time left, whichever is less (at least
   * 1 ms: an attempt is always made); and a retry waits only when as much time again is left after the wait for the
   * next attempt. Without one ({@code null}), the client's connect and read timeouts bound each attempt, as in
   * {@link #get(String)}.
   *
   * @param path the path under {@link #base()}, with a query if the service wants one
   * @param deadline the resolve's deadline, or {@code null} outside one
   * @return the last answer, or empty when none came (or the service's token step gave no token)
   */
  public Optional<PlatformProbes.Response> fetch(String path, Deadline deadline) {
    return tokenHeaders(deadline).flatMap(sent -> request("GET", path, sent, deadline));
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
    Optional<Map<String, String>> sent = tokenHeaders(null);
    if (sent.isEmpty()) {
      whyNot.accept("no token from " + s.token().method() + " " + uri(s.token().path()));
      return Optional.empty();
    }
    Optional<PlatformProbes.Response> answer = request("GET", path, sent.get(), null);
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
      return tokenHeaders(null).flatMap(h -> request("GET", path, h, null))
          .map(r -> r.status() != 404 && checked("GET", path, r) != null).orElse(false);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The request headers, with the token when the service wants one; empty when it gave none (no GET then). */
  private Optional<Map<String, String>> tokenHeaders(Deadline deadline) {
    TokenStep token = s.token();
    if (token == null) {
      return Optional.of(s.headers());
    }
    Optional<PlatformProbes.Response> answer = request(token.method(), token.path(), token.headers(), deadline);
    return answer.map(r -> checked(token.method(), token.path(), r).trim()).filter(t -> !t.isEmpty()).map(value -> {
      Map<String, String> withToken = new LinkedHashMap<>(s.headers());
      withToken.put(token.answerHeader(), value);
      return withToken;
    });
  }

  /**
   * One request, sent again while its answer is one the retries take (by default none or a server error), retries
   * are left and, under a deadline, the wait leaves as much time again for the next attempt.
   */
  private Optional<PlatformProbes.Response> request(String method, String path, Map<String, String> sent,
      Deadline deadline) {
    URI uri = uri(path);
    Retries retries = s.retries();
    long backoffMs = retries.firstBackoff().toMillis();
    for (int attempt = 0; ; attempt++) {
      Optional<PlatformProbes.Response> answer = deadline == null
          ? PlatformProbes.exchange(method, uri, sent, s.connectTimeout(), s.readTimeout(), s.maxAnswerBytes())
          : exchangeWithin(method, uri, sent, deadline);
      boolean again = answer.isEmpty() ? retries.lostAnswers() : retries.statuses().test(answer.get().status());
      if (!again || attempt >= retries.count()) {
        return answer;
      }
      long waitMs = retries.jitter() ? ThreadLocalRandom.current().nextLong(backoffMs / 2, backoffMs + 1) : backoffMs;
      if (deadline != null && deadline.remaining().toMillis() < 2 * waitMs) {
        return answer;
      }
      try {
        Thread.sleep(waitMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return answer;
      }
      backoffMs *= 2;
    }
  }

  /**
   * One request as {@link PlatformProbes#exchange} makes it (no proxy, no redirect followed, the answer cut at the
   * size limit), the whole exchange within the read timeout or what is left of {@code deadline}; empty when no whole
   * answer came in that time.
   */
  private Optional<PlatformProbes.Response> exchangeWithin(String method, URI uri, Map<String, String> sent,
      Deadline deadline) {
    Duration left = deadline.remaining();
    Duration within = left.compareTo(s.readTimeout()) >= 0 ? s.readTimeout()
        : left.toMillis() < 1 ? Duration.ofMillis(1) : left;
    // One byte over the limit is read, to tell an answer at the limit from a longer one.
    CloudHttp http = new CloudHttp(AnswerLimit.ofBytes(s.maxAnswerBytes() + 1L), CloudHttp.Redirects.REPORTED, null);
    Map<String, List<String>> headers = new LinkedHashMap<>();
    sent.forEach((name, value) -> headers.put(name, List.of(value)));
    try (CloudHttp.Answer answer = http.send(new CloudHttp.Request(method, uri, headers, null),
        CloudHttp.Authorization.NONE, within)) {
      byte[] body = answer.body().readNBytes(s.maxAnswerBytes());
      boolean complete = body.length < s.maxAnswerBytes() || answer.body().read() < 0;
      Map<String, String> answerHeaders = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      answer.headers().forEach((name, values) -> {
        if (name != null && !values.isEmpty()) {
          answerHeaders.put(name, values.get(0));
        }
      });
      return Optional.of(new PlatformProbes.Response(answer.status(), new String(body, StandardCharsets.UTF_8),
          answerHeaders, complete));
    } catch (IOException e) {
      return Optional.empty();
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

  /**
   * Builds a {@link MetadataClient}: timeouts of 1 s to connect and 2 s to read, no retries (when asked for: of lost
   * answers and server errors, jittered from 100 ms), 64 KiB answers.
   */
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
    private IntPredicate retriedStatuses = status -> status >= 500;
    private boolean retriesLostAnswers = true;
    private Duration firstBackoff = Duration.ofMillis(100);
    private boolean jitter = true;

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

    /**
     * How many times a request is sent again at most: by default after no answer or a server error (5xx), waiting
     * between half and all of 100 ms, then of twice as long each time.
     */
    public Builder retries(int retries) {
      this.retries = Math.max(0, retries);
      return this;
    }

    /**
     * The statuses after which a request is sent again, while {@link #retries} are left: server errors (5xx) unless
     * told otherwise. A status retried to the last is the answer, as it would be unretried (404 no value, another a
     * {@link BadAnswer}).
     */
    public Builder retriedStatuses(IntPredicate statuses) {
      this.retriedStatuses = Objects.requireNonNull(statuses, "statuses");
      return this;
    }

    /**
     * Whether a request that got no answer (refused, timed out) is sent again, while {@link #retries} are left: yes
     * unless told otherwise. Off for a service that may not be there at all, where each retry would add a timeout.
     */
    public Builder retriesLostAnswers(boolean retried) {
      this.retriesLostAnswers = retried;
      return this;
    }

    /** The wait before the first retry, doubled for each next one: 100 ms unless told otherwise. */
    public Builder backoff(Duration first) {
      if (first.isNegative() || first.isZero()) {
        throw new IllegalArgumentException("backoff must be positive: " + first);
      }
      this.firstBackoff = first;
      return this;
    }

    /**
     * Whether each wait is a random time between half and all of the backoff (so that many processes asking at once
     * do not ask again at once), or the backoff exactly, as a service's retry guidance may give it: jittered unless
     * told otherwise.
     */
    public Builder jitter(boolean jitter) {
      this.jitter = jitter;
      return this;
    }

    /** The client, immutable: later changes to this builder do not reach it. */
    public MetadataClient build() {
      return new MetadataClient(new Settings(provider, base, Map.copyOf(headers), connectTimeout, readTimeout,
          maxAnswerBytes, token, answerHeader, answerHeaderValue,
          new Retries(retries, retriedStatuses, retriesLostAnswers, firstBackoff, jitter)));
    }
  }
}
