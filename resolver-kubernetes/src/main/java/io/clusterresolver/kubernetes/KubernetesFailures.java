package io.clusterresolver.kubernetes;

import io.clusterresolver.cloud.ApiFailure;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;

/** Reads the facts of a failed API call off the fabric8 client's exceptions, for {@link io.clusterresolver.cloud.CloudApi}. */
final class KubernetesFailures {

  private KubernetesFailures() {}

  /** A failed call with the API server's {@code Audit-Id} for it. */
  static final class Audited extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String auditId;

    Audited(KubernetesClientException cause, String auditId) {
      super(cause.getMessage(), cause);
      this.auditId = auditId;
    }
  }

  /** The failure of one attempt (the client makes one: {@link ApiConnection#RETRY}). */
  static ApiFailure read(RuntimeException failure) {
    String auditId = failure instanceof Audited a ? a.auditId : null;
    RuntimeException e = failure instanceof Audited a ? (RuntimeException) a.getCause() : failure;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof HttpTimeoutException || t instanceof TimeoutException) {
        return ApiFailure.of(ApiFailure.Kind.TIMEOUT, t.getMessage(), 1);
      }
      String type = t.getClass().getName();
      if (type.startsWith("tools.jackson.") || type.startsWith("com.fasterxml.jackson.")) {
        return ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, t.getClass().getSimpleName() + ": " + t.getMessage(), 1);
      }
    }
    if (e instanceof KubernetesClientException k && k.getCode() >= 300) {
      Status status = k.getStatus();
      String reason = status == null ? null : status.getReason();
      String message = status == null || status.getMessage() == null ? k.getMessage() : status.getMessage();
      return ApiFailure.http(k.getCode(), reason, message, auditId, 1);
    }
    if (e instanceof KubernetesClientException k && k.getCode() >= 200 && k.getCode() < 300) {
      return ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, k.getMessage(), 1);
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return ApiFailure.of(ApiFailure.Kind.NO_RESPONSE, root.getClass().getSimpleName()
        + (root.getMessage() == null ? "" : ": " + root.getMessage()), 1);
  }
}
