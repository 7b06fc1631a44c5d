package io.clusterresolver.slurm;

import java.util.List;

/** A prefix and a numeric range of host names ({@code node[01-04]}): the unit Slurm parses, expands and compresses. */
record HostRange(String prefix, long lo, long hi, int width, boolean single) {

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
    return new HostRange(host.substring(0, idx + 1), number.value(), number.value(), suffix.length(), false);
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
      HostlistCompression.appendPadded(name, n, width);
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
    out.append(HostlistCompression.format(lo, width));
    if (Long.compareUnsigned(lo, hi) < 0) {
      out.append('-').append(HostlistCompression.format(hi, width));
    }
  }
}

/**
 * Natural string order as Slurm's {@code strnatcmp}: runs of digits compare as numbers (a run
 * with a leading zero compares digit by digit, as a fraction would), everything else by char.
 */
