package io.clusterresolver.slurm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Slurm host lists ({@code node[01-04,7],gpu-a100-[1-2]}), with the same answers as a real Slurm's
 * {@code scontrol show hostnames} ({@link #expand}), {@code scontrol show hostlist}
 * ({@link #compress}) and {@code scontrol show hostlistsorted} ({@link #compressSorted}).
 *
 * <p>Expansion follows Slurm's parser exactly, including its corner cases: items are separated by
 * commas, blanks or tabs (empty items are skipped, a comma inside brackets is not a separator);
 * order and duplicates are kept; the zero padding of a range is the width of its first bound as
 * written ({@code node[1-010]} is {@code node1..node10}); several bracket groups expand as a
 * cartesian product ({@code n[1-2][3-4]} is {@code n13,n14,n23,n24}); text after the last closing
 * bracket, reversed ranges, empty brackets and steps are rejected with an
 * {@link IllegalArgumentException}; an unclosed bracket is taken literally as Slurm does
 * ({@code node[1-3} is {@code node]}). One range may hold at most 65&#8239;536 hosts, like Slurm,
 * and one expansion at most {@value #MAX_HOSTS} hosts, so that hostile input can neither hang nor
 * exhaust memory.
 *
 * <p>All methods are pure functions of their arguments and thread-safe.
 */
public final class Hostlist {

  /** The largest number of hosts in one range, as in Slurm ({@code MAX_RANGE}). */
  public static final int MAX_RANGE = 64 * 1024;

  /** The largest number of hosts one call of {@link #expand} returns. */
  public static final int MAX_HOSTS = 1 << 20;

  private static final String SEPARATORS = "\t, ";

  private Hostlist() {}

  /**
   * Expands a host list into host names, in Slurm's order, duplicates kept.
   *
   * @throws IllegalArgumentException when Slurm rejects the list ({@code Invalid hostlist}), or when
   *     it would expand to more than {@value #MAX_HOSTS} hosts
   */
  public static List<String> expand(String hostlist) {
    Objects.requireNonNull(hostlist, "hostlist");
    List<HostRange> ranges = parse(hostlist);
    long total = 0;
    for (HostRange range : ranges) {
      if (range.endsAtUnsignedMax()) {
        // Slurm's own quirk: a range that ends at 2^64-1 (its "empty" marker) makes scontrol print
        // no host at all for the whole list.
        return new ArrayList<>();
      }
      total += range.count();
    }
    List<String> hosts = new ArrayList<>((int) total);
    for (HostRange range : ranges) {
      range.appendHosts(hosts);
    }
    return hosts;
  }

  /**
   * The number of hosts a host list expands to, without building their names.
   *
   * @throws IllegalArgumentException as {@link #expand}
   */
  public static int count(String hostlist) {
    Objects.requireNonNull(hostlist, "hostlist");
    long total = 0;
    for (HostRange range : parse(hostlist)) {
      if (range.endsAtUnsignedMax()) {
        return 0;
      }
      total += range.count();
    }
    return (int) total;
  }

  /**
   * Compresses host names into Slurm's ranged form, keeping their order and duplicates, like
   * {@code scontrol show hostlist}: {@code node3,node1,node2} is {@code node[3,1-2]}.
   */
  public static String compress(List<String> hosts) {
    Objects.requireNonNull(hosts, "hosts");
    List<HostRange> ranges = new ArrayList<>();
    for (String host : hosts) {
      push(ranges, HostRange.ofHostname(Objects.requireNonNull(host, "host")));
    }
    return rangedString(ranges);
  }

  /**
   * Sorts, then compresses host names, like {@code scontrol show hostlistsorted}: names sort by
   * prefix in natural order ({@code rack2} before {@code rack10}), then by number; differently
   * padded numbers stay apart ({@code node[1,01,001]}).
   */
  public static String compressSorted(List<String> hosts) {
    Objects.requireNonNull(hosts, "hosts");
    List<HostRange> ranges = new ArrayList<>();
    for (String host : hosts) {
      push(ranges, HostRange.ofHostname(Objects.requireNonNull(host, "host")));
    }
    sortLikeSlurm(ranges);
    coalesce(ranges);
    collapse(ranges);
    return rangedString(ranges);
  }

  // ---- parsing --------------------------------------------------------------------------------

  private static List<HostRange> parse(String hostlist) {
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
        if (range.hi == -1L && range.lo != -1L) {
          // Slurm prints nothing for such a list (after a long loop): so do we, at once.
          out.add(new HostRange(head, -2L, -1L, 0, false));
          return;
        }
        for (long n = range.lo; Long.compareUnsigned(n, range.hi) <= 0; n++) {
          String newPrefix = head + format(n, range.width) + between;
          expandPrefix(hostlist, newPrefix, numbers, out, total);
          if (n == -1L) {
            break; // 2^64-1: the unsigned loop would wrap
          }
        }
      }
      return;
    }
    for (NumberRange range : numbers) {
      add(hostlist, out, new HostRange(prefix, range.lo, range.hi, range.width, false), total);
    }
  }

  private static void add(String hostlist, List<HostRange> out, HostRange range, long[] total) {
    total[0] += range.count();
    if (total[0] > MAX_HOSTS) {
      throw new IllegalArgumentException("Host list '" + abbreviate(hostlist)
          + "' expands to more than " + MAX_HOSTS + " hosts");
    }
    push(out, range);
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
   * (leading blanks and a sign allowed), the width is the length of the first bound as written.
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
    if (lo == null || lo.end != loText.length()) {
      throw invalidRange(hostlist, item);
    }
    long hi = lo.value;
    if (!hiText.isEmpty()) {
      ParsedNumber parsedHi = ParsedNumber.strtoul(hiText);
      if (parsedHi == null || parsedHi.end != hiText.length()) {
        throw invalidRange(hostlist, item);
      }
      hi = parsedHi.value;
    }
    if (Long.compareUnsigned(lo.value, hi) > 0) {
      throw invalidRange(hostlist, item);
    }
    if (Long.compareUnsigned(hi - lo.value, MAX_RANGE - 1) > 0) {
      throw new IllegalArgumentException("Invalid host list '" + abbreviate(hostlist)
          + "': too many hosts in range '" + item + "' (at most " + MAX_RANGE + ")");
    }
    return new NumberRange(lo.value, hi, loText.length());
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

  // ---- ranges ---------------------------------------------------------------------------------

  /** Appends a range, merging it into the last one when it continues it (Slurm's push). */
  private static void push(List<HostRange> ranges, HostRange range) {
    if (!ranges.isEmpty()) {
      HostRange tail = ranges.get(ranges.size() - 1);
      if (!tail.single && !range.single && tail.hi == range.lo - 1 && range.lo != 0
          && tail.prefix.equals(range.prefix)) {
        int[] widths = {tail.width, range.width};
        if (widthsEquivalent(tail.lo, range.lo, widths)) {
          ranges.set(ranges.size() - 1, new HostRange(tail.prefix, tail.lo, range.hi, widths[0], false));
          return;
        }
      }
    }
    ranges.add(range);
  }

  /**
   * Whether two paddings can share one range: equal, or one can take the other's width without
   * changing how its first number prints. On success {@code widths} holds the common width.
   */
  private static boolean widthsEquivalent(long n, long m, int[] widths) {
    int wn = widths[0];
    int wm = widths[1];
    if (wn == wm) {
      return true;
    }
    int npad = zeroPadding(n, wn);
    int nmpad = zeroPadding(n, wm);
    int mpad = zeroPadding(m, wm);
    int mnpad = zeroPadding(m, wn);
    if (npad != nmpad && mpad != mnpad) {
      return false;
    }
    if (npad != nmpad) {
      widths[1] = wn;
    } else {
      widths[0] = wm;
    }
    return true;
  }

  private static int zeroPadding(long number, int width) {
    int digits = Long.toUnsignedString(number).length();
    return Math.max(0, width - digits);
  }

  /**
   * Sorts ranges in Slurm's order: prefix in natural order (see {@link NaturalOrder}), a host
   * without number before numbered ones, then number, or width when paddings differ. Distinct
   * prefixes are few, so they are ranked once and the sort compares integers.
   */
  private static void sortLikeSlurm(List<HostRange> ranges) {
    List<String> prefixes = new ArrayList<>();
    Map<String, Integer> rank = new HashMap<>();
    for (HostRange range : ranges) {
      if (rank.putIfAbsent(range.prefix, 0) == null) {
        prefixes.add(range.prefix);
      }
    }
    prefixes.sort(NaturalOrder::compare);
    for (int i = 0; i < prefixes.size(); i++) {
      // Prefixes equal in natural order (they differ only in blanks) share a rank, as in Slurm.
      boolean same = i > 0 && NaturalOrder.compare(prefixes.get(i - 1), prefixes.get(i)) == 0;
      rank.put(prefixes.get(i), same ? rank.get(prefixes.get(i - 1)) : i);
    }
    List<Ranked> ranked = new ArrayList<>(ranges.size());
    for (HostRange range : ranges) {
      ranked.add(new Ranked(rank.get(range.prefix), range));
    }
    ranked.sort((x, y) -> {
      int byPrefix = Integer.compare(x.prefixRank, y.prefixRank);
      if (byPrefix != 0) {
        return byPrefix;
      }
      HostRange a = x.range;
      HostRange b = y.range;
      if (a.single != b.single) {
        return a.single ? -1 : 1; // Slurm puts a host without number before numbered ones
      }
      if (a.single) {
        return 0;
      }
      if (widthsCompatible(a.lo, a.width, b.lo, b.width)) {
        return Long.compareUnsigned(a.lo, b.lo);
      }
      return Integer.compare(a.width, b.width);
    });
    for (int i = 0; i < ranked.size(); i++) {
      ranges.set(i, ranked.get(i).range);
    }
  }

  /** A range with the rank of its prefix, so that sorting compares integers. */
  private static final class Ranked {
    final int prefixRank;
    final HostRange range;

    Ranked(int prefixRank, HostRange range) {
      this.prefixRank = prefixRank;
      this.range = range;
    }
  }

  private static boolean widthsCompatible(long n, int wn, long m, int wm) {
    return wn == wm || zeroPadding(n, wn) == zeroPadding(n, wm) || zeroPadding(m, wm) == zeroPadding(m, wn);
  }

  /**
   * Splits overlapping neighbours of a sorted list so that each number appears once per range
   * (Slurm's coalesce): {@code [1-3],[2-4]} becomes {@code [1-2],[2],[3],[3-4]}.
   */
  private static void coalesce(List<HostRange> ranges) {
    for (int i = ranges.size() - 1; i > 0; i--) {
      HostRange prev = ranges.get(i - 1);
      HostRange next = ranges.get(i);
      if (prev.single || next.single || Long.compareUnsigned(prev.hi, next.lo) <= 0
          || !prev.prefix.equals(next.prefix)) {
        continue;
      }
      int[] widths = {prev.width, next.width};
      if (!widthsEquivalent(prev.lo, next.lo, widths)) {
        continue;
      }
      long overlapLo = next.lo;
      long overlapHi = Long.compareUnsigned(next.hi, prev.hi) < 0 ? next.hi : prev.hi;
      int width = widths[0];
      long nextHi = Long.compareUnsigned(overlapHi, prev.hi) < 0 ? prev.hi : next.hi;
      HostRange newPrev = new HostRange(prev.prefix, prev.lo, overlapLo, widths[0], false);
      HostRange newNext = new HostRange(next.prefix, overlapHi, nextHi, widths[1], false);
      ranges.set(i - 1, newPrev);
      ranges.set(i, newNext);
      int j = i;
      for (long n = overlapLo; Long.compareUnsigned(n, overlapHi) <= 0; n++) {
        HostRange one = new HostRange(prev.prefix, n, n, width, false);
        if (Long.compareUnsigned(n, newPrev.hi) > 0) {
          ranges.add(j++, one);
        }
        if (Long.compareUnsigned(n, newNext.lo) < 0) {
          ranges.add(j++, one);
        }
        if (n == -1L) {
          break;
        }
      }
      i = ranges.size(); // start over, as Slurm does
    }
  }

  /**
   * Joins neighbours that continue each other (Slurm's collapse), right to left as Slurm does, in
   * one pass (removing from the list one by one would be quadratic).
   */
  private static void collapse(List<HostRange> ranges) {
    if (ranges.size() < 2) {
      return;
    }
    List<HostRange> reversed = new ArrayList<>(ranges.size());
    HostRange current = ranges.get(ranges.size() - 1);
    for (int i = ranges.size() - 2; i >= 0; i--) {
      HostRange prev = ranges.get(i);
      int[] widths = {prev.width, current.width};
      if (!prev.single && !current.single && prev.hi == current.lo - 1 && current.lo != 0
          && prev.prefix.equals(current.prefix) && widthsEquivalent(prev.lo, current.lo, widths)) {
        current = new HostRange(prev.prefix, prev.lo, current.hi, widths[0], false);
      } else {
        reversed.add(current);
        current = prev;
      }
    }
    reversed.add(current);
    ranges.clear();
    for (int i = reversed.size() - 1; i >= 0; i--) {
      ranges.add(reversed.get(i));
    }
  }

  /** Slurm's ranged string: neighbouring ranges with one prefix share a bracket. */
  private static String rangedString(List<HostRange> ranges) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < ranges.size()) {
      if (i > 0) {
        out.append(',');
      }
      HostRange first = ranges.get(i);
      boolean bracket = first.count() > 1
          || (i + 1 < ranges.size() && sameBracket(first, ranges.get(i + 1)));
      out.append(first.prefix);
      if (bracket) {
        out.append('[');
      }
      int j = i;
      do {
        if (j > i) {
          out.append(',');
        }
        ranges.get(j).appendNumbers(out);
        j++;
      } while (j < ranges.size() && sameBracket(ranges.get(j), ranges.get(j - 1)));
      if (bracket) {
        out.append(']');
      }
      i = j;
    }
    return out.toString();
  }

  private static boolean sameBracket(HostRange a, HostRange b) {
    return !a.single && !b.single && a.prefix.equals(b.prefix);
  }

  /** Appends {@code number} (unsigned) with at least {@code width} digits, without garbage. */
  private static void appendPadded(StringBuilder out, long number, int width) {
    if (number < 0) { // above 2^63-1: rare, take the simple way
      out.append(format(number, width));
      return;
    }
    int digits = 1;
    for (long rest = number / 10; rest != 0; rest /= 10) {
      digits++;
    }
    for (int k = digits; k < width; k++) {
      out.append('0');
    }
    out.append(number);
  }

  static String format(long number, int width) {
    String digits = Long.toUnsignedString(number);
    if (digits.length() >= width) {
      return digits;
    }
    StringBuilder padded = new StringBuilder(width);
    for (int k = digits.length(); k < width; k++) {
      padded.append('0');
    }
    return padded.append(digits).toString();
  }

  /** A numeric range {@code lo..hi} (unsigned) of one bracket item and its zero-padding width. */
  private static final class NumberRange {
    final long lo;
    final long hi;
    final int width;

    NumberRange(long lo, long hi, int width) {
      this.lo = lo;
      this.hi = hi;
      this.width = width;
    }
  }

  /** A number read like C's strtoul in base 10: value (saturated) and where reading stopped. */
  private static final class ParsedNumber {
    final long value;
    final int end;

    private ParsedNumber(long value, int end) {
      this.value = value;
      this.end = end;
    }

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
  private static final class HostRange {

    final String prefix;
    final long lo;
    final long hi;
    final int width;
    final boolean single;

    HostRange(String prefix, long lo, long hi, int width, boolean single) {
      this.prefix = prefix;
      this.lo = lo;
      this.hi = hi;
      this.width = width;
      this.single = single;
    }

    /** A host name split into prefix and trailing digits, as Slurm does. */
    static HostRange ofHostname(String host) {
      int idx = host.length() - 1;
      while (idx >= 0 && host.charAt(idx) >= '0' && host.charAt(idx) <= '9') {
        idx--;
      }
      if (idx == host.length() - 1) {
        return new HostRange(host, 0, 0, 0, true);
      }
      String suffix = host.substring(idx + 1);
      ParsedNumber number = ParsedNumber.strtoul(suffix);
      return new HostRange(host.substring(0, idx + 1), number.value, number.value, suffix.length(), false);
    }

    long count() {
      return single ? 1 : hi - lo + 1;
    }

    boolean endsAtUnsignedMax() {
      return !single && hi == -1L && lo != -1L;
    }

    void appendHosts(List<String> hosts) {
      if (single) {
        hosts.add(prefix);
        return;
      }
      StringBuilder name = new StringBuilder(prefix.length() + Math.max(width, 20)).append(prefix);
      for (long n = lo; ; n++) {
        name.setLength(prefix.length());
        appendPadded(name, n, width);
        hosts.add(name.toString());
        if (n == hi) {
          break;
        }
      }
    }

    void appendNumbers(StringBuilder out) {
      if (single) {
        return;
      }
      out.append(format(lo, width));
      if (Long.compareUnsigned(lo, hi) < 0) {
        out.append('-').append(format(hi, width));
      }
    }
  }

  /**
   * Natural string order as Slurm's {@code strnatcmp}: runs of digits compare as numbers (a run
   * with a leading zero compares digit by digit, as a fraction would), everything else by char.
   */
  static final class NaturalOrder {
    private NaturalOrder() {}

    static int compare(String a, String b) {
      int i = 0;
      int j = 0;
      while (true) {
        while (i < a.length() && Character.isWhitespace(a.charAt(i))) {
          i++;
        }
        while (j < b.length() && Character.isWhitespace(b.charAt(j))) {
          j++;
        }
        char ca = i < a.length() ? a.charAt(i) : 0;
        char cb = j < b.length() ? b.charAt(j) : 0;
        if (isDigit(ca) && isDigit(cb)) {
          boolean fractional = ca == '0' || cb == '0';
          int[] ends = new int[2];
          int result = fractional ? compareLeft(a, i, b, j, ends) : compareRight(a, i, b, j, ends);
          if (result != 0) {
            return result;
          }
          i = ends[0];
          j = ends[1];
          continue;
        }
        if (ca == 0 && cb == 0) {
          return 0;
        }
        if (ca != cb) {
          return ca < cb ? -1 : 1;
        }
        i++;
        j++;
      }
    }

    private static boolean isDigit(char c) {
      return c >= '0' && c <= '9';
    }

    /** Right-aligned digit runs: the longer run is larger; else the first difference decides. */
    private static int compareRight(String a, int i, String b, int j, int[] ends) {
      int bias = 0;
      while (true) {
        boolean da = i < a.length() && isDigit(a.charAt(i));
        boolean db = j < b.length() && isDigit(b.charAt(j));
        if (!da && !db) {
          ends[0] = i;
          ends[1] = j;
          return bias;
        }
        if (!da) {
          return -1;
        }
        if (!db) {
          return 1;
        }
        if (bias == 0) {
          bias = Character.compare(a.charAt(i), b.charAt(j));
          bias = Integer.signum(bias);
        }
        i++;
        j++;
      }
    }

    /** Left-aligned digit runs (leading zeros): the first difference decides. */
    private static int compareLeft(String a, int i, String b, int j, int[] ends) {
      while (true) {
        boolean da = i < a.length() && isDigit(a.charAt(i));
        boolean db = j < b.length() && isDigit(b.charAt(j));
        if (!da && !db) {
          ends[0] = i;
          ends[1] = j;
          return 0;
        }
        if (!da) {
          return -1;
        }
        if (!db) {
          return 1;
        }
        int c = Character.compare(a.charAt(i), b.charAt(j));
        if (c != 0) {
          return Integer.signum(c);
        }
        i++;
        j++;
      }
    }
  }
}
