package io.clusterresolver.cloud;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * Reads the times clouds write in RFC 3339 ({@code 2024-05-01T10:20:30.123-07:00}, {@code 2026-11-27T04:00:00.000Z}:
 * Compute Engine's {@code creationTimestamp}, EC2's {@code launchTime}, a Kubernetes object's {@code
 * creationTimestamp}) as {@link OffsetDateTime#parse} does. That
 * shape is read field by field: the JDK's formatter, interpreted on a cold start, cost about a tenth of a cold
 * resolve's CPU for a thousand instances (issue 23). Any other text, a value out of range included, goes to the
 * formatter, which accepts it or says what is wrong with it.
 */
public final class Rfc3339 {

  private Rfc3339() {}

  /**
   * The instant {@code text} names.
   *
   * @param text a date, time and offset, {@code yyyy-MM-ddTHH:mm:ss[.fraction](Z|±HH:mm)}
   * @return the instant, as {@code OffsetDateTime.parse(text).toInstant()} gives it
   * @throws DateTimeParseException when {@link OffsetDateTime#parse} would
   */
  public static Instant parse(String text) {
    Instant read = common(text);
    return read != null ? read : OffsetDateTime.parse(text).toInstant();
  }

  /** {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}](Z|±HH:mm)} with every field in range, else {@code null}. */
  private static Instant common(String t) {
    int n = t.length();
    if (n < 20 || t.charAt(4) != '-' || t.charAt(7) != '-' || t.charAt(10) != 'T' || t.charAt(13) != ':'
        || t.charAt(16) != ':') {
      return null;
    }
    int year = digits(t, 0, 4);
    int month = digits(t, 5, 2);
    int day = digits(t, 8, 2);
    int hour = digits(t, 11, 2);
    int minute = digits(t, 14, 2);
    int second = digits(t, 17, 2);
    int at = 19;
    int nanos = 0;
    if (t.charAt(at) == '.') {
      int start = ++at;
      while (at < n && at - start < 10 && t.charAt(at) >= '0' && t.charAt(at) <= '9') {
        nanos = nanos * 10 + (t.charAt(at++) - '0');
      }
      int count = at - start;
      if (count == 0 || count > 9) {
        return null;
      }
      for (int i = count; i < 9; i++) {
        nanos *= 10;
      }
    }
    int offsetSeconds;
    if (at == n - 1 && t.charAt(at) == 'Z') {
      offsetSeconds = 0;
    } else if (at == n - 6 && (t.charAt(at) == '+' || t.charAt(at) == '-') && t.charAt(at + 3) == ':') {
      int hours = digits(t, at + 1, 2);
      int minutes = digits(t, at + 4, 2);
      if (hours < 0 || minutes < 0 || hours > 18 || minutes > 59 || hours == 18 && minutes > 0) {
        return null;
      }
      offsetSeconds = (t.charAt(at) == '-' ? -1 : 1) * (hours * 3600 + minutes * 60);
    } else {
      return null;
    }
    if (year < 0 || month < 0 || day < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0
        || second > 59) {
      return null;
    }
    try {
      return LocalDateTime.of(year, month, day, hour, minute, second, nanos)
          .toInstant(ZoneOffset.ofTotalSeconds(offsetSeconds));
    } catch (DateTimeException e) {
      return null; // a day the month does not have: the formatter words the error
    }
  }

  /** The {@code count} decimal digits at {@code from}, or -1 when one is not a digit. */
  private static int digits(String t, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = t.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
