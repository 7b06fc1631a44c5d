package io.clusterresolver.cloud;

import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.TaskProperties;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * This process's identity (an instance id, a VM name) from a metadata server, asked at most once
 * per resolver: an identity never changes while the process runs, and an answer of "none" (off
 * the cloud) is kept too, so a resolve off-cloud does not wait on the metadata server every time.
 * A failed ask is not kept: the next {@link #get()} asks again. A provider may {@link
 * #askInBackground()} when its listing starts, so the metadata round trips overlap the first page
 * instead of following it. Thread-safe.
 */
public final class SelfIdentity implements Supplier<Optional<String>> {

  private final Supplier<Optional<String>> source;
  /** The one ask, in flight or done; {@code null} before it or after it failed. Guarded by {@code this}. */
  private CompletableFuture<Optional<String>> answer;

  private SelfIdentity(Supplier<Optional<String>> source) {
    this.source = Objects.requireNonNull(source, "source");
  }

  /** The identity {@code source} gives, asked on first use only. */
  public static SelfIdentity cached(Supplier<Optional<String>> source) {
    return new SelfIdentity(source);
  }

  /** No identity: explicit {@code task-type}/{@code task-id} or nothing. */
  public static SelfIdentity none() {
    return cached(Optional::empty);
  }

  /**
   * Starts asking on a daemon thread of its own, unless an ask has started already; returns at once.
   * {@link #get()} then waits for that answer.
   */
  public void askInBackground() {
    CompletableFuture<Optional<String>> mine = new CompletableFuture<>();
    if (claim(mine) == mine) {
      Thread t = new Thread(() -> ask(mine), "cluster-resolver-self-identity");
      t.setDaemon(true);
      t.start();
    }
  }

  /**
   * What a member source runs as its listing starts: {@link #askInBackground()}, so that the metadata server's
   * round trip overlaps the listing's; nothing when {@code config} says which task this process is ({@code
   * task-type} and {@code task-id} both set), since the identity is then never asked.
   */
  public Runnable askedWhileListing(ResolverConfig config) {
    boolean placed = config.get(TaskProperties.TASK_TYPE) != null && config.get(TaskProperties.TASK_ID) != null;
    return placed ? () -> { } : this::askInBackground;
  }

  /** The identity: the answer of the ask in flight, or asked now on this thread. */
  @Override
  public Optional<String> get() {
    CompletableFuture<Optional<String>> mine = new CompletableFuture<>();
    CompletableFuture<Optional<String>> answer = claim(mine);
    if (answer == mine) {
      ask(mine);
    }
    try {
      return answer.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof Error) {
        throw (Error) e.getCause();
      }
      throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
    }
  }

  private synchronized CompletableFuture<Optional<String>> claim(CompletableFuture<Optional<String>> mine) {
    if (answer == null) {
      answer = mine;
    }
    return answer;
  }

  private void ask(CompletableFuture<Optional<String>> mine) {
    try {
      mine.complete(Objects.requireNonNull(source.get(), "identity source returned null"));
    } catch (RuntimeException | Error e) {
      synchronized (this) {
        answer = null; // not kept: the next get() asks again
      }
      mine.completeExceptionally(e);
    }
  }
}
