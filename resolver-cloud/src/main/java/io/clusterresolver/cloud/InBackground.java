package io.clusterresolver.cloud;

import io.clusterresolver.ClusterResolverException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Work of one resolve on another thread: a listing fetched while the caller fetches another (two requests in
 * flight instead of one), a catalog call beside the listing's next page, or a blocking call the caller waits for no
 * longer than its deadline. The work runs under the caller's {@link CloudApi.Session} (its deadline and retries).
 *
 * <ul>
 *   <li>Its result, or the exception it ended with, is the caller's when it {@linkplain #join() joins}: a failure of
 *       the background part fails the resolve, as a failure of the caller's own part would (never a partial cluster).
 *   <li>{@link #cancel()} interrupts it and waits for it to end, so that no request of a resolve is still being sent
 *       once the resolve has returned; a caller that needs no result any more (it failed, the listing was empty)
 *       cancels in a {@code finally}.
 *   <li>Its threads are daemons (they never keep the JVM alive) and named, so a thread dump says whose they are:
 *       one of its own ({@link #start(String, Callable)}) or one of a pool ({@link #daemonThreads(String)}), such
 *       as the one a provider's HTTP client also runs on.
 * </ul>
 *
 * <p>Thread-safe: one thread starts it, any may join or cancel it.
 *
 * @param <T> the work's result
 */
public final class InBackground<T> {

  private final String name;
  private final FutureTask<T> task;
  /** Set by whichever comes first: the thread that runs the work, or a cancel before it ran (it then never runs). */
  private final AtomicBoolean claimed = new AtomicBoolean();
  /** Counted down when the work has ended, once it was claimed to run. */
  private final CountDownLatch ended = new CountDownLatch(1);
  /** The thread of its own that runs the work ({@link #start(String, Callable)}), or null on a pool's. */
  private volatile Thread own;

  private InBackground(String name, Callable<T> work) {
    this.name = name;
    this.task = new FutureTask<>(work);
  }

  /**
   * Starts {@code work} on a daemon thread of its own.
   *
   * @param name the thread's name, also named by the errors of {@link #join}: {@code cluster-resolver-PROVIDER-WHAT}
   * @param work the work; it should end by the resolve's deadline (calls of the resolve's session do)
   * @return the started work
   */
  public static <T> InBackground<T> start(String name, Callable<T> work) {
    InBackground<T> started = new InBackground<>(name, work);
    Thread thread = new Thread(started::run, name);
    thread.setDaemon(true);
    started.own = thread;
    thread.start();
    return started;
  }

  /**
   * Starts {@code work} on one of {@code threads}, such as a pool of {@link #daemonThreads(String)}.
   *
   * @param threads where it runs
   * @param name what it is, named by the errors of {@link #join}
   * @param work the work; it should end by the resolve's deadline (calls of the resolve's session do)
   * @return the started work
   * @throws RejectedExecutionException when {@code threads} takes no more work
   */
  public static <T> InBackground<T> start(Executor threads, String name, Callable<T> work) {
    InBackground<T> started = new InBackground<>(name, work);
    try {
      threads.execute(started::run);
    } catch (RejectedExecutionException e) {
      started.claimed.set(true);
      started.ended.countDown();
      throw e;
    }
    return started;
  }

  private void run() {
    if (claimed.compareAndSet(false, true)) {
      try {
        task.run();
      } finally {
        ended.countDown();
      }
    }
  }

  /**
   * Waits for the work's end.
   *
   * @return its result
   * @throws RuntimeException the one the work ended with, as it was thrown (an {@link Error} too; a checked exception
   *     as the cause of a {@link ClusterResolverException})
   * @throws ClusterResolverException when this thread is interrupted while it waits (the work is cancelled and the
   *     interrupt kept) or the work was cancelled
   */
  public T join() {
    return await(null);
  }

  /**
   * Waits for the work's end, at most {@code within} (what is left of the deadline): for a blocking call that may not
   * answer in time. When the time is up, the work is cancelled and not waited for (a call that does not stop at an
   * interrupt ends by its own bounds), so the caller returns when its deadline says.
   *
   * @return its result
   * @throws UncheckedIOException when the time is up, caused by an {@link IOException} caused by a {@link
   *     TimeoutException}: a {@link CloudApi.FailureReader} reads it as a {@link ApiFailure.Kind#TIMEOUT}
   * @throws RuntimeException as {@link #join()}
   */
  public T join(Duration within) {
    return await(Objects.requireNonNull(within, "within"));
  }

  /** The work's result, waiting without end ({@code null}) or at most {@code within}. */
  private T await(Duration within) {
    try {
      return within == null ? task.get() : task.get(Math.max(0, within.toNanos()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      task.cancel(true);
      throw new UncheckedIOException(new IOException(name + ": no answer within " + within.toMillis() + " ms", e));
    } catch (InterruptedException e) {
      task.cancel(true);
      Thread.currentThread().interrupt();
      throw new ClusterResolverException("interrupted while waiting for " + name, e);
    } catch (ExecutionException e) {
      throw rethrown(e.getCause());
    } catch (CancellationException e) {
      throw new ClusterResolverException(name + " was cancelled before it ended", e);
    }
  }

  /**
   * Stops the work if it is still running (an interrupt: a request in flight leaves at it) and waits for its end,
   * unless it never started (then it never will); work on a thread of its own also waits for that thread to have
   * ended, so none of the resolve's threads is alive once it returns. No effect once the work has ended. An
   * interrupt of the caller while it waits ends the wait and is kept.
   */
  public void cancel() {
    task.cancel(true);
    if (claimed.compareAndSet(false, true)) {
      return;
    }
    try {
      ended.await();
      Thread thread = own;
      if (thread != null) {
        thread.join(); // the work has ended: only the thread's own exit is left
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the caller's own interrupt: stop waiting, keep its flag
    }
  }

  private static RuntimeException rethrown(Throwable cause) {
    if (cause instanceof RuntimeException) {
      return (RuntimeException) cause;
    }
    if (cause instanceof Error) {
      throw (Error) cause;
    }
    return new ClusterResolverException(String.valueOf(cause), cause);
  }

  /**
   * A pool of daemon threads named {@code name}, made as work comes and reused, as many as there is work at once;
   * one idle for a minute ends. For the work of one provider's resolves, and for its HTTP client's own work
   * ({@code java.net.http.HttpClient.Builder.executor}) instead of a pool of the client's.
   */
  public static ExecutorService daemonThreads(String name) {
    return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), named(name));
  }

  /**
   * A pool of at most {@code max} daemon threads named {@code name}, made as work comes; work beyond {@code max}
   * waits its turn; one idle for a minute ends. For calls beside a listing that should not all go at once.
   *
   * @throws IllegalArgumentException when {@code max} is not positive
   */
  public static ExecutorService daemonThreads(String name, int max) {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(max, max, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        named(name));
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  private static ThreadFactory named(String name) {
    return work -> {
      Thread thread = new Thread(work, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  @Override
  public String toString() {
    return "InBackground{" + name + (task.isDone() ? ", ended" : "") + "}";
  }
}
