package io.clusterresolver.azure;

import io.clusterresolver.ClusterResolverException;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * One listing fetched on a thread of its own while the caller fetches another, so that two requests
 * are in flight instead of one (the NIC listing does not depend on the VM listing). Its result, or the
 * exception it ended with, is the caller's when it {@link #join joins}; {@link #cancel} interrupts it
 * when the caller no longer needs it. The work runs under the caller's session: the same deadline and
 * retries.
 */
final class InBackground<T> {

  private final FutureTask<T> task;
  private final Thread thread;

  private InBackground(FutureTask<T> task, Thread thread) {
    this.task = task;
    this.thread = thread;
  }

  /** Starts {@code work} on a daemon thread named {@code name} (it never keeps the JVM alive). */
  static <T> InBackground<T> start(String name, Callable<T> work) {
    FutureTask<T> task = new FutureTask<>(work);
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
    return new InBackground<>(task, thread);
  }

  /**
   * Waits for the work's end.
   *
   * @return its result
   * @throws RuntimeException the one the work ended with, as it was thrown
   */
  T join() {
    try {
      return task.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      if (cause instanceof Error) {
        throw (Error) cause;
      }
      throw new IllegalStateException(cause);
    } catch (InterruptedException e) {
      task.cancel(true);
      Thread.currentThread().interrupt();
      throw new ClusterResolverException(AzureMemberSource.PROVIDER + ": interrupted while listing", e);
    } catch (CancellationException e) {
      throw new ClusterResolverException(AzureMemberSource.PROVIDER + ": a listing was cancelled", e);
    }
  }

  /**
   * Stops the work if it is still running and waits for its thread to end, so that no request of a
   * resolve is still being sent once the resolve has returned (the work is bounded by the resolve's
   * deadline, and a request in flight leaves at the interrupt). No effect once the work has ended.
   */
  void cancel() {
    task.cancel(true);
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the caller's own interrupt: stop waiting, keep its flag
    }
  }
}
