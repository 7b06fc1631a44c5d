package io.clusterresolver;

/**
 * The cluster could not be resolved: the source of truth failed or is missing (a cloud API error
 * after retries, a missing scheduler variable, an unreachable metadata server). The message names
 * the provider, the operation and what to change. Unchecked, like TensorFlow's
 * {@code RuntimeError}.
 *
 * <p>Most failures may go away by themselves (a throttled page, a fleet still starting, a role
 * granted meanwhile), so they are {@linkplain #isRetryable() retryable} and a {@link ClusterWait}
 * keeps polling through them. A provider that knows the failure will not go away by waiting (a TPU
 * node that was preempted and must be recreated) says so with {@code retryable = false}; a wait then
 * stops at once.
 */
public class ClusterResolverException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Whether waiting cannot fix it; {@code false} (retryable) in every form serialized before it existed. */
  private final boolean terminal;

  public ClusterResolverException(String message) {
    this(message, null, true);
  }

  public ClusterResolverException(String message, Throwable cause) {
    this(message, cause, true);
  }

  /**
   * A failure that says whether asking again later may succeed.
   *
   * @param message what failed and what to change
   * @param cause the underlying failure, or {@code null}
   * @param retryable {@code false} when the failure will not go away by waiting (a terminal state of the
   *     source of truth), so that {@link ClusterWait} stops at once; {@code true} otherwise
   * @since 1.1.0
   */
  public ClusterResolverException(String message, Throwable cause, boolean retryable) {
    super(message, cause);
    this.terminal = !retryable;
  }

  /**
   * Whether asking again later may succeed: {@code true} unless the provider said the failure will not
   * go away by waiting (then {@link ClusterWait} and {@link ClusterResolvers#await} stop at once).
   *
   * @since 1.1.0
   */
  public boolean isRetryable() {
    return !terminal;
  }
}
