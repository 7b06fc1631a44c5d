package io.clusterresolver.cloud;

import io.clusterresolver.ClusterResolverException;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The order in which members take task indices: a deterministic function of the member set, so
 * every process computes the same cluster. Ties are always broken by member id.
 *
 * <p>Written in configuration as {@code creation-time} (the default: oldest first), {@code id},
 * {@code name}, {@code address} (IP addresses compared numerically, IPv4 before IPv6, host names
 * in natural order, so {@code node2} comes before {@code node10}) or {@code tag:KEY} (the integer
 * value of a tag or label, smallest first).
 */
public final class MemberOrder {

  /** Oldest first; members without a creation time after those with one. Then by id. */
  public static final MemberOrder CREATION_TIME = new MemberOrder("creation-time", null,
      Comparator.comparing((Member m) -> m.creationTime().orElse(Instant.MAX)));
  /** By id. */
  public static final MemberOrder ID = new MemberOrder("id", null, (a, b) -> 0);
  /** By name in natural order; members without a name after those with one. */
  public static final MemberOrder NAME = new MemberOrder("name", null,
      Comparator.comparing((Member m) -> m.name().orElse(null),
          Comparator.nullsLast(MemberOrder::compareNatural)));
  /** By address: IPv4 numerically, then IPv6 numerically, then host names in natural order. */
  public static final MemberOrder ADDRESS = new MemberOrder("address", null,
      (a, b) -> compareAddresses(a.address(), b.address()));

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private final String text;
  private final String tag;
  private final Comparator<Member> comparator;

  private MemberOrder(String text, String tag, Comparator<Member> primary) {
    this.text = text;
    this.tag = tag;
    this.comparator = primary.thenComparing(Member::id);
  }

  /** By the integer value of a tag or label; a member without it, or with a non-integer value, fails the layout. */
  public static MemberOrder byTag(String key) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("Order by tag needs a tag key, like tag:rank");
    }
    return new MemberOrder("tag:" + key, key,
        Comparator.comparing((Member m) -> tagValue(m, key)));
  }

  /**
   * By the integer value of a tag or label for the members that have it, as {@link #byTag(String)}; the members
   * without it after them, in the order {@code untagged}. For members that carry a rank in some setups only: a Uniform
   * Azure scale set's instances have an instance id, a Flexible set's members none, and go by creation time.
   *
   * @throws IllegalArgumentException when {@code key} is empty
   */
  public static MemberOrder byTag(String key, MemberOrder untagged) {
    Objects.requireNonNull(untagged, "untagged");
    MemberOrder tagged = byTag(key);
    return new MemberOrder(tagged.text + ", then " + untagged, key, (a, b) -> {
      boolean hasA = a.labels().containsKey(key);
      if (hasA != b.labels().containsKey(key)) {
        return hasA ? -1 : 1;
      }
      return (hasA ? tagged : untagged).comparator.compare(a, b);
    });
  }

  /**
   * Parses {@code creation-time}, {@code id}, {@code name}, {@code address} or {@code tag:KEY}.
   *
   * @throws IllegalArgumentException for anything else, listing the accepted forms
   */
  public static MemberOrder parse(String text) {
    String t = Objects.requireNonNull(text, "order").trim();
    switch (t) {
      case "creation-time":
        return CREATION_TIME;
      case "id":
        return ID;
      case "name":
        return NAME;
      case "address":
        return ADDRESS;
      default:
        if (t.startsWith("tag:")) {
          return byTag(t.substring(4).trim());
        }
        throw new IllegalArgumentException(
            "Unknown order '" + text + "': use creation-time, id, name, address or tag:KEY");
    }
  }

  /** The comparator, ties broken by id. */
  public Comparator<Member> comparator() {
    return comparator;
  }


  private static BigInteger tagValue(Member m, String key) {
    String value = m.labels().get(key);
    if (value == null) {
      throw new ClusterResolverException("Member " + m.id() + " has no tag '" + key
          + "' to order by: tag every member or choose another order");
    }
    try {
      return new BigInteger(value.trim());
    } catch (NumberFormatException e) {
      throw new ClusterResolverException("Member " + m.id() + " has tag " + key + "='" + value
          + "', which is not an integer: the order tag:" + key + " needs integer values");
    }
  }

  /** Compares two addresses: IPv4 literals, then IPv6 literals (each numerically), then names (naturally). */
  static int compareAddresses(String a, String b) {
    byte[] x = ipLiteral(a);
    byte[] y = ipLiteral(b);
    if (x != null && y != null) {
      if (x.length != y.length) {
        return Integer.compare(x.length, y.length);
      }
      return new BigInteger(1, x).compareTo(new BigInteger(1, y));
    }
    if (x != null || y != null) {
      return x != null ? -1 : 1;
    }
    return compareNatural(a, b);
  }

  /** The bytes of an IP literal, or {@code null} for a host name. Never does a DNS lookup. */
  static byte[] ipLiteral(String address) {
    String host = address.startsWith("[") && address.endsWith("]")
        ? address.substring(1, address.length() - 1) : address;
    if (IPV4.matcher(host).matches()) {
      String[] parts = host.split("\\.");
      byte[] bytes = new byte[4];
      for (int i = 0; i < 4; i++) {
        int v = Integer.parseInt(parts[i]);
        if (v > 255) {
          return null;
        }
        bytes[i] = (byte) v;
      }
      return bytes;
    }
    if (host.indexOf(':') >= 0 && host.matches("[0-9A-Fa-f:.%a-zA-Z0-9]+")) {
      try {
        // A literal with a colon is parsed, never looked up.
        return java.net.InetAddress.getByName(host).getAddress();
      } catch (java.net.UnknownHostException e) {
        return null;
      }
    }
    return null;
  }

  /** Natural order: runs of digits compare as numbers, so {@code n2 < n10}. */
  static int compareNatural(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      char ca = a.charAt(i);
      char cb = b.charAt(j);
      if (Character.isDigit(ca) && Character.isDigit(cb)) {
        int si = i;
        int sj = j;
        while (i < a.length() && Character.isDigit(a.charAt(i))) {
          i++;
        }
        while (j < b.length() && Character.isDigit(b.charAt(j))) {
          j++;
        }
        int c = new BigInteger(a.substring(si, i)).compareTo(new BigInteger(b.substring(sj, j)));
        if (c != 0) {
          return c;
        }
      } else {
        if (ca != cb) {
          return Character.compare(ca, cb);
        }
        i++;
        j++;
      }
    }
    int c = Integer.compare(a.length() - i, b.length() - j);
    return c != 0 ? c : a.compareTo(b);
  }

  @Override
  public String toString() {
    return text;
  }
}
