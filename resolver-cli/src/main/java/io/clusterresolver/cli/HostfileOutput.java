package io.clusterresolver.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --format hostfile}: an MPI hostfile (Open MPI syntax, also read by MPICH's Hydra with
 * {@code -f}). One line per host, hosts in the order of their first task in {@link GlobalRanks};
 * a host that carries several tasks gets {@code slots=N}, so a by-slot mapping starts the ranks in
 * the same order as {@code RANK} in {@code --format env}. Ports are dropped: MPI chooses its own.
 */
final class HostfileOutput {

  private HostfileOutput() {}

  static String render(Answer r) {
    Map<String, Integer> slots = new LinkedHashMap<>();
    for (GlobalRanks.Task task : GlobalRanks.of(r.clusterSpec()).tasks()) {
      slots.merge(task.host(), 1, Integer::sum);
    }
    StringBuilder out = new StringBuilder();
    slots.forEach((host, count) -> {
      out.append(host);
      if (count > 1) {
        out.append(" slots=").append(count);
      }
      out.append('\n');
    });
    return out.toString();
  }
}
