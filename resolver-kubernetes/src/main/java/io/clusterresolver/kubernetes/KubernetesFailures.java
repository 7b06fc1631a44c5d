package io.clusterresolver.kubernetes;

import io.clusterresolver.cloud.ApiFailure;
import java.time.Duration;

/** Reads the facts of a failed API call for {@link io.clusterresolver.cloud.CloudApi}. */
final class KubernetesFailures {

  private KubernetesFailures() {}

  /**
   * The API server's answer to a call that failed: its HTTP status, the {@code Status} it sent and
   * the {@code Audit-Id} (the id its audit log and support know the request by), and how long it asked to wait
   * ({@code Retry-After}, as API Priority and Fairness sends with a 429).
   */
  static final class ApiError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int code;
    private final transient PodListJson.Status status;
    private final String auditId;
    private final Duration retryAfter;

    ApiError(String operation, int code, PodListJson.Status status, String auditId, Duration retryAfter) {
      super(operation + ": HTTP " + code + (status.message() == null ? "" : ": " + status.message()), null, false,
          false);
      this.code = code;
      this.status = status;
      this.auditId = auditId;
      this.retryAfter = retryAfter;
    }

    /** The HTTP status. */
    int code() {
      return code;
    }

    /** The {@code Status} the API server sent with it ({@link PodListJson.Status#NONE} if none). */
    PodListJson.Status status() {
      return status;
    }

    /** The {@code Audit-Id} header, or {@code null}. */
    String auditId() {
      return auditId;
    }

    /** The wait the {@code Retry-After} header asked for, or {@code null}. */
    Duration retryAfter() {
      return retryAfter;
    }
  }

  /** The failure of one attempt (the client makes one: {@link ApiConnection#RETRY}). */
  static ApiFailure read(RuntimeException failure) {
    if (failure instanceof ApiError e) {
      return ApiFailure.http(e.code(), e.status().reason(), e.status().message(), e.auditId(), 1)
          .withRetryAfter(e.retryAfter());
    }
    // the JDK's HttpURLConnection (a read, or CloudHttp's alarm), fabric8's java.net.http client, a join's wait
    return ApiFailure.withoutAnswer(failure);
  }
}
