package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.clusterresolver.ClusterResolverException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Work on another thread: its result or failure is the caller's, a cancel stops it and waits, no thread is left. */
class InBackgroundTest {

  /** Releases whatever a test left waiting, so that no test leaves a thread behind. */
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void releaseTheWork() {
    release.countDown();
  }

  @Test
  void theResultIsTheCallersOnADaemonThreadOfTheGivenName() {
    AtomicReference<Thread> ran = new AtomicReference<>();
    InBackground<String> work = InBackground.start("cluster-resolver-test-result", () -> {
      ran.set(Thread.currentThread());
      return "listed";
    });

    assertThat(work.join()).isEqualTo("listed");
    assertThat(ran.get().getName()).isEqualTo("cluster-resolver-test-result");
    assertThat(ran.get().isDaemon()).isTrue();
    assertThat(ran.get()).isNotSameAs(Thread.currentThread());
  }

  @Test
  void aFailureOfTheWorkIsThrownToTheCallerAsItWasThrown() {
    ClusterResolverException failure = new ClusterResolverException("azure: NetworkInterfaces.List failed with HTTP 500");
    assertThat(catchThrowable(() -> InBackground.start("t", () -> {
      throw failure;
    }).join())).isSameAs(failure);

    AssertionError error = new AssertionError("an Error stays an Error");
    assertThat(catchThrowable(() -> InBackground.start("t", () -> {
      throw error;
    }).join(Duration.ofSeconds(30)))).isSameAs(error);

    IOException checked = new IOException("a checked one");
    assertThat(catchThrowable(() -> InBackground.start("t", () -> {
      throw checked;
    }).join())).isInstanceOf(ClusterResolverException.class).hasCause(checked);
  }

  @Test
  void cancelInterruptsTheWorkAndReturnsOnlyOnceItHasEnded() throws InterruptedException {
    CountDownLatch started = new CountDownLatch(1);
    AtomicBoolean ended = new AtomicBoolean();
    InBackground<Void> work = InBackground.start("cluster-resolver-test-cancel", () -> {
      started.countDown();
      try {
        release.await(); // a request in flight: it leaves at the interrupt
        return null;
      } finally {
        Thread.sleep(200); // its clean-up, which cancel waits for
        ended.set(true);
      }
    });
    assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();

    work.cancel();

    assertThat(ended).as("ended before cancel returned").isTrue();
    assertThat(threadsNamed("cluster-resolver-test-cancel")).isEmpty();
    assertThat(catchThrowable(work::join)).isInstanceOf(ClusterResolverException.class)
        .hasMessage("cluster-resolver-test-cancel was cancelled before it ended");
  }

  @Test
  void aCancelBeforeTheWorkStartedNeitherWaitsNorLetsItRun() throws InterruptedException {
    ExecutorService one = InBackground.daemonThreads("cluster-resolver-test-queue", 1);
    CountDownLatch busy = new CountDownLatch(1);
    InBackground<Void> first = InBackground.start(one, "first", () -> {
      busy.countDown();
      release.await();
      return null;
    });
    assertThat(busy.await(30, TimeUnit.SECONDS)).isTrue();
    AtomicBoolean ran = new AtomicBoolean();
    InBackground<Void> queued = InBackground.start(one, "queued", () -> {
      ran.set(true);
      return null;
    });

    queued.cancel(); // returns although the pool's one thread is still busy with the first

    release.countDown();
    first.join();
    InBackground.start(one, "after", () -> null).join(); // the queue is drained up to here
    assertThat(ran).as("the cancelled work ran").isFalse();
  }

