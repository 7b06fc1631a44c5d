package io.clusterresolver.cli;

import io.clusterresolver.ConfigurationException;
import picocli.CommandLine.Command;

/**
 * {@code cluster-resolver tf-server}: this process's task as a real TensorFlow server, until SIGINT or
 * SIGTERM. TensorFlow (resolver-tensorflow, TensorFlow Java and its natives) is not in {@code lib/}:
 * the launcher adds the distribution's {@code tensorflow/} folder for this command only, so this class
 * names no TensorFlow type and {@link TensorFlowServing} is loaded only when TensorFlow is there.
 */
@Command(
    name = "tf-server",
    mixinStandardHelpOptions = true,
    description = {
      "Resolves the cluster and serves this process's task as a real TensorFlow server (TensorFlow"
          + " 2.18 through TensorFlow Java) until SIGINT or SIGTERM. Prints one line, 'tensorflow"
          + " server /job:<job>/replica:0/task:<index> at grpc://<host>:<port>', once it serves;"
          + " logs go to standard error.",
      "Needs the distribution's tensorflow/ folder (cluster-resolver-<version>-tensorflow.tar.gz).",
      ""
    })
public final class TfServerCommand extends ResolvingSubcommand {
  static final String ENGINE = "io.clusterresolver.tensorflow.TensorFlowServer";

  @Override
  public Integer call() throws Exception {
    try {
      Class.forName(ENGINE, false, TfServerCommand.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new ConfigurationException("tf-server needs TensorFlow, which is not on the class path:"
          + " unpack cluster-resolver-<version>-tensorflow.tar.gz over the distribution so that it has"
          + " a tensorflow/ folder next to lib/ (bin/cluster-resolver adds it for tf-server)");
    }
    Answer answer = resolverOptions.select(environment()).resolve();
    if (answer.taskType() == null || answer.taskIndex() == null) {
      throw new ConfigurationException("tf-server: provider '" + answer.provider()
          + "' does not say which task this process is; give --task-type and --task-id");
    }
    return TensorFlowServing.serve(answer, out());
  }
}
