package io.clusterresolver;

/**
 * The cluster could not be resolved: the source of truth failed or is missing (a cloud API error
 * after retries, a missing scheduler variable, an unreachable metadata server). The message names
 * the provider, the operation and what to change. Unchecked, like TensorFlow's
 * {@code RuntimeError}.
 */
public class ClusterResolverException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ClusterResolverException(String message) {
    super(message);
  }

  public ClusterResolverException(String message, Throwable cause) {
    super(message, cause);
  }
}
