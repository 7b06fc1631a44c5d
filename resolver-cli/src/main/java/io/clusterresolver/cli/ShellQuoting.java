package io.clusterresolver.cli;

import java.util.regex.Pattern;

/** POSIX shell quoting, so that {@code eval "$(cluster-resolver resolve --format env)"} is safe. */
final class ShellQuoting {

  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  private ShellQuoting() {}

  /** The value as one shell word: unchanged when it has no special character, else single-quoted. */
  static String quote(String value) {
    if (SAFE.matcher(value).matches()) {
      return value;
    }
    return "'" + value.replace("'", "'\\''") + "'";
  }
}
