package io.clusterresolver.cloud;

import java.util.Locale;

/**
 * Which of a member's addresses its tasks listen on, named the same in every cloud's
 * {@code address} property ({@link CloudProperties#address}). A provider reads only the chosen
 * one from each member; a member without it is left out (and logged), never given another.
 */
public enum AddressType {
  /** The private IPv4 address of the primary network interface (the default everywhere). */
  PRIVATE_IPV4,
  /** The public (external, NAT) IPv4 address. */
  PUBLIC_IPV4,
  /** The primary IPv6 address, written in brackets in {@code host:port}. */
  IPV6,
  /** The private DNS name. */
  PRIVATE_DNS,
  /** The public DNS name. */
  PUBLIC_DNS;

  /** The value of the {@code address} property: {@code private-ipv4}, {@code ipv6}, … */
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The type a property value names.
   *
   * @throws IllegalArgumentException for an unknown name
   */
  public static AddressType parse(String configName) {
    for (AddressType type : values()) {
      if (type.configName().equals(configName)) {
        return type;
      }
    }
    throw new IllegalArgumentException("Unknown address type '" + configName + "'");
  }
}
