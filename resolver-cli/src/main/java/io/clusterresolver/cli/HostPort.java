package io.clusterresolver.cli;

import java.util.OptionalInt;

/** Splits task addresses ({@code host:port}, {@code [v6]:port}, or a bare host) into their parts. */
final class HostPort {

  private HostPort() {}

  /** The host: {@code 10.0.0.1} of {@code 10.0.0.1:2222}, {@code ::1} of {@code [::1]:2222}. */
  static String host(String address) {
    if (address.startsWith("[")) {
      int close = address.indexOf(']');
      return close > 0 ? address.substring(1, close) : address;
    }
    int colon = address.lastIndexOf(':');
    // More than one colon without brackets is a bare IPv6 address with no port.
    if (colon < 0 || address.indexOf(':') != colon) {
      return address;
    }
    return address.substring(0, colon);
  }

  /** The port, when the address has one. */
  static OptionalInt port(String address) {
    int colon = address.lastIndexOf(':');
    if (colon < 0 || (!address.startsWith("[") && address.indexOf(':') != colon)
        || (address.startsWith("[") && colon < address.indexOf(']'))) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(address.substring(colon + 1)));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }
}
