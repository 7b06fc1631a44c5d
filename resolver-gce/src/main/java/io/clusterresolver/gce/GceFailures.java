package io.clusterresolver.gce;

import com.google.api.client.http.HttpResponseException;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.StatusCode;
import io.clusterresolver.cloud.ApiFailure;
import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.RetryAfter;
import io.clusterresolver.cloud.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import io.clusterresolver.google.GoogleError;
import io.clusterresolver.google.GoogleRest;
import java.util.Optional;

/**
 * Reads Compute Engine failures for the kit: the HTTP status and Google's JSON error body
 * ({@code {"error": {"code", "message", "errors": [{"reason"}], "status"}}}), an answer that is not the
 * API's JSON, or no answer at all.
 */
final class GceFailures {

  static final String CREDENTIALS_HINT = "set clusterresolver.gce.credentials to a service-account JSON key file,"
      + " or none for an emulator or proxy, or give Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS,"
      + " gcloud auth application-default login, or the instance's service account)";

  static final CloudApi API = CloudApi.builder(GceClusterResolverProvider.NAME, GceFailures::read)
      .permissions("compute.instances.list, compute.instanceGroups.get and compute.machineTypes.get"
          + " (roles/compute.viewer)")
      .credentialsHint(CREDENTIALS_HINT)
      .apiName("Compute Engine")
      // Throttled from 1 s: the rate quotas (403 rateLimitExceeded) refill each minute (cloud.google.com/compute/api-quota).
      .retryPolicy(RetryPolicy.builder().maxAttempts(4).baseBackoff(Duration.ofMillis(200))
          .throttlingBackoff(Duration.ofSeconds(1)).maxBackoff(Duration.ofSeconds(16)).build())
      .build();

  private GceFailures() {}

  static ApiFailure read(RuntimeException e) {
    if (e instanceof GoogleRest.CredentialsUnavailable) {
      return ApiFailure.of(ApiFailure.Kind.CREDENTIALS, e.getMessage(), 1);
    }
    HttpResponseException http = GoogleError.answer(e).orElse(null);
    if (http != null) {
      Optional<GoogleError> error = GoogleError.parse(http.getContent());
      String message = error.map(GoogleError::message).orElse(http.getStatusMessage());
      String reason = error.map(GoogleError::reason).or(() -> error.map(GoogleError::status)).orElse(null);
      String requestId = http.getHeaders() == null ? null : http.getHeaders().getFirstHeaderStringValue("x-request-id");
      String retryAfter = http.getHeaders() == null ? null : http.getHeaders().getFirstHeaderStringValue("Retry-After");
      return ApiFailure.http(http.getStatusCode(), reason, message, requestId, 1)
          .withRetryAfter(RetryAfter.parse(retryAfter, Instant.now()));
    }
    if (e instanceof ApiException && ((ApiException) e).getStatusCode().getCode() == StatusCode.Code.DEADLINE_EXCEEDED) {
      return ApiFailure.of(ApiFailure.Kind.TIMEOUT, e.getMessage(), 1);
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      String name = t.getClass().getName();
      if (name.contains("InvalidProtocolBuffer") || name.contains("RestSerialization") || name.contains("Json")
          || name.contains("MalformedJson") || name.contains("EOFException")) {
        return ApiFailure.of(ApiFailure.Kind.MALFORMED_RESPONSE, t.getClass().getSimpleName() + ": " + t.getMessage(), 1);
      }
    }
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return ApiFailure.of(ApiFailure.Kind.NO_RESPONSE, root.getClass().getSimpleName() + ": " + root.getMessage(), 1);
  }
}
