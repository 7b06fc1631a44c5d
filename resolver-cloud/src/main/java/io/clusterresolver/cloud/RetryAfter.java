package io.clusterresolver.cloud;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.function.UnaryOperator;

/**
 * Reads an HTTP {@code Retry-After} header (RFC 9110 §10.2.3): either a number of seconds
 * ({@code 120}) or an HTTP-date in its preferred form ({@code Fri, 31 Dec 1999 23:59:59 GMT}; the obsolete RFC 850
 * and asctime forms read as absent), turned into how long to wait from {@code now}. A provider puts it on its failure with {@link ApiFailure#withRetryAfter}; {@link
 * CloudApi} waits that long before the next attempt when the deadline leaves time for it, and gives up
 * at once when it does not. {@link #fromHeaders} also reads the millisecond headers Azure's services send.
 */
public final class RetryAfter {

  /** Millisecond forms Azure's services send, read before {@code Retry-After}, in this order. */
  private static final String[] MILLISECOND_HEADERS = {"retry-after-ms", "x-ms-retry-after-ms"};

  /** Longer than any wait a resolve could honour; bounds the arithmetic of absurd values. */
  private static final long MAX_SECONDS = 366L * 24 * 3600;

  private RetryAfter() {}

  /**
   * The wait a {@code Retry-After} value asks for.
   *
   * @param value the header's value, or {@code null}
   * @param now the time the answer came (for an HTTP-date)
   * @return the wait, zero for a date already past, or {@code null} when {@code value} is absent or neither form
   */
  public static Duration parse(String value, Instant now) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.trim();
    if (v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return Duration.ofSeconds(v.length() > 9 ? MAX_SECONDS : Math.min(MAX_SECONDS, Long.parseLong(v)));
    }
    try {
      Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration wait = Duration.between(now, at);
      return wait.isNegative() ? Duration.ZERO : wait;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /**
   * The wait an answer's headers ask for: {@code retry-after-ms} or {@code x-ms-retry-after-ms} (a number of
   * milliseconds, which Azure's services send, some beside a {@code Retry-After} rounded to seconds), else {@code
   * Retry-After} as {@link #parse} reads it. A millisecond header that is not a number of at most 9 digits is passed
   * over.
   *
   * @param header an answer's header value by name (HTTP header names are case-insensitive), {@code null} when absent
   * @param now the time the answer came (for an HTTP-date)
   * @return the wait, or {@code null} when no header asks for one
   */
  public static Duration fromHeaders(UnaryOperator<String> header, Instant now) {
    for (String name : MILLISECOND_HEADERS) {
      String ms = header.apply(name);
      if (ms != null && !ms.isBlank()) {
        String v = ms.trim();
        if (v.length() <= 9 && v.chars().allMatch(c -> c >= '0' && c <= '9')) {
          return Duration.ofMillis(Long.parseLong(v));
        }
      }
    }
    return parse(header.apply("Retry-After"), now);
  }
}
