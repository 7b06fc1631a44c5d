package io.clusterresolver.cli;

import io.clusterresolver.tensorflow.TensorFlowServer;
import java.io.PrintWriter;

/** The part of {@code tf-server} that touches TensorFlow: loaded only when tensorflow/ is there. */
final class TensorFlowServing {
  private TensorFlowServing() {}

  static int serve(Answer answer, PrintWriter out) {
    TensorFlowServer server = TensorFlowServer.start(answer.resolution());
    Thread hook = new Thread(server::close, "cluster-resolver-tf-server-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    out.println("tensorflow server " + server.taskName() + " at " + server.target());
    out.flush();
    try {
      server.awaitTermination();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return ExitCodes.OK;
  }
}
