package io.clusterresolver.cloud.internal;

import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.cloud.ClusterLayout;
import io.clusterresolver.cloud.TasksPerMember;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import java.util.List;

/** The tasks-per-member property, read so that every task of a member has a port of its own. */
public final class TaskPorts {

  private TaskPorts() {}

  /**
   * Reads the tasks-per-member property into {@code layout}. A problem naming the key is added when it
   * is malformed, or when the last task of a member would listen past port 65535 ({@code port} +
   * tasks - 1).
   */
  public static void readTasksPerMember(
      ResolverConfig config, ConfigProperty<String> tasksPerMember, ClusterLayout.Builder layout,
      List<String> problems) {
    TasksPerMember tasks;
    try {
      tasks = TasksPerMember.parse(config.get(tasksPerMember));
    } catch (IllegalArgumentException e) {
      problems.add(config.key(tasksPerMember) + ": " + e.getMessage());
      return;
    }
    int port = config.get(CloudProperties.PORT);
    int last = tasks.isPerAccelerator() ? port : port + tasks.tasksOn(null) - 1; // a fixed count needs no member
    if (last > 65535) {
      problems.add(config.key(tasksPerMember) + ": " + tasks + " tasks from " + config.key(CloudProperties.PORT)
          + " " + port + " would listen past port 65535: lower one of them");
      return;
    }
    layout.tasksPerMember(tasks);
  }
}
