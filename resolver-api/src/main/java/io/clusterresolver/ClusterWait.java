package io.clusterresolver;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Waits for a cluster to form: launchers start before every machine is up (and a TPU slice is
 * {@code CREATING} for minutes), so a task that resolves at once may see half a fleet. This polls
 * {@link ClusterResolver#resolve()} until the cluster has at least {@code minTasks} tasks, with a
 * backoff that starts at {@link #initialInterval(Duration)} and doubles up to
 * {@link #maxInterval(Duration)} — gentle on the clouds' API rate limits — and gives up at the
 * timeout. Immutable; {@link #await(ClusterResolver)} may be called from any thread.
 *
 * <pre>{@code
 * Resolution r = ClusterWait.forTasks(16).timeout(Duration.ofMinutes(5))
 *     .onPoll(p -> log.info(p.toString()))
 *     .await(resolver);
 * }</pre>
 *
 * <p>A resolve that fails with {@link ClusterResolverException} (a fleet too small for the
 * configured job counts, a throttled page) counts as "not yet" and is retried; a
 * {@link ConfigurationException} is thrown at once, since waiting cannot fix it, and so is a
 * {@link ClusterResolverException} that is not {@linkplain ClusterResolverException#isRetryable()
 * retryable} (a terminal state of the source of truth, like a preempted TPU node).
 */
public final class ClusterWait {

  /** One poll's outcome, for progress reports. */
  public record Poll(int number, int tasks, int minTasks, Duration elapsed, String failure) {
    /** A line for a person: {@code poll 3: 5 of 8 tasks after 4.0 s}. */
    @Override
    public String toString() {
      return "poll " + number + ": " + (failure != null ? "not resolved yet (" + failure + ")"
          : tasks + " of " + minTasks + " tasks") + " after " + String.format("%.1f s", elapsed.toMillis() / 1000.0);
    }
  }

  private final int minTasks;
  private final Duration timeout;
  private final Duration initialInterval;
  private final Duration maxInterval;
  private final Consumer<Poll> onPoll;

  private ClusterWait(int minTasks, Duration timeout, Duration initialInterval, Duration maxInterval,
      Consumer<Poll> onPoll) {
    this.minTasks = minTasks;
    this.timeout = timeout;
    this.initialInterval = initialInterval;
    this.maxInterval = maxInterval;
    this.onPoll = onPoll;
  }

  /**
   * Waits until the cluster has at least {@code minTasks} tasks (1: any non-empty cluster); by
   * default for up to 10 minutes, polling after 1 s, then backing off to every 15 s.
   */
  public static ClusterWait forTasks(int minTasks) {
    if (minTasks < 1) {
      throw new ConfigurationException("The number of tasks to wait for must be at least 1, not " + minTasks);
    }
    return new ClusterWait(minTasks, Duration.ofMinutes(10), Duration.ofSeconds(1), Duration.ofSeconds(15), p -> { });
  }

  /** How long to wait at most. */
  public ClusterWait timeout(Duration timeout) {
    requirePositive(timeout, "timeout");
    return new ClusterWait(minTasks, timeout, initialInterval, maxInterval, onPoll);
  }

  /** The pause after the first poll; each later pause doubles, up to {@link #maxInterval(Duration)}. */
  public ClusterWait initialInterval(Duration interval) {
    requirePositive(interval, "initial interval");
    return new ClusterWait(minTasks, timeout, interval, maxInterval.compareTo(interval) < 0 ? interval : maxInterval,
        onPoll);
  }

  /** The longest pause between two polls. */
  public ClusterWait maxInterval(Duration interval) {
    requirePositive(interval, "max interval");
    return new ClusterWait(minTasks, timeout, initialInterval.compareTo(interval) > 0 ? interval : initialInterval,
        interval, onPoll);
  }

  /** Told about every poll that did not yet see enough tasks (and the last one that did). */
  public ClusterWait onPoll(Consumer<Poll> listener) {
    return new ClusterWait(minTasks, timeout, initialInterval, maxInterval, Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Polls until the cluster is big enough.
   *
   * @return the first resolution with at least {@code minTasks} tasks
   * @throws ClusterResolverException past the timeout, saying what the last poll saw; or at once, not
   *     {@linkplain ClusterResolverException#isRetryable() retryable}, with the provider's message, when a
   *     poll failed in a way that waiting cannot fix
   * @throws ConfigurationException at once, when the configuration is wrong
   */
  public Resolution await(ClusterResolver resolver) {
    long start = System.nanoTime();
    long end = start + timeout.toNanos();
    Duration pause = initialInterval;
    Poll last = null;
    for (int number = 1; ; number++) {
      Resolution resolution = null;
      String failure = null;
      ClusterResolverException terminal = null;
      try {
        resolution = resolver.resolve();
      } catch (ConfigurationException e) {
        throw e;
      } catch (ClusterResolverException e) {
        failure = e.getMessage();
        terminal = e.isRetryable() ? null : e;
      }
      int tasks = resolution == null ? 0 : resolution.clusterSpec().totalTasks();
      last = new Poll(number, tasks, minTasks, Duration.ofNanos(System.nanoTime() - start), failure);
      onPoll.accept(last);
      if (resolution != null && tasks >= minTasks) {
        return resolution;
      }
      if (terminal != null) {
        throw new ClusterResolverException("Stopped waiting for the cluster at poll " + number + " after "
            + String.format("%.1f s", last.elapsed().toMillis() / 1000.0) + ": the failure is terminal, waiting"
            + " will not fix it: " + terminal.getMessage(), terminal, false);
      }
      long left = end - System.nanoTime();
      if (left <= 0) {
        throw new ClusterResolverException("The cluster did not reach " + minTasks + " tasks within "
            + timeout.toMillis() + " ms: the last of " + number + " polls saw "
            + (failure != null ? "no cluster (" + failure + ")" : tasks + " tasks")
            + "; wait longer or check that every member is starting");
      }
      sleep(Math.min(pause.toNanos(), left));
      pause = pause.multipliedBy(2).compareTo(maxInterval) > 0 ? maxInterval : pause.multipliedBy(2);
    }
  }

  private static void sleep(long nanos) {
    try {
      Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClusterResolverException("Interrupted while waiting for the cluster to form", e);
    }
  }

  private static void requirePositive(Duration d, String what) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new ConfigurationException("The " + what + " of a wait must be positive, not " + d);
    }
  }
}
