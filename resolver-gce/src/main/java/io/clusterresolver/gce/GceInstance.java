package io.clusterresolver.gce;

import com.google.gson.stream.JsonReader;
import io.clusterresolver.google.GoogleJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fields of a Compute Engine instance resource that a resolve reads, by their REST names; the rest of
 * the resource is skipped as it streams by.
 *
 * @param id the unsigned 64-bit instance id
 * @param labels the labels, in the answer's order
 * @param guestGpus the sum of {@code guestAccelerators[].acceleratorCount}
 */
record GceInstance(long id, String name, String status, String creationTimestamp, String zone, String machineType,
    Map<String, String> labels, List<Nic> networkInterfaces, int guestGpus) {

  GceInstance {
    labels = Collections.unmodifiableMap(labels);
    networkInterfaces = List.copyOf(networkInterfaces);
  }

  /**
   * A network interface: its name ({@code nic0}, …), internal IPv4 and IPv6, and the external addresses of its
   * {@code accessConfigs[].natIP} and {@code ipv6AccessConfigs[].externalIpv6}, in order.
   */
  record Nic(String name, String networkIP, String ipv6Address, List<String> natIPs, List<String> externalIpv6s) {
    Nic {
      natIPs = List.copyOf(natIPs);
      externalIpv6s = List.copyOf(externalIpv6s);
    }

    static Nic read(JsonReader in) throws IOException {
      NicFields nic = new NicFields();
      for (String field = GoogleJson.firstField(in); field != null; field = GoogleJson.nextField(in)) {
        switch (field) {
          case "name" -> nic.name = GoogleJson.string(in);
          case "networkIP" -> nic.networkIP = GoogleJson.string(in);
          case "ipv6Address" -> nic.ipv6Address = GoogleJson.string(in);
          case "accessConfigs" -> nic.natIPs.addAll(GoogleJson.list(in, Nic::natIP));
          case "ipv6AccessConfigs" -> nic.externalIpv6s.addAll(GoogleJson.list(in, Nic::externalIpv6));
          default -> in.skipValue();
        }
      }
      return new Nic(nic.name, nic.networkIP, nic.ipv6Address, nic.natIPs, nic.externalIpv6s);
    }

    private static String natIP(JsonReader accessConfig) throws IOException {
      return GoogleJson.member(accessConfig, "natIP", GoogleJson::string, "");
    }

    private static String externalIpv6(JsonReader ipv6AccessConfig) throws IOException {
      return GoogleJson.member(ipv6AccessConfig, "externalIpv6", GoogleJson::string, "");
    }
  }

  /** A {@link Nic}'s fields as they are read. */
  private static final class NicFields {
    String name = "";
    String networkIP = "";
    String ipv6Address = "";
    final List<String> natIPs = new ArrayList<>();
    final List<String> externalIpv6s = new ArrayList<>();
  }

  /** An instance's fields as they are read. */
  private static final class Fields {
    long id;
    String name = "";
    String status = "";
    String creationTimestamp = "";
    String zone = "";
    String machineType = "";
    final Map<String, String> labels = new LinkedHashMap<>();
    final List<Nic> nics = new ArrayList<>();
    int guestGpus;
  }

  /** Reads one instance resource. */
  static GceInstance read(JsonReader in) throws IOException {
    Fields instance = new Fields();
    for (String field = GoogleJson.firstField(in); field != null; field = GoogleJson.nextField(in)) {
      switch (field) {
        case "id" -> instance.id = GoogleJson.uint64(in);
        case "name" -> instance.name = GoogleJson.string(in);
        case "status" -> instance.status = GoogleJson.string(in);
        case "creationTimestamp" -> instance.creationTimestamp = GoogleJson.string(in);
        case "zone" -> instance.zone = GoogleJson.string(in);
        case "machineType" -> instance.machineType = GoogleJson.string(in);
        case "labels" -> instance.labels.putAll(GoogleJson.map(in, GoogleJson::string));
        case "networkInterfaces" -> instance.nics.addAll(GoogleJson.list(in, Nic::read));
        case "guestAccelerators" -> {
          for (int count : GoogleJson.list(in, GceInstance::acceleratorCount)) {
            instance.guestGpus += count;
          }
        }
        default -> in.skipValue();
      }
    }
    return new GceInstance(instance.id, instance.name, instance.status, instance.creationTimestamp, instance.zone,
        instance.machineType, instance.labels, instance.nics, instance.guestGpus);
  }

  private static int acceleratorCount(JsonReader guestAccelerator) throws IOException {
    return GoogleJson.member(guestAccelerator, "acceleratorCount", GoogleJson::int32, 0);
  }
}
