package io.clusterresolver;

import java.util.Objects;

/**
 * A task's {@code host:port}, the one way every resolver writes and reads an address: an IPv6
 * literal is written in brackets ({@code [fd00::1]:8888}), the port is between 1 and 65535, and the
 * host is a DNS name, an IPv4 literal or an IPv6 literal — never text with spaces, control
 * characters or a second colon that would make the address ambiguous downstream (a hostfile line,
 * a gRPC target). Immutable.
 *
 * <pre>{@code
 * TaskAddress.of("fd00::1", 8888).toString();   // "[fd00::1]:8888"
 * TaskAddress.parse("[fd00::1]:8888").host();   // "fd00::1"
 * }</pre>
 *
 * @param host the host name or IP literal, without brackets
 * @param port the port, 1 to 65535
 */
public record TaskAddress(String host, int port) {

  /** The highest TCP port. */
  public static final int MAX_PORT = 65535;

  /**
   * Checks the parts.
   *
   * @throws IllegalArgumentException naming the host or port and what is wrong with it
   */
  public TaskAddress {
    Objects.requireNonNull(host, "host");
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    String problem = hostProblem(host);
    if (problem != null) {
      throw new IllegalArgumentException("Host '" + printable(host) + "' " + problem);
    }
    if (port < 1 || port > MAX_PORT) {
      throw new IllegalArgumentException("Port " + port + " of host " + host + " is not between 1 and " + MAX_PORT);
    }
  }

  /** An address from its parts; a bracketed IPv6 host is accepted too. */
  public static TaskAddress of(String host, int port) {
    return new TaskAddress(host, port);
  }

  /**
   * Parses {@code host:port} or {@code [ipv6]:port}.
   *
   * @throws IllegalArgumentException naming the text and what is wrong with it
   */
  public static TaskAddress parse(String text) {
    Objects.requireNonNull(text, "address");
    String host;
    String port;
    if (text.startsWith("[")) {
      int close = text.indexOf(']');
      if (close < 0 || close + 1 >= text.length() || text.charAt(close + 1) != ':') {
        throw new IllegalArgumentException("Address '" + printable(text) + "' is not [IPv6]:port");
      }
      host = text.substring(1, close);
      port = text.substring(close + 2);
    } else {
      int colon = text.lastIndexOf(':');
      if (colon <= 0 || text.indexOf(':') != colon) {
        throw new IllegalArgumentException("Address '" + printable(text)
            + "' is not host:port (an IPv6 host is written in brackets: [fd00::1]:8888)");
      }
      host = text.substring(0, colon);
      port = text.substring(colon + 1);
    }
    if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException("Address '" + printable(text) + "' has no valid port (1 to " + MAX_PORT + ")");
    }
    return new TaskAddress(host, Integer.parseInt(port));
  }

  /** Whether the host is an IPv6 literal (written in brackets). */
  public boolean isIpv6() {
    return host.indexOf(':') >= 0;
  }

  /** This address with another port (such as {@code port + local index}). */
  public TaskAddress withPort(int newPort) {
    return new TaskAddress(host, newPort);
  }

  /** {@code host:port}, or {@code [host]:port} for an IPv6 literal. */
  @Override
  public String toString() {
    return isIpv6() ? "[" + host + "]:" + port : host + ":" + port;
  }

  /** Why a host cannot be used, or {@code null} when it can. */
  private static String hostProblem(String host) {
    if (host.isEmpty()) {
      return "is empty";
    }
    if (host.length() > 253 && host.indexOf(':') < 0) {
      return "is longer than 253 characters";
    }
    boolean colon = host.indexOf(':') >= 0;
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '.' || c == '_' || (colon && (c == ':' || c == '%'));
      if (!ok) {
        return "contains " + describe(c) + ": a host is a DNS name, an IPv4 address or an IPv6 address";
      }
    }
    if (colon && !host.matches("[0-9A-Fa-f:.]+(%[A-Za-z0-9._-]+)?")) {
      return "is not a valid IPv6 address";
    }
    return null;
  }

  private static String describe(char c) {
    if (c == ' ') {
      return "a space";
    }
    if (Character.isISOControl(c)) {
      return String.format("the control character U+%04X", (int) c);
    }
    return "'" + c + "'";
  }

  private static String printable(String text) {
    return io.clusterresolver.internal.UntrustedText.escape(text, 200);
  }

}
