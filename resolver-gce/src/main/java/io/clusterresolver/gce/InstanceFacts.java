package io.clusterresolver.gce;

import com.google.cloud.compute.v1.AcceleratorConfig;
import com.google.cloud.compute.v1.AccessConfig;
import com.google.cloud.compute.v1.Instance;
import com.google.cloud.compute.v1.NetworkInterface;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.cloud.AddressType;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/** What the provider reads off one Compute Engine {@link Instance}. */
final class InstanceFacts {

  /** Labels Cloud TPU puts on its TPU VM hosts: those belong to the {@code tpu} provider. */
  static final List<String> TPU_LABELS = List.of("tpu_cores", "tpu_name");

  /** Machine families whose GPUs come with the machine type, not as guestAccelerators. */
  private static final List<String> BUNDLED_GPU_FAMILIES = List.of("a2-", "a3-", "a4-", "a4x-", "g2-", "g4-");

  private InstanceFacts() {}

  /**
   * The member id: the unsigned 64-bit instance id, zero-padded to 20 digits so that the kit's id
   * order (the tie-break after creation time) is numeric order.
   */
  static String memberId(long id) {
    return memberId(Long.toUnsignedString(id));
  }

  /** The member id of a decimal instance id (as the metadata server writes it). */
  static String memberId(String decimalId) {
    String digits = decimalId.trim();
    return digits.matches("\\d{1,20}") ? "0".repeat(20 - digits.length()) + digits : digits;
  }

  static boolean isTpuVmHost(Instance i) {
    return TPU_LABELS.stream().anyMatch(i.getLabelsMap()::containsKey);
  }

  /**
   * {@code creationTimestamp} as an instant: Compute Engine writes it with the zone's UTC offset,
   * which moves with daylight saving time, so the text does not sort.
   */
  static Instant creationTime(Instance i) {
    try {
      return OffsetDateTime.parse(i.getCreationTimestamp()).toInstant();
    } catch (DateTimeParseException e) {
      throw new ClusterResolverException("gce: instance " + i.getName() + " has a creationTimestamp that is not RFC 3339: '"
          + i.getCreationTimestamp() + "'", e);
    }
  }

  /** The chosen address of {@code nic0}, or empty when the instance has none of that type. */
  static Optional<String> address(AddressType type, Instance i) {
    if (i.getNetworkInterfacesCount() == 0) {
      return Optional.empty();
    }
    NetworkInterface nic0 = i.getNetworkInterfaces(0);
    for (NetworkInterface nic : i.getNetworkInterfacesList()) {
      if ("nic0".equals(nic.getName())) {
        nic0 = nic;
      }
    }
    switch (type) {
      case PUBLIC_IPV4:
        return nic0.getAccessConfigsList().stream().map(AccessConfig::getNatIP).filter(ip -> !ip.isEmpty()).findFirst();
      case IPV6:
        if (!nic0.getIpv6Address().isEmpty()) {
          return Optional.of(nic0.getIpv6Address());
        }
        return nic0.getIpv6AccessConfigsList().stream().map(AccessConfig::getExternalIpv6).filter(ip -> !ip.isEmpty())
            .findFirst();
      default:
        return nic0.getNetworkIP().isEmpty() ? Optional.empty() : Optional.of(nic0.getNetworkIP());
    }
  }

  /** GPUs attached as {@code guestAccelerators}. */
  static int guestGpus(Instance i) {
    return i.getGuestAcceleratorsList().stream().mapToInt(AcceleratorConfig::getAcceleratorCount).sum();
  }

  /** The last segment of a resource URL ({@code .../zones/us-east1-b/machineTypes/a2-highgpu-1g}). */
  static String lastSegment(String url) {
    return url.substring(url.lastIndexOf('/') + 1);
  }

  /** Whether the machine type's GPUs are part of the type (a2, a3, g2, …). */
  static boolean hasBundledGpus(String machineType) {
    return BUNDLED_GPU_FAMILIES.stream().anyMatch(machineType::startsWith);
  }
}
