package io.clusterresolver.runtime;

/**
 * A function a {@link TaskServer} runs on request: bytes in, bytes out. Registered on the server by
 * name; a client runs it with {@link ClusterConnection#run}. It may be called concurrently.
 */
@FunctionalInterface
public interface TaskFunction {

  /**
   * Computes the result for one input. An exception is reported to the caller as a failed run
   * naming the function and the task.
   */
  byte[] apply(byte[] input) throws Exception;
}