  @Test
  void joinWithinATimeGivesUpWhenItIsUpWithATimeoutAndDoesNotWaitForWorkIgnoringTheInterrupt()
      throws InterruptedException {
    AtomicInteger interrupts = new AtomicInteger();
    InBackground<String> work = InBackground.start("cluster-resolver-test-slow", () -> {
      while (true) {
        try {
          release.await(); // a call that does not stop at an interrupt
          return "late";
        } catch (InterruptedException e) {
          interrupts.incrementAndGet();
        }
      }
    });

    long start = System.nanoTime();
    Throwable thrown = catchThrowable(() -> work.join(Duration.ofMillis(300)));
    Duration waited = Duration.ofNanos(System.nanoTime() - start);

    assertThat(thrown).isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining("cluster-resolver-test-slow: no answer within 300 ms")
        .hasRootCauseInstanceOf(TimeoutException.class);
    assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(300)).isLessThan(Duration.ofSeconds(20));
    release.countDown();
    awaitNoThreadNamed("cluster-resolver-test-slow");
    assertThat(interrupts).as("the work was interrupted").hasValue(1);
  }

  @Test
  void anInterruptOfTheWaitingCallerCancelsTheWorkAndIsKept() throws InterruptedException {
    CountDownLatch started = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    InBackground<Void> work = InBackground.start("cluster-resolver-test-interrupt", () -> {
      started.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
      return null;
    });
    assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicBoolean flagKept = new AtomicBoolean();
    Thread caller = new Thread(() -> {
      thrown.set(catchThrowable(work::join));
      flagKept.set(Thread.currentThread().isInterrupted());
    });
    caller.start();
    caller.interrupt();
    caller.join(30_000);

    assertThat(thrown.get()).isInstanceOf(ClusterResolverException.class)
        .hasMessage("interrupted while waiting for cluster-resolver-test-interrupt");
    assertThat(flagKept).isTrue();
    awaitNoThreadNamed("cluster-resolver-test-interrupt");
    assertThat(interrupted).as("the work was interrupted").isTrue();
  }

  @Test
  void aBoundedPoolRunsAtMostItsMaximumAtOnceAndAllTheRestInTurn() {
    ExecutorService pool = InBackground.daemonThreads("cluster-resolver-test-bounded", 3);
    CountDownLatch threeAtOnce = new CountDownLatch(3);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    List<InBackground<String>> works = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      String name = "work " + i;
      works.add(InBackground.start(pool, name, () -> {
        most.accumulateAndGet(running.incrementAndGet(), Math::max);
        threeAtOnce.countDown();
        assertThat(threeAtOnce.await(30, TimeUnit.SECONDS)).as("three run at once").isTrue();
        Thread.sleep(20);
        running.decrementAndGet();
        assertThat(Thread.currentThread().getName()).isEqualTo("cluster-resolver-test-bounded");
        assertThat(Thread.currentThread().isDaemon()).isTrue();
        return name;
      }));
    }
    for (int i = 0; i < works.size(); i++) {
      assertThat(works.get(i).join()).isEqualTo("work " + i);
    }
    assertThat(most.get()).isEqualTo(3);
  }

  @Test
  void anUnboundedPoolRunsEveryWorkAtOnceOnNamedDaemonThreads() {
    ExecutorService pool = InBackground.daemonThreads("cluster-resolver-test-cached");
    CountDownLatch allAtOnce = new CountDownLatch(8);
    List<InBackground<Thread>> works = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      works.add(InBackground.start(pool, "work " + i, () -> {
        allAtOnce.countDown();
        assertThat(allAtOnce.await(30, TimeUnit.SECONDS)).as("eight run at once").isTrue();
        return Thread.currentThread();
      }));
    }
    for (InBackground<Thread> work : works) {
      Thread thread = work.join();
      assertThat(thread.isDaemon()).isTrue();
      assertThat(thread.getName()).isEqualTo("cluster-resolver-test-cached");
    }
  }

  private static List<Thread> threadsNamed(String name) {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name) && t.isAlive()).toList();
  }

  private static void awaitNoThreadNamed(String name) throws InterruptedException {
    for (int i = 0; i < 300 && !threadsNamed(name).isEmpty(); i++) {
      Thread.sleep(100);
    }
    assertThat(threadsNamed(name)).as("threads named %s", name).isEmpty();
  }
}
