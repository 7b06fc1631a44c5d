package io.clusterresolver.testkit;

/** JSON text every simulation writes: string literals. */
final class Json {

  private Json() {}

  /** A JSON string literal ({@code null}: the literal {@code null}). */
  static String quote(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /** The text of a JSON string literal, without its quotes. */
  static String escape(String s) {
    String quoted = quote(s);
    return quoted.substring(1, quoted.length() - 1);
  }
}
