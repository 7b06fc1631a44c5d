package io.clusterresolver.aws;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * This instance's identity, asked of the metadata service in the background as soon as the first
 * listing starts ({@link #start()}), so the metadata round trips overlap the first
 * {@code DescribeInstances} page instead of following it. Asked at most once; thread-safe.
 */
final class AsyncIdentity implements Supplier<Optional<String>> {

  private final Supplier<Optional<String>> source;
  private CompletableFuture<Optional<String>> answer;

  AsyncIdentity(Supplier<Optional<String>> source) {
    this.source = source;
  }

  /** Starts asking, once; later calls do nothing. */
  synchronized void start() {
    if (answer == null) {
      CompletableFuture<Optional<String>> future = new CompletableFuture<>();
      Thread t = new Thread(() -> {
        try {
          future.complete(source.get());
        } catch (RuntimeException e) {
          future.completeExceptionally(e);
        }
      }, "cluster-resolver-aws-imds");
      t.setDaemon(true);
      t.start();
      answer = future;
    }
  }

  /** The identity, waiting for the answer (starting to ask if nobody has). */
  @Override
  public Optional<String> get() {
    start();
    CompletableFuture<Optional<String>> future;
    synchronized (this) {
      future = answer;
    }
    try {
      return future.join();
    } catch (java.util.concurrent.CompletionException e) {
      throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
    }
  }
}
