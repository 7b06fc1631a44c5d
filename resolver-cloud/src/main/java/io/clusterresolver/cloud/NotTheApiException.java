package io.clusterresolver.cloud;

/**
 * A successful answer that is not in the API's format: valid JSON, even, but without what the API
 * always sends (Compute Engine's {@code kind}, a Kubernetes list's {@code metadata.resourceVersion},
 * a TPU node's {@code name}). A proxy's welcome page or a wrong endpoint would otherwise read as an
 * empty cluster. Thrown by a provider's call inside a {@link CloudApi.Session}, which reports it
 * naming the operation and the endpoint property, and as not retryable: waiting does not fix an
 * endpoint.
 */
public final class NotTheApiException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** @param missing what the answer lacks, like {@code no "kind": "compute#instanceList"} */
  public NotTheApiException(String missing) {
    super(missing, null, false, false);
  }

  /**
   * {@code answer} when {@code expected} holds of it.
   *
   * @throws NotTheApiException saying {@code missing} otherwise
   */
  public static <T> T require(T answer, boolean expected, String missing) {
    if (!expected) {
      throw new NotTheApiException(missing);
    }
    return answer;
  }
}
