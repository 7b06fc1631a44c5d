package io.clusterresolver.slurm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Host names to Slurm's ranged form, as {@code scontrol show hostlist} and
 * {@code scontrol show hostlistsorted} write it.
 */
final class HostlistCompression {

  private HostlistCompression() {}

  /** Keeping order and duplicates: {@code node3,node1,node2} is {@code node[3,1-2]}. */
  static String compress(List<String> hosts) {
    List<HostRange> ranges = new ArrayList<>();
    for (String host : hosts) {
      push(ranges, HostRange.ofHostname(Objects.requireNonNull(host, "host")));
    }
    return rangedString(ranges);
  }

  /** Sorted by prefix in natural order, then by number. */
  static String compressSorted(List<String> hosts) {
    List<HostRange> ranges = new ArrayList<>();
    for (String host : hosts) {
      push(ranges, HostRange.ofHostname(Objects.requireNonNull(host, "host")));
    }
    sortLikeSlurm(ranges);
    coalesce(ranges);
    collapse(ranges);
    return rangedString(ranges);
  }


  /** Appends a range, merging it into the last one when it continues it (Slurm's push). */
  static void push(List<HostRange> ranges, HostRange range) {
    if (!ranges.isEmpty()) {
      HostRange tail = ranges.get(ranges.size() - 1);
      if (!tail.single() && !range.single() && tail.hi() == range.lo() - 1 && range.lo() != 0
          && tail.prefix().equals(range.prefix())) {
        int[] widths = {tail.width(), range.width()};
        if (widthsEquivalent(tail.lo(), range.lo(), widths)) {
          ranges.set(ranges.size() - 1, new HostRange(tail.prefix(), tail.lo(), range.hi(), widths[0], false));
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
      if (rank.putIfAbsent(range.prefix(), 0) == null) {
        prefixes.add(range.prefix());
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
      ranked.add(new Ranked(rank.get(range.prefix()), range));
    }
    ranked.sort((x, y) -> {
      int byPrefix = Integer.compare(x.prefixRank(), y.prefixRank());
      if (byPrefix != 0) {
        return byPrefix;
      }
      HostRange a = x.range();
      HostRange b = y.range();
      if (a.single() != b.single()) {
        return a.single() ? -1 : 1; // Slurm puts a host without number before numbered ones
      }
      if (a.single()) {
        return 0;
      }
      if (widthsCompatible(a.lo(), a.width(), b.lo(), b.width())) {
        return Long.compareUnsigned(a.lo(), b.lo());
      }
      return Integer.compare(a.width(), b.width());
    });
    for (int i = 0; i < ranked.size(); i++) {
      ranges.set(i, ranked.get(i).range());
    }
  }

  /** A range with the rank of its prefix, so that sorting compares integers. */
  private record Ranked(int prefixRank, HostRange range) {}

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
      if (prev.single() || next.single() || Long.compareUnsigned(prev.hi(), next.lo()) <= 0
          || !prev.prefix().equals(next.prefix())) {
        continue;
      }
      int[] widths = {prev.width(), next.width()};
      if (!widthsEquivalent(prev.lo(), next.lo(), widths)) {
        continue;
      }
      long overlapLo = next.lo();
      long overlapHi = Long.compareUnsigned(next.hi(), prev.hi()) < 0 ? next.hi() : prev.hi();
      int width = widths[0];
      long nextHi = Long.compareUnsigned(overlapHi, prev.hi()) < 0 ? prev.hi() : next.hi();
      HostRange newPrev = new HostRange(prev.prefix(), prev.lo(), overlapLo, widths[0], false);
      HostRange newNext = new HostRange(next.prefix(), overlapHi, nextHi, widths[1], false);
      ranges.set(i - 1, newPrev);
      ranges.set(i, newNext);
      int j = i;
      for (long n = overlapLo; Long.compareUnsigned(n, overlapHi) <= 0; n++) {
        HostRange one = new HostRange(prev.prefix(), n, n, width, false);
        if (Long.compareUnsigned(n, newPrev.hi()) > 0) {
          ranges.add(j++, one);
        }
        if (Long.compareUnsigned(n, newNext.lo()) < 0) {
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
      int[] widths = {prev.width(), current.width()};
      if (!prev.single() && !current.single() && prev.hi() == current.lo() - 1 && current.lo() != 0
          && prev.prefix().equals(current.prefix()) && widthsEquivalent(prev.lo(), current.lo(), widths)) {
        current = new HostRange(prev.prefix(), prev.lo(), current.hi(), widths[0], false);
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
      out.append(first.prefix());
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
    return !a.single() && !b.single() && a.prefix().equals(b.prefix());
  }

  /** Appends {@code number} (unsigned) with at least {@code width} digits, without garbage. */
  static void appendPadded(StringBuilder out, long number, int width) {
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
}
