package io.clusterresolver.gce;

import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.AddressType;
import io.clusterresolver.cloud.Rfc3339;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/** What the provider reads off one Compute Engine instance ({@link GceInstance}). */
final class InstanceFacts {

  /** Labels Cloud TPU puts on its TPU VM hosts: those belong to the {@code tpu} provider. */
  static final List<String> TPU_LABELS = List.of("tpu_cores", "tpu_name");

  /** Machine families whose GPUs come with the machine type, not as guestAccelerators. */
  private static final List<String> BUNDLED_GPU_FAMILIES = List.of("a2-", "a3-", "a4-", "a4x-", "g2-", "g4-");

  /** The padding of a member id: 20 digits, the longest unsigned 64-bit decimal. */
  private static final String ZEROS = "00000000000000000000";

  private InstanceFacts() {}

  /**
   * The member id: the unsigned 64-bit instance id, zero-padded to 20 digits so that the kit's id
   * order (the tie-break after creation time) is numeric order.
   */
  static String memberId(long id) {
    return padded(Long.toUnsignedString(id)); // at most 20 digits: nothing to check
  }

  /** The member id of a decimal instance id (as the metadata server writes it). */
  static String memberId(String decimalId) {
    String digits = decimalId.trim();
    return isDigits(digits) && digits.length() <= 20 ? padded(digits) : digits;
  }

  /** {@code digits} (at most 20) zero-padded to 20. */
  private static String padded(String digits) {
    return digits.length() == 20 ? digits : ZEROS.substring(digits.length()).concat(digits);
  }

  private static boolean isDigits(String text) {
    if (text.isEmpty()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  static boolean isTpuVmHost(GceInstance i) {
    for (String label : TPU_LABELS) {
      if (i.labels().containsKey(label)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code creationTimestamp} as an instant: Compute Engine writes it with the zone's UTC offset,
   * which moves with daylight saving time, so the text does not sort.
   */
  static Instant creationTime(GceInstance i) {
    try {
      return Rfc3339.parse(i.creationTimestamp());
    } catch (DateTimeParseException e) {
      throw new ClusterResolverException("gce: instance " + i.name() + " has a creationTimestamp that is not RFC 3339: '"
          + i.creationTimestamp() + "'", e);
    }
  }

  /** The chosen address of {@code nic0}, or empty when the instance has none of that type. */
  static Optional<String> address(AddressType type, GceInstance i) {
    if (i.networkInterfaces().isEmpty()) {
      return Optional.empty();
    }
    GceInstance.Nic nic0 = i.networkInterfaces().get(0);
    for (GceInstance.Nic nic : i.networkInterfaces()) {
      if ("nic0".equals(nic.name())) {
        nic0 = nic;
      }
    }
    switch (type) {
      case PUBLIC_IPV4:
        return firstNonEmpty(nic0.natIPs());
      case IPV6:
        if (!nic0.ipv6Address().isEmpty()) {
          return Optional.of(nic0.ipv6Address());
        }
        return firstNonEmpty(nic0.externalIpv6s());
      default:
        return nic0.networkIP().isEmpty() ? Optional.empty() : Optional.of(nic0.networkIP());
    }
  }

  private static Optional<String> firstNonEmpty(List<String> addresses) {
    for (String ip : addresses) {
      if (!ip.isEmpty()) {
        return Optional.of(ip);
      }
    }
    return Optional.empty();
  }

  /** Whether the machine type's GPUs are part of the type (a2, a3, g2, …). */
  static boolean hasBundledGpus(String machineType) {
    for (String family : BUNDLED_GPU_FAMILIES) {
      if (machineType.startsWith(family)) {
        return true;
      }
    }
    return false;
  }
}
