package io.clusterresolver.cloud;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The one access token a credential uses at a time, kept until {@code margin} before it expires and then asked for
 * again: the rule of the clouds' own token caches, each with its library's margin (azure-core's {@code
 * AccessTokenCache}: 5 minutes; google-auth-library's {@code OAuth2Credentials}: a refresh margin of 3 min 45 s). A
 * token is renewed once the time left is the margin or less, as google-auth-library does (azure-core: less, which
 * differs at that one instant only); one whose expiry is not known ({@link Instant#MIN}) is used once.
 *
 * <p>Thread-safe: calls that find no token to use wait for one ask instead of each asking. A failed ask keeps
 * nothing and changes nothing: the next call asks again. The token never appears in {@link #toString()}.
 *
 * <pre>{@code
 * TokenCache tokens = TokenCache.withMargin(Duration.ofMinutes(5));
 * String bearer = tokens.get(() -> new TokenCache.Token(answer.accessToken(), answer.expiresOn()));
 * // after a 401:
 * String renewed = tokens.renew(this::ask);
 * }</pre>
 */
public final class TokenCache {

  /**
   * A token and when it expires.
   *
   * @param value the token, sent as the credential
   * @param expiresAt when it stops being accepted; {@link Instant#MIN} when that is not known
   */
  public record Token(String value, Instant expiresAt) {
    /** @throws NullPointerException when either is {@code null} */
    public Token {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** The expiry alone: the value is a secret. */
    @Override
    public String toString() {
      return "Token[expiresAt=" + expiresAt + "]";
    }
  }

  /** Where a new token comes from: a credential's request, which may fail with {@code E}. */
  @FunctionalInterface
  public interface Source<E extends Exception> {
    /** A new token. */
    Token ask() throws E;
  }

  private final Duration margin;
  private final Clock clock;
  private Token kept;

  private TokenCache(Duration margin, Clock clock) {
    this.margin = Objects.requireNonNull(margin, "margin");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (margin.isNegative()) {
      throw new IllegalArgumentException("A token's margin cannot be negative: " + margin);
    }
  }

  /** Tokens kept until {@code margin} before they expire, by the system clock. */
  public static TokenCache withMargin(Duration margin) {
    return new TokenCache(margin, Clock.systemUTC());
  }

  /** Tokens kept until {@code margin} before they expire by {@code clock} (a test's). */
  public static TokenCache withMargin(Duration margin, Clock clock) {
    return new TokenCache(margin, clock);
  }

  /** How long before its expiry a token is renewed. */
  public Duration margin() {
    return margin;
  }

  /**
   * The kept token while more than the margin of its life is left, else a new one from {@code source}, kept.
   *
   * @throws E when there is no token to use and {@code source} fails
   */
  public synchronized <E extends Exception> String get(Source<E> source) throws E {
    if (kept != null && clock.instant().plus(margin).isBefore(kept.expiresAt())) {
      return kept.value();
    }
    return renew(source);
  }

  /**
   * A new token from {@code source}, kept, whatever is kept now: after the service refused the kept one (a 401).
   *
   * @throws E when {@code source} fails (the token kept so far stays)
   */
  public synchronized <E extends Exception> String renew(Source<E> source) throws E {
    kept = Objects.requireNonNull(source.ask(), "the token source gave no token");
    return kept.value();
  }

  /** When the kept token expires; empty before the first. */
  public synchronized Optional<Instant> expiresAt() {
    return Optional.ofNullable(kept).map(Token::expiresAt);
  }

  /** The margin and the kept token's expiry, never the token. */
  @Override
  public synchronized String toString() {
    return "TokenCache{margin " + margin + (kept == null ? "" : ", expires at " + kept.expiresAt()) + "}";
  }
}
