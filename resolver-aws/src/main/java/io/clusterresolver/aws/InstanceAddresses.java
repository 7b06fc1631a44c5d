package io.clusterresolver.aws;

import io.clusterresolver.cloud.AddressType;
import java.util.Optional;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceIpv6Address;
import software.amazon.awssdk.services.ec2.model.InstanceNetworkInterface;

/** Reads the one address of an instance that the {@code address} property chose. */
final class InstanceAddresses {

  private InstanceAddresses() {}

  /** The chosen address, or empty when the instance has none of this type (yet). */
  static Optional<String> of(AddressType type, Instance i) {
    switch (type) {
      case PUBLIC_IPV4:
        return nonEmpty(i.publicIpAddress());
      case IPV6:
        return ipv6(i);
      case PRIVATE_DNS:
        return nonEmpty(i.privateDnsName());
      case PUBLIC_DNS:
        return nonEmpty(i.publicDnsName());
      default:
        return nonEmpty(i.privateIpAddress());
    }
  }

  private static Optional<String> ipv6(Instance i) {
    Optional<String> top = nonEmpty(i.ipv6Address());
    if (top.isPresent()) {
      return top;
    }
    // Older answers carry IPv6 only on the network interfaces: the primary one first.
    String first = null;
    for (InstanceNetworkInterface eni : i.networkInterfaces()) {
      for (InstanceIpv6Address a : eni.ipv6Addresses()) {
        if (a.ipv6Address() != null && !a.ipv6Address().isEmpty()) {
          if (Boolean.TRUE.equals(a.isPrimaryIpv6())) {
            return Optional.of(a.ipv6Address());
          }
          if (first == null) {
            first = a.ipv6Address();
          }
        }
      }
    }
    return Optional.ofNullable(first);
  }

  private static Optional<String> nonEmpty(String s) {
    return s == null || s.isEmpty() ? Optional.empty() : Optional.of(s);
  }
}
