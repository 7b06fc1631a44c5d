package io.clusterresolver.cli;

import io.clusterresolver.tfconfig.TfConfigWriter;

/** {@code --format tf-config}: the {@code TF_CONFIG} JSON of this process's task, on one line. */
final class TfConfigOutput {

  private TfConfigOutput() {}

  static String render(Answer r) {
    return json(r) + "\n";
  }

  /** The TF_CONFIG value: the cluster, this task when known, and the rpc layer when there is one. */
  static String json(Answer r) {
    return TfConfigWriter.write(r.clusterSpec(), r.taskType(), r.taskIndex(), r.rpcLayer());
  }
}
