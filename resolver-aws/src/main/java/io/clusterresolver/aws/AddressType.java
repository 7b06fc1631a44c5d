package io.clusterresolver.aws;

import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceIpv6Address;
import software.amazon.awssdk.services.ec2.model.InstanceNetworkInterface;

/** Which address of an instance tasks listen on; only the chosen one is ever read. */
enum AddressType {
  PRIVATE_IPV4("private-ipv4") {
    @Override
    Optional<String> of(Instance i) {
      return nonEmpty(i.privateIpAddress());
    }
  },
  PUBLIC_IPV4("public-ipv4") {
    @Override
    Optional<String> of(Instance i) {
      return nonEmpty(i.publicIpAddress());
    }
  },
  IPV6("ipv6") {
    @Override
    Optional<String> of(Instance i) {
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
  },
  PRIVATE_DNS("private-dns") {
    @Override
    Optional<String> of(Instance i) {
      return nonEmpty(i.privateDnsName());
    }
  },
  PUBLIC_DNS("public-dns") {
    @Override
    Optional<String> of(Instance i) {
      return nonEmpty(i.publicDnsName());
    }
  };

  private final String configName;

  AddressType(String configName) {
    this.configName = configName;
  }

  /** The chosen address, or empty when the instance has none of this type (yet). */
  abstract Optional<String> of(Instance instance);

  String configName() {
    return configName;
  }

  static List<String> configNames() {
    return List.of("private-ipv4", "public-ipv4", "ipv6", "private-dns", "public-dns");
  }

  static AddressType parse(String name) {
    for (AddressType t : values()) {
      if (t.configName.equals(name)) {
        return t;
      }
    }
    throw new IllegalArgumentException("Unknown address type " + name);
  }

  private static Optional<String> nonEmpty(String s) {
    return s == null || s.isEmpty() ? Optional.empty() : Optional.of(s);
  }
}
