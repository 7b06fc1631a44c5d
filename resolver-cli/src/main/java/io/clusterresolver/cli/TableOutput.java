package io.clusterresolver.cli;

import io.clusterresolver.internal.UntrustedText;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * {@code --format table}: the cluster for a person at a terminal. One row per task in rank order
 * (chief first, then jobs by name, tasks by index), this process's task marked with {@code *} and
 * carrying its accelerators; a header line names the provider, environment and rpc layer.
 */
final class TableOutput {

  private TableOutput() {}

  static String render(Answer r) {
    GlobalRanks ranks = GlobalRanks.of(r.clusterSpec());
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"", "RANK", "JOB", "INDEX", "ADDRESS", "ACCELERATORS"});
    String accelerators = r.accelerators().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    int rank = 0;
    for (GlobalRanks.Task task : ranks.tasks()) {
      boolean self = task.job().equals(r.taskType()) && Objects.equals(task.index(), r.taskIndex());
      // Job names come from tags and labels anyone with access to the fleet may set: no terminal escapes.
      rows.add(new String[] {self ? "*" : "", Integer.toString(rank++), UntrustedText.escape(task.job()),
          Integer.toString(task.index()), UntrustedText.escape(task.address()), self ? UntrustedText.escape(accelerators) : ""});
    }
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int c = 0; c < row.length; c++) {
        widths[c] = Math.max(widths[c], row[c].length());
      }
    }
    StringBuilder out = new StringBuilder()
        .append("provider ").append(r.provider())
        .append(r.environment().isEmpty() ? "" : ", environment " + UntrustedText.escape(r.environment()))
        .append(r.rpcLayer() == null ? "" : ", rpc layer " + r.rpcLayer())
        .append(", ").append(ranks.tasks().size()).append(ranks.tasks().size() == 1 ? " task" : " tasks")
        .append(r.taskType() == null ? ", this process is not a task of the cluster" : "")
        .append('\n');
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.length; c++) {
        line.append(String.format("%-" + Math.max(1, widths[c]) + "s", row[c])).append(c + 1 < row.length ? "  " : "");
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    List<String> emptyJobs = new ArrayList<>();
    for (String job : r.clusterSpec().jobs()) {
      if (r.clusterSpec().numTasks(job) == 0) {
        emptyJobs.add(UntrustedText.escape(job));
      }
    }
    if (!emptyJobs.isEmpty()) {
      out.append("jobs without tasks: ").append(String.join(", ", emptyJobs)).append('\n');
    }
    return out.toString();
  }

}
