package io.clusterresolver.gce;

import io.clusterresolver.cloud.CloudApi;
import io.clusterresolver.cloud.RetryPolicy;
import io.clusterresolver.google.GoogleFailure;
import java.time.Duration;

/**
 * How the kit explains and retries Compute Engine failures, read by {@link GoogleFailure}: the permissions,
 * the credentials hint and the retry policy.
 */
final class GceFailures {

  static final String CREDENTIALS_HINT = "set clusterresolver.gce.credentials to a service-account JSON key file,"
      + " or none for an emulator or proxy, or give Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS,"
      + " gcloud auth application-default login, or the instance's service account)";

  static final CloudApi API = CloudApi.builder(GceClusterResolverProvider.NAME, GoogleFailure::read)
      .permissions("compute.instances.list, compute.instanceGroups.get and compute.machineTypes.get"
          + " (roles/compute.viewer)")
      .credentialsHint(CREDENTIALS_HINT)
      .apiName("Compute Engine")
      // Throttled from 1 s: the rate quotas (403 rateLimitExceeded) refill each minute (cloud.google.com/compute/api-quota).
      .retryPolicy(RetryPolicy.builder().maxAttempts(4).baseBackoff(Duration.ofMillis(200))
          .throttlingBackoff(Duration.ofSeconds(1)).maxBackoff(Duration.ofSeconds(16)).build())
      .build();

  private GceFailures() {}
}
