package io.clusterresolver.cli;

import io.clusterresolver.tensorflow.TensorFlowServer;
import java.io.PrintWriter;

/** The part of {@code tf-server} that touches TensorFlow: loaded only when tensorflow/ is there. */
final class TensorFlowServing {
  private TensorFlowServing() {}

  static int serve(Answer answer, PrintWriter out) {
    TensorFlowServer server = TensorFlowServer.start(answer.resolution());
    // SIGINT and SIGTERM are the normal end of a server: exit 0, not the JVM's 128 + signal.
    Thread hook = new Thread(() -> {
      server.close();
      out.flush();
      System.err.flush();
      Runtime.getRuntime().halt(ExitCodes.OK);
    }, "cluster-resolver-tf-server-shutdown");
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
