package io.clusterresolver.slurm;

import java.util.ArrayList;
import java.util.List;
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
 * <p>All methods are pure functions of their arguments and thread-safe. The work is done by
 * {@code HostlistParser} (Slurm's parser and expansion) and {@code HostlistCompression} (ranged
 * output); this class is their public face.
 */
public final class Hostlist {

  /** The largest number of hosts in one range, as in Slurm ({@code MAX_RANGE}). */
  public static final int MAX_RANGE = 64 * 1024;

  /** The largest number of hosts one call of {@link #expand} returns. */
  public static final int MAX_HOSTS = 1 << 20;

  private Hostlist() {}

  /**
   * Expands a host list into host names, in Slurm's order, duplicates kept.
   *
   * @throws IllegalArgumentException when Slurm rejects the list ({@code Invalid hostlist}), or when
   *     it would expand to more than {@value #MAX_HOSTS} hosts
   */
  public static List<String> expand(String hostlist) {
    Objects.requireNonNull(hostlist, "hostlist");
    List<HostRange> ranges = HostlistParser.parse(hostlist);
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
    for (HostRange range : HostlistParser.parse(hostlist)) {
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
    return HostlistCompression.compress(hosts);
  }

  /**
   * Sorts, then compresses host names, like {@code scontrol show hostlistsorted}: names sort by
   * prefix in natural order ({@code rack2} before {@code rack10}), then by number; differently
   * padded numbers stay apart ({@code node[1,01,001]}).
   */
  public static String compressSorted(List<String> hosts) {
    Objects.requireNonNull(hosts, "hosts");
    return HostlistCompression.compressSorted(hosts);
  }
}
