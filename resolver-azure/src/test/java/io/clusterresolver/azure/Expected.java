package io.clusterresolver.azure;

import io.clusterresolver.testkit.SimulatedAzure;
import io.clusterresolver.testkit.SimulatedVm;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The cluster a correct resolver makes of a simulated world, worked out from the simulation's own
 * fields with plain code (not the provider's): the test's independent expectation.
 */
final class Expected {

  private Expected() {}

  /** Running VMs the predicate selects, oldest first, ties by lower-cased resource id. */
  static List<SimulatedVm> members(SimulatedAzure azure, Predicate<SimulatedVm> selected) {
    List<SimulatedVm> members = new ArrayList<>();
    for (SimulatedVm vm : azure.vms()) {
      if (selected.test(vm) && vm.powerState().equals("running")) {
        members.add(vm);
      }
    }
    members.sort(Comparator.comparing(SimulatedVm::timeCreated)
        .thenComparing(vm -> azure.resourceId(vm).toLowerCase(Locale.ROOT)));
    return members;
  }

  /** Job name -> addresses, members in the given order, each member in the job {@code job} names. */
  static Map<String, List<String>> cluster(List<SimulatedVm> members, Function<SimulatedVm, String> job,
      Function<SimulatedVm, String> address) {
    Map<String, List<String>> cluster = new TreeMap<>();
    for (SimulatedVm vm : members) {
      String j = job.apply(vm);
      String a = address.apply(vm);
      if (j != null && a != null) {
        cluster.computeIfAbsent(j, k -> new ArrayList<>()).add(a + ":8888");
      }
    }
    return cluster;
  }

  /** The primary NIC's private IP: the NIC flagged primary. */
  static String privateIp(SimulatedVm vm) {
    for (SimulatedVm.Nic nic : vm.nics()) {
      if (nic.primary()) {
        return nic.privateIp();
      }
    }
    return null;
  }

  /** The spec as plain maps, to compare with {@link #cluster}. */
  static Map<String, List<String>> asMap(io.clusterresolver.ClusterSpec spec) {
    Map<String, List<String>> map = new LinkedHashMap<>();
    for (String job : spec.jobs()) {
      map.put(job, spec.jobTasks(job));
    }
    return new TreeMap<>(map);
  }

  /** Pages of {@code n} items at 100 per page (at least one). */
  static int pages(long n) {
    return (int) Math.max(1, (n + 99) / 100);
  }
}
