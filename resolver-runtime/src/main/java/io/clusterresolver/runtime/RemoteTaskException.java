package io.clusterresolver.runtime;

import io.clusterresolver.ClusterResolverException;

/**
 * A call to a task of the cluster failed. The message names the task, its address, the operation
 * and the gRPC status; {@link #code()} is the status code name ({@code NOT_FOUND}, {@code
 * UNAVAILABLE}, …).
 */
public final class RemoteTaskException extends ClusterResolverException {
  private static final long serialVersionUID = 1L;

  private final String task;
  private final String code;

  RemoteTaskException(String task, String code, String message, Throwable cause) {
    super(message, cause);
    this.task = task;
    this.code = code;
  }

  /** The task the call went to, as a device-name prefix ({@code /job:ps/replica:0/task:0}). */
  public String task() {
    return task;
  }

  /** The gRPC status code name. */
  public String code() {
    return code;
  }
}
