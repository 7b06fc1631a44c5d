package io.clusterresolver.tensorflow;

import io.clusterresolver.ClusterResolverException;

/**
 * A TensorFlow task could not do what was asked: this task's server did not start (its port is
 * taken, TensorFlow refused its {@code ServerDef}), or a task of the cluster failed an operation
 * (it died, it cannot be reached, it refused the op). The message names the task ({@code
 * /job:worker/replica:0/task:1}) and its address, and carries TensorFlow's own words.
 *
 * <p>Like every {@link ClusterResolverException}, it is about the world, not the configuration:
 * the {@code cluster-resolver} command exits with 3.
 */
public class TensorFlowTaskException extends ClusterResolverException {
  private static final long serialVersionUID = 1L;

  private final String task;
  private final String address;

  /**
   * @param task the task's name, {@code /job:<job>/replica:0/task:<index>}
   * @param address the task's {@code host:port}, or {@code null} when unknown
   * @param message what failed, naming the task and address
   * @param cause TensorFlow's exception, or {@code null}
   */
  public TensorFlowTaskException(String task, String address, String message, Throwable cause) {
    super(message, cause);
    this.task = task;
    this.address = address;
  }

  /** The failed task's name, {@code /job:<job>/replica:0/task:<index>}. */
  public String task() {
    return task;
  }

  /** The failed task's {@code host:port}, or {@code null} when the cluster does not name it. */
  public String address() {
    return address;
  }
}
