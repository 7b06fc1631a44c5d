package io.clusterresolver;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Tells a distributed program who is in its cluster, at which address, with which accelerators,
 * and which member it is — the Java counterpart of TensorFlow's {@code ClusterResolver}.
 *
 * <p>{@link #clusterSpec()} asks the source of truth (a cloud API, the scheduler's environment, a
 * metadata server) again on every call: membership is never cached. Implementations are
 * thread-safe.
 *
 * <p>{@link #resolve()} gives the whole answer — cluster, own task, rpc layer, accelerators — from
 * one query, so its parts always describe the same cluster; the getters keep TensorFlow's shape and
 * each asks afresh.
 *
 * <p>Failures to reach the source of truth are reported as {@link ClusterResolverException};
 * wrong arguments as {@link IllegalArgumentException}, wrong configuration as
 * {@link ConfigurationException}.
 */
public interface ClusterResolver {

  /** The current cluster, asked fresh from the source of truth. Never a partial cluster. */
  ClusterSpec clusterSpec();

  /**
   * The cluster and this process's place in it, from <em>one</em> query of the source of truth:
   * the spec, this task's type and index, the rpc layer, the environment, this task's accelerators
   * and visible device ids. Use it whenever more than one of these is needed (printing, serving,
   * connecting), so that no part comes from a different listing than another.
   *
   * <p>The default composes the getters ({@link Resolution#fromGetters}), which keeps third-party
   * resolvers working; each provider of this project overrides it with a single query.
   */
  default Resolution resolve() {
    return Resolution.fromGetters(this);
  }

  /**
   * The address of the session master of this process's own task, with the resolver's rpc layer
   * as scheme ({@code grpc://host:port}), or {@code ""} when there is nothing remote to connect
   * to. Equivalent to {@code master(null, null, null)}.
   */
  default String master() {
    return master(null, null, null);
  }

  /**
   * The address of a task as {@code rpcLayer://host:port} (no scheme when there is no rpc layer).
   *
   * @param taskType the job, or {@code null} for this resolver's default
   * @param taskId the task index, or {@code null} for this resolver's default
   * @param rpcLayer the scheme, or {@code null} for this resolver's own {@link #rpcLayer()}
   */
  String master(String taskType, Integer taskId, String rpcLayer);

  /** Accelerators of this process's own task by device type, e.g. {@code {"GPU": 8}}. */
  default Map<String, Integer> numAccelerators() {
    return numAccelerators(null, null);
  }

  /**
   * Accelerators of one task by device type ({@code GPU}, {@code TPU}, …); an empty map when it
   * has none. {@code null} arguments mean this process's own task.
   */
  Map<String, Integer> numAccelerators(String taskType, Integer taskId);

  /**
   * The platform this resolver runs on, for frameworks that behave differently per platform;
   * {@code ""} by default, as in TensorFlow.
   */
  default String environment() {
    return "";
  }

  /** The job of this process's own task, when known. */
  Optional<String> taskType();

  /** The index of this process's own task within its job, when known. */
  OptionalInt taskId();

  /** The rpc layer (scheme) tasks speak, such as {@code grpc}, when there is one. */
  Optional<String> rpcLayer();

  /**
   * The accelerator device ids visible to this process's own task, when the resolver knows them
   * (for example from {@code CUDA_VISIBLE_DEVICES} under Slurm). Java cannot change its own
   * environment, so launchers export these ids to the processes they start.
   */
  default Optional<List<String>> visibleDevices() {
    return Optional.empty();
  }
}
