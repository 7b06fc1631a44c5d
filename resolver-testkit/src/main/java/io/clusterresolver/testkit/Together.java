package io.clusterresolver.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs calls at one moment, each on its own thread, as processes that start together: for tests of
 * what resolvers share (listings, a relay) and of concurrency. Every call is bounded.
 */
public final class Together {

  private Together() {}

  /**
   * Starts every call at once and returns their results in the calls' order.
   *
   * @param calls what each "process" does
   * @param timeout the longest wait for all of them
   * @throws ExecutionException the first call's failure, in the calls' order
   * @throws TimeoutException when they did not all finish within {@code timeout}
   */
  public static <T> List<T> call(List<? extends Callable<T>> calls, java.time.Duration timeout)
      throws InterruptedException, ExecutionException, TimeoutException {
    ExecutorService pool = Executors.newFixedThreadPool(calls.size());
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> call : calls) {
        futures.add(pool.submit(() -> {
          go.await();
          return call.call();
        }));
      }
      go.countDown();
      long deadline = System.nanoTime() + timeout.toNanos();
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
