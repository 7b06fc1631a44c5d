package io.clusterresolver.internal;

import java.util.regex.Pattern;

/**
 * Text we did not write (an API's or a relay's error body, a job name from a cloud's tags, a user's
 * URL) made safe to print in a message, a log line or a terminal table.
 *
 * <p>Not public API: {@code io.clusterresolver.internal} may change in any release.
 */
public final class UntrustedText {

  /** The user-info part of a URL ({@code https://user:password@host}): it may hold a password. */
  private static final Pattern USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^/?#@\\s]*@");

  private UntrustedText() {}

  /**
   * The text with every control character (C0, DEL, C1: line breaks and terminal escapes included)
   * and every invisible format character (bidirectional overrides, U+2028/U+2029) written as a Java
   * escape {@code \}{@code uXXXX}, so it can neither forge a log line nor rewrite a terminal.
   */
  public static String escape(String text) {
    if (text == null) {
      return null;
    }
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints().forEach(c -> {
      if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
          || Character.getType(c) == Character.LINE_SEPARATOR || Character.getType(c) == Character.PARAGRAPH_SEPARATOR) {
        for (char unit : Character.toChars(c)) {
          out.append(String.format("\\u%04x", (int) unit));
        }
      } else {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
  }

  /** {@link #escape(String)}, cut after {@code maxCodePoints} code points (marked with "…"). */
  public static String escape(String text, int maxCodePoints) {
    if (text == null || text.codePointCount(0, text.length()) <= maxCodePoints) {
      return escape(text);
    }
    return escape(text.substring(0, text.offsetByCodePoints(0, maxCodePoints))) + "…";
  }

  /** The text with the user info of every URL in it ({@code user:password@}) replaced by {@code ***@}. */
  public static String withoutUserInfo(String text) {
    return text == null ? null : USER_INFO.matcher(text).replaceAll("$1***@");
  }
}
