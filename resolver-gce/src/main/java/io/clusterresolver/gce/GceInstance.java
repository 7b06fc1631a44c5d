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
      String[] text = {"", "", ""};
      List<String> nat = new ArrayList<>();
      List<String> ipv6 = new ArrayList<>();
      GoogleJson.object(in, (field, r) -> {
        switch (field) {
          case "name":
            text[0] = GoogleJson.string(r);
            return true;
          case "networkIP":
            text[1] = GoogleJson.string(r);
            return true;
          case "ipv6Address":
            text[2] = GoogleJson.string(r);
            return true;
          case "accessConfigs":
            nat.addAll(GoogleJson.list(r, c -> GoogleJson.member(c, "natIP", GoogleJson::string, "")));
            return true;
          case "ipv6AccessConfigs":
            ipv6.addAll(GoogleJson.list(r, c -> GoogleJson.member(c, "externalIpv6", GoogleJson::string, "")));
            return true;
          default:
            return false;
        }
      });
      return new Nic(text[0], text[1], text[2], nat, ipv6);
    }
  }

  /** Reads one instance resource. */
  static GceInstance read(JsonReader in) throws IOException {
    long[] id = {0};
    int[] gpus = {0};
    String[] text = {"", "", "", "", ""};
    Map<String, String> labels = new LinkedHashMap<>();
    List<Nic> nics = new ArrayList<>();
    GoogleJson.object(in, (field, r) -> {
      switch (field) {
        case "id":
          id[0] = GoogleJson.uint64(r);
          return true;
        case "name":
          text[0] = GoogleJson.string(r);
          return true;
        case "status":
          text[1] = GoogleJson.string(r);
          return true;
        case "creationTimestamp":
          text[2] = GoogleJson.string(r);
          return true;
        case "zone":
          text[3] = GoogleJson.string(r);
          return true;
        case "machineType":
          text[4] = GoogleJson.string(r);
          return true;
        case "labels":
          labels.putAll(GoogleJson.map(r, GoogleJson::string));
          return true;
        case "networkInterfaces":
          nics.addAll(GoogleJson.list(r, Nic::read));
          return true;
        case "guestAccelerators":
          for (int count : GoogleJson.list(r, a -> GoogleJson.member(a, "acceleratorCount", GoogleJson::int32, 0))) {
            gpus[0] += count;
          }
          return true;
        default:
          return false;
      }
    });
    return new GceInstance(id[0], text[0], text[1], text[2], text[3], text[4], labels, nics, gpus[0]);
  }
}
