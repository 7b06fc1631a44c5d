package io.clusterresolver.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;

/**
 * {@code --format env}: shell assignments a launcher evaluates before starting a training process,
 * then one {@code export} line, so {@code eval "$(cluster-resolver resolve --format env)"} exports
 * them all:
 *
 * <ul>
 *   <li>{@code TF_CONFIG} for TensorFlow;
 *   <li>for PyTorch ({@code torch.distributed}'s {@code env://}): {@code MASTER_ADDR} and
 *       {@code MASTER_PORT} of rank 0, {@code WORLD_SIZE} (all tasks) and {@code RANK} (this task,
 *       when the resolver knows it), with ranks as in {@link GlobalRanks};
 *   <li>{@code CUDA_VISIBLE_DEVICES} when the resolver knows this task's devices.
 * </ul>
 */
final class EnvOutput {

  private EnvOutput() {}

  static String render(Answer r) {
    Map<String, String> variables = new LinkedHashMap<>();
    variables.put("TF_CONFIG", TfConfigOutput.json(r));
    GlobalRanks ranks = GlobalRanks.of(r.clusterSpec());
    if (!ranks.tasks().isEmpty()) {
      GlobalRanks.Task master = ranks.tasks().get(0);
      variables.put("MASTER_ADDR", master.host());
      OptionalInt port = HostPort.port(master.address());
      if (port.isPresent()) {
        variables.put("MASTER_PORT", Integer.toString(port.getAsInt()));
      }
      variables.put("WORLD_SIZE", Integer.toString(ranks.tasks().size()));
      int rank = r.taskType() == null ? -1 : ranks.rankOf(r.taskType(), r.taskIndex());
      if (rank >= 0) {
        variables.put("RANK", Integer.toString(rank));
      }
    }
    r.visibleDevices().ifPresent(devices -> variables.put("CUDA_VISIBLE_DEVICES", String.join(",", devices)));
    StringBuilder out = new StringBuilder();
    variables.forEach((name, value) -> out.append(name).append('=').append(ShellQuoting.quote(value)).append('\n'));
    out.append("export ").append(String.join(" ", variables.keySet())).append('\n');
    return out.toString();
  }
}
