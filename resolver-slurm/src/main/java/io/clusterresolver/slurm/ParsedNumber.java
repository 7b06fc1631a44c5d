package io.clusterresolver.slurm;

/** A decimal number read from a host-list bound, with its written width (for zero padding). */
record ParsedNumber(long value, int end) {

  /** Returns {@code null} when there are no digits (strtoul's "no conversion"). */
  static ParsedNumber strtoul(String s) {
    int i = 0;
    while (i < s.length() && isCSpace(s.charAt(i))) {
      i++;
    }
    boolean negative = false;
    if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
      negative = s.charAt(i) == '-';
      i++;
    }
    int digitsStart = i;
    long value = 0;
    boolean overflow = false;
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      int digit = s.charAt(i) - '0';
      if (!overflow) {
        // value * 10 + digit > 2^64-1 ?
        if (Long.compareUnsigned(value, Long.divideUnsigned(-1L, 10)) > 0
            || (value == Long.divideUnsigned(-1L, 10) && digit > Long.remainderUnsigned(-1L, 10))) {
          overflow = true;
        } else {
          value = value * 10 + digit;
        }
      }
      i++;
    }
    if (i == digitsStart) {
      return null;
    }
    if (overflow) {
      value = -1L; // ULONG_MAX, as strtoul saturates
    } else if (negative) {
      value = -value;
    }
    return new ParsedNumber(value, i);
  }

  private static boolean isCSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
  }
}

/**
 * Hosts with one prefix and consecutive numbers {@code lo..hi} printed with at least
 * {@code width} digits, or a single host without a numeric suffix.
 */
