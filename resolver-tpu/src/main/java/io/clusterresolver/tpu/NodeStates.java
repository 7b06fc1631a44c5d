package io.clusterresolver.tpu;

import io.clusterresolver.ClusterResolverException;

/**
 * What a node's state means for a resolve: only {@code READY} resolves; a node on its way to
 * {@code READY} is worth asking again; a node that was preempted, terminated, stopped or deleted has no
 * workers any more, even though the API may still list its old endpoints.
 */
final class NodeStates {

  private NodeStates() {}

  /** Whether the node will never come back to {@code READY}: it must be recreated. */
  static boolean terminal(TpuNode.State state) {
    switch (state) {
      case PREEMPTED:
      case TERMINATED:
      case DELETING:
      case HIDING:
      case HIDDEN:
        return true;
      default:
        return false;
    }
  }

  /** Whether the node is stopped or stopping: no workers, but someone may start it again. */
  static boolean stopped(TpuNode.State state) {
    return state == TpuNode.State.STOPPED || state == TpuNode.State.STOPPING;
  }

  /**
   * Throws unless the node is {@code READY}: retryable while it is getting there, or while it is stopped (a
   * user or launcher may start it again meanwhile); otherwise terminal, as an exception that is not
   * {@linkplain ClusterResolverException#isRetryable() retryable}, so that a wait ({@code resolve --wait})
   * stops at once instead of polling a node that will not come back.
   */
  static void requireReady(String node, TpuNode.State state) {
    if (state == TpuNode.State.READY) {
      return;
    }
    String name = state == TpuNode.State.UNRECOGNIZED ? "an unknown state" : state.name();
    if (stopped(state)) {
      throw new ClusterResolverException("tpu: node " + node + " is " + name + ": it has no workers (the endpoints"
          + " it still lists are stale) until it is started again (gcloud compute tpus tpu-vm start) or recreated;"
          + " a wait keeps asking");
    }
    if (terminal(state)) {
      throw new ClusterResolverException("tpu: node " + node + " is " + name + ": its workers are gone (the endpoints"
          + " it still lists are stale) and the node must be recreated; this is not retryable", null, false);
    }
    throw new ClusterResolverException("tpu: node " + node + " is not ready yet (state " + name + "); this is"
        + " retryable: resolve again once the node is READY");
  }
}
