package io.clusterresolver.kubernetes;

import io.clusterresolver.cloud.ApiErrorException;
import io.clusterresolver.cloud.ApiFailure;
import java.time.Duration;

/** Reads the facts of a failed API call for {@link io.clusterresolver.cloud.CloudApi}. */
final class KubernetesFailures {

  private KubernetesFailures() {}

  /**
   * The API server's answer to a call that failed, as the kit takes it: its HTTP status, the {@code Status} it sent,
   * the {@code Audit-Id} (the id its audit log and support know the request by), and how long it asked to wait
   * ({@code Retry-After}, as API Priority and Fairness sends with a 429).
   */
  static final class ApiError extends ApiErrorException {
    private static final long serialVersionUID = 1L;

    ApiError(String operation, int code, PodListJson.Status status, String auditId, Duration retryAfter) {
      super(operation + ": HTTP " + code + (status.message() == null ? "" : ": " + status.message()),
          ApiFailure.http(code, status.reason(), status.message(), auditId, 1).withRetryAfter(retryAfter));
    }
  }

  /**
   * The failure of one attempt (the client makes one: {@link ApiConnection#RETRY}) that got no answer; an error
   * answer is an {@link ApiError}, which the kit takes as it is.
   */
  static ApiFailure read(RuntimeException failure) {
    // the JDK's HttpURLConnection (a read, or CloudHttp's alarm), fabric8's java.net.http client, a join's wait
    return ApiFailure.withoutAnswer(failure);
  }
}
