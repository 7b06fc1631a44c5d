package io.clusterresolver.gce;

import io.clusterresolver.cloud.CloudProperties;
import io.clusterresolver.cloud.ClusterLayout;
import io.clusterresolver.cloud.internal.TaskPorts;
import io.clusterresolver.cloud.JobAssignment;
import io.clusterresolver.cloud.MemberOrder;
import io.clusterresolver.spi.ResolverConfig;
import java.util.List;

/**
 * The layout of the {@code gce} provider from its properties: the kit's {@link ClusterLayout} with
 * the shared {@code order}, {@code jobs}, {@code tasks-per-instance} and {@code port}, and
 * {@code job-label} (Compute Engine's word for the kit's job tag).
 */
final class GceLayout {

  private GceLayout() {}

  /** The layout, or {@code null} when there is a problem (each added to {@code problems}, naming its key). */
  static ClusterLayout fromConfig(ResolverConfig config, List<String> problems) {
    int before = problems.size();
    ClusterLayout.Builder b = ClusterLayout.builder().port(config.get(CloudProperties.PORT));
    try {
      b.order(MemberOrder.parse(config.get(CloudProperties.ORDER)));
    } catch (IllegalArgumentException e) {
      problems.add(config.key(CloudProperties.ORDER) + ": " + e.getMessage());
    }
    TaskPorts.readTasksPerMember(config, GceProperties.TASKS_PER_INSTANCE, b, problems);
    boolean labelSet = config.isSet(GceProperties.JOB_LABEL);
    boolean countsSet = config.isSet(CloudProperties.JOBS);
    if (labelSet && countsSet) {
      problems.add("Set only one of " + config.key(GceProperties.JOB_LABEL) + " and " + config.key(CloudProperties.JOBS));
    } else {
      try {
        b.jobs(countsSet ? JobAssignment.parseCounts(config.get(CloudProperties.JOBS))
            : labelSet ? JobAssignment.fromTag(config.get(GceProperties.JOB_LABEL))
            : JobAssignment.fixed(ClusterLayout.DEFAULT_JOB));
      } catch (IllegalArgumentException e) {
        problems.add(config.key(countsSet ? CloudProperties.JOBS : GceProperties.JOB_LABEL) + ": " + e.getMessage());
      }
    }
    return problems.size() > before ? null : b.build();
  }
}
