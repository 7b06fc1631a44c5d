package io.clusterresolver.grpc;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Daemon threads for a name resolver whose {@code NameResolver.Args} carry no offload executor or
 * timer (channels always give both; a hand-built {@code Args} may not): a resolve must never run on
 * the caller's thread, which may be the synchronization context.
 */
final class SharedThreads {

  private SharedThreads() {}

  private static final class Holder {
    static final ExecutorService OFFLOAD = Executors.newCachedThreadPool(daemon("cluster-resolver-grpc-offload"));
    static final ScheduledExecutorService TIMER =
        Executors.newSingleThreadScheduledExecutor(daemon("cluster-resolver-grpc-timer"));
  }

  static Executor offload() {
    return Holder.OFFLOAD;
  }

  static ScheduledExecutorService timer() {
    return Holder.TIMER;
  }

  private static ThreadFactory daemon(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
