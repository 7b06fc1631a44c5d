package io.clusterresolver.cloud;

import io.clusterresolver.spi.ResolverConfig;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The one shape of an SDK adapter: every answer a provider's SDK reads is bounded by its {@link
 * AnswerLimit} (at most {@code max-answer-mib}) and read, the whole body, within what is left of the
 * resolve's {@link Deadline}, or within the provider's {@code timeout} for a request made outside a
 * resolve. A broken bound is one {@link AnswerLimitException} worded the same for every cloud: where the
 * answer came from ({@link #origin}), the limit and its property, and the setting that points there.
 * Each provider keeps only the hook its SDK offers (an interceptor, an HTTP client, a connection
 * factory), which hands the body to {@link #stream} or its pieces to a {@link #meter}. Immutable.
 *
 * <pre>{@code
 * BoundedAnswers bounds = BoundedAnswers.of(config);
 * // an SDK interceptor, for each answer:
 * InputStream body = bounds.stream(raw, request.uri(), bounds.within(session.deadline()));
 * }</pre>
 */
public final class BoundedAnswers {

  private final AnswerLimit limit;
  private final Duration timeout;

  private BoundedAnswers(AnswerLimit limit, Duration timeout) {
    this.limit = Objects.requireNonNull(limit, "limit");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("An answer's time must be positive, not " + timeout);
    }
  }

  /** {@link CloudProperties#MAX_ANSWER_MIB} and {@link CloudProperties#TIMEOUT} of a provider's configuration. */
  public static BoundedAnswers of(ResolverConfig config) {
    return new BoundedAnswers(AnswerLimit.of(config), config.get(CloudProperties.TIMEOUT));
  }

  /** {@code limit}, and {@code timeout} for a request made outside a resolve. */
  public static BoundedAnswers of(AnswerLimit limit, Duration timeout) {
    return new BoundedAnswers(limit, timeout);
  }

  /**
   * The same bounds for answers of an endpoint that another setting than the provider's {@code
   * endpoint} points at (a token endpoint, say): {@code check} is what a too large answer's error tells
   * the user to check instead of {@code check that clusterresolver.<provider>.endpoint points at the API}.
   *
   * @param check the advice, such as {@code "check AZURE_AUTHORITY_HOST"}
   */
  public BoundedAnswers advising(String check) {
    return new BoundedAnswers(limit.advising(check), timeout);
  }

  /** The size limit. */
  public AnswerLimit limit() {
    return limit;
  }

  /** The time of an answer read outside a resolve: the provider's {@code timeout}. */
  public Duration timeout() {
    return timeout;
  }

  /**
   * The time an answer has: what is left of {@code deadline} (at least 1 ms, so that an expired
   * deadline fails the read instead of meaning "no limit"), or {@link #timeout()} when the request is
   * made outside a resolve.
   *
   * @param deadline the resolve's deadline, or {@code null}
   */
  public Duration within(Deadline deadline) {
    if (deadline == null) {
      return timeout;
    }
    Duration left = deadline.remaining();
    return left.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : left;
  }

  /** {@link #within(Deadline)} of a deadline the SDK's call may or may not carry. */
  public Duration within(Optional<Deadline> deadline) {
    return within(deadline.orElse(null));
  }

  /**
   * {@code body} of an answer from {@code from}, read under the limit and all of it within {@code
   * within}; past either, the stream closes {@code body} (ending the exchange) and throws an {@link
   * AnswerLimitException}.
   */
  public InputStream stream(InputStream body, URI from, Duration within) {
    return limit.bound(body, origin(from), within);
  }

  /** A meter for a body from {@code from} that arrives in pieces (an asynchronous client's buffers). */
  public AnswerLimit.Meter meter(URI from, Duration within) {
    return limit.meter(origin(from), within);
  }

  /**
   * {@code https://ec2.us-east-1.amazonaws.com:443}: where an answer came from as the errors name it,
   * with the scheme's default port made explicit and without user info, path or query (which may hold
   * a token or a page cursor).
   */
  public static String origin(URI uri) {
    int port = uri.getPort();
    if (port < 0) {
      port = "https".equalsIgnoreCase(uri.getScheme()) ? 443 : "http".equalsIgnoreCase(uri.getScheme()) ? 80 : -1;
    }
    return uri.getScheme() + "://" + uri.getHost() + (port < 0 ? "" : ":" + port);
  }

  @Override
  public String toString() {
    return "BoundedAnswers{" + limit + ", timeout " + timeout.toMillis() + " ms}";
  }
}
