package io.clusterresolver.slurm;

import java.util.ArrayList;
import java.util.List;

/** Slurm's host-list parser: text to {@link HostRange}s, bounded against hostile input. */
final class HostlistParser {

  private static final String SEPARATORS = "\t, ";

  private HostlistParser() {}


  static List<HostRange> parse(String hostlist) {
    List<HostRange> ranges = new ArrayList<>();
    long[] total = {0};
    int position = 0;
    int length = hostlist.length();
    while (true) {
      while (position < length && isSeparator(hostlist.charAt(position))) {
        position++;
      }
      if (position >= length) {
        break;
      }
      int end = tokenEnd(hostlist, position);
      parseToken(hostlist, hostlist.substring(position, end), ranges, total);
      position = end;
    }
    return ranges;
  }

  private static boolean isSeparator(char c) {
    return SEPARATORS.indexOf(c) >= 0;
  }

  /**
   * The end of the item that starts at {@code start}: the next separator that is not inside a
   * bracket pair. A bracket closed after the separator extends the item to the next separator
   * after that bracket; an unclosed bracket does not.
   */
  private static int tokenEnd(String s, int start) {
    int end = start;
    int parse = start;
    while (true) {
      while (end < s.length() && !isSeparator(s.charAt(end))) {
        end++;
      }
      while (true) {
        int open = indexWithin(s, '[', parse, end);
        if (open < 0) {
          return end;
        }
        int close = s.indexOf(']', parse);
        if (close < 0 || close < open) {
          return end;
        }
        if (close < end) {
          parse = close + 1;
          continue;
        }
        end = close;
        break;
      }
    }
  }

  /** The first {@code c} in {@code s[from..to]} (inclusive), or -1: never scans past the item. */
  private static int indexWithin(String s, char c, int from, int to) {
    int limit = Math.min(to, s.length() - 1);
    for (int i = from; i <= limit; i++) {
      if (s.charAt(i) == c) {
        return i;
      }
    }
    return -1;
  }

  private static void parseToken(String hostlist, String token, List<HostRange> out, long[] total) {
    int open = token.lastIndexOf('[');
    if (open < 0) {
      add(hostlist, out, HostRange.ofHostname(token), total);
      return;
    }
    String prefix = token.substring(0, open);
    String rest = token.substring(open + 1);
    int close = rest.indexOf(']');
    if (close < 0) {
      // Slurm's own reading of an unclosed bracket: the prefix with a ']' appended, or the text
      // after the bracket when there is no prefix ("node[1-3" is "node]", "[1-3" is "1-3").
      add(hostlist, out, HostRange.ofHostname(prefix.isEmpty() ? rest : prefix + "]"), total);
      return;
    }
    // Only a comma may follow the closing bracket (Slurm then ignores the rest of the item).
    if (close != rest.length() - 1 && rest.charAt(close + 1) != ',') {
      throw invalid(hostlist, "text after ']' in '" + token + "'");
    }
    List<NumberRange> numbers = parseRangeList(hostlist, rest.substring(0, close));
    expandPrefix(hostlist, prefix, numbers, out, total);
  }

  /**
   * Pushes {@code prefix} + each range, expanding earlier bracket groups of the prefix first. The
   * last group varies fastest, then the first, second, ... as in Slurm ({@code a[1-2]b[3-4]c[5-6]}
   * starts a1b3c5, a1b3c6, a2b3c5).
   */
  private static void expandPrefix(
      String hostlist, String prefix, List<NumberRange> numbers, List<HostRange> out, long[] total) {
    int open = prefix.lastIndexOf('[');
    int close = open < 0 ? -1 : prefix.lastIndexOf(']');
    if (open >= 0 && close > open) {
      String head = prefix.substring(0, open);
      String between = prefix.substring(close + 1);
      List<NumberRange> outer = parseRangeList(hostlist, prefix.substring(open + 1, close));
      for (NumberRange range : outer) {
        if (range.hi() == -1L && range.lo() != -1L) {
          // Slurm prints nothing for such a list (after a long loop): so do we, at once.
          out.add(new HostRange(head, -2L, -1L, 0, false));
          return;
        }
        for (long n = range.lo(); Long.compareUnsigned(n, range.hi()) <= 0; n++) {
          String newPrefix = head + HostlistCompression.format(n, range.width()) + between;
          expandPrefix(hostlist, newPrefix, numbers, out, total);
          if (n == -1L) {
            break; // 2^64-1: the unsigned loop would wrap
          }
        }
      }
      return;
    }
    for (NumberRange range : numbers) {
      add(hostlist, out, new HostRange(prefix, range.lo(), range.hi(), range.width(), false), total);
    }
  }

