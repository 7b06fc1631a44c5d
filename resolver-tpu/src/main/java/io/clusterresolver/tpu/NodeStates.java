package io.clusterresolver.tpu;

import com.google.cloud.tpu.v2.Node;
import io.clusterresolver.ClusterResolverException;

/**
 * What a node's state means for a resolve: only {@code READY} resolves; a node on its way to
 * {@code READY} is worth asking again; a node that was preempted, terminated, stopped or deleted has no
 * workers any more, even though the API may still list its old endpoints.
 */
final class NodeStates {

  private NodeStates() {}

  /** Whether the node will not come back to {@code READY} by itself. */
  static boolean terminal(Node.State state) {
    switch (state) {
      case PREEMPTED:
      case TERMINATED:
      case STOPPED:
      case STOPPING:
      case DELETING:
      case HIDING:
      case HIDDEN:
        return true;
      default:
        return false;
    }
  }

  /** Throws unless the node is {@code READY}: retryable while it is getting there, terminal otherwise. */
  static void requireReady(String node, Node.State state) {
    if (state == Node.State.READY) {
      return;
    }
    String name = state == Node.State.UNRECOGNIZED ? "an unknown state" : state.name();
    if (terminal(state)) {
      throw new ClusterResolverException("tpu: node " + node + " is " + name + ": its workers are gone (the endpoints"
          + " it still lists are stale) and the node must be recreated"
          + (state == Node.State.STOPPED || state == Node.State.STOPPING ? " (or started again)" : "")
          + "; this is not retryable");
    }
    throw new ClusterResolverException("tpu: node " + node + " is not ready yet (state " + name + "); this is"
        + " retryable: resolve again once the node is READY");
  }
}