  private static void add(String hostlist, List<HostRange> out, HostRange range, long[] total) {
    total[0] += range.count();
    if (total[0] > Hostlist.MAX_HOSTS) {
      throw new IllegalArgumentException("Host list '" + abbreviate(hostlist)
          + "' expands to more than " + Hostlist.MAX_HOSTS + " hosts");
    }
    HostlistCompression.push(out, range);
  }

  /** A comma-separated list of numbers and ranges, such as {@code 01,03-05}. */
  private static List<NumberRange> parseRangeList(String hostlist, String text) {
    List<NumberRange> ranges = new ArrayList<>();
    int start = 0;
    while (true) {
      int comma = text.indexOf(',', start);
      String item = comma < 0 ? text.substring(start) : text.substring(start, comma);
      ranges.add(parseRange(hostlist, item));
      if (comma < 0) {
        return ranges;
      }
      start = comma + 1;
    }
  }

  /**
   * One number or range: {@code lo} or {@code lo-hi}. Numbers are read like C's {@code strtoul}
   * (leading blanks and a sign allowed), the width is the length of the first bound as written,
   * blanks and any text after its digits included (Slurm 22.05's {@code _parse_single_range}).
   */
  private static NumberRange parseRange(String hostlist, String item) {
    if (item.indexOf('x') >= 0) {
      throw invalidRange(hostlist, item);
    }
    int dash = item.indexOf('-');
    String loText = dash < 0 ? item : item.substring(0, dash);
    String hiText = dash < 0 ? "" : item.substring(dash + 1);
    if (hiText.startsWith("-")) {
      throw invalidRange(hostlist, item);
    }
    ParsedNumber lo = ParsedNumber.strtoul(loText);
    // Slurm checks only the last number read for trailing text: before a dash and an upper bound,
    // anything after the lower bound's digits is ignored ("1 - 2" and "1a-2" are 01..02).
    if (lo == null || (hiText.isEmpty() && lo.end() != loText.length())) {
      throw invalidRange(hostlist, item);
    }
    long hi = lo.value();
    if (!hiText.isEmpty()) {
      ParsedNumber parsedHi = ParsedNumber.strtoul(hiText);
      if (parsedHi == null || parsedHi.end() != hiText.length()) {
        throw invalidRange(hostlist, item);
      }
      hi = parsedHi.value();
    }
    if (Long.compareUnsigned(lo.value(), hi) > 0) {
      throw invalidRange(hostlist, item);
    }
    if (Long.compareUnsigned(hi - lo.value(), Hostlist.MAX_RANGE - 1) > 0) {
      throw new IllegalArgumentException("Invalid host list '" + abbreviate(hostlist)
          + "': too many hosts in range '" + item + "' (at most " + Hostlist.MAX_RANGE + ")");
    }
    return new NumberRange(lo.value(), hi, loText.length());
  }

  private static IllegalArgumentException invalidRange(String hostlist, String item) {
    return invalid(hostlist, "invalid range '" + item + "'");
  }

  private static IllegalArgumentException invalid(String hostlist, String why) {
    return new IllegalArgumentException("Invalid host list '" + abbreviate(hostlist) + "': " + why);
  }

  private static String abbreviate(String text) {
    return text.length() <= 200 ? text : text.substring(0, 200) + "...";
  }
}
