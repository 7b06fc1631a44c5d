package io.clusterresolver.gce;

import com.google.api.gax.core.CredentialsProvider;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.google.GoogleApi;
import io.clusterresolver.google.GoogleClients;
import java.net.URI;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The four Compute Engine calls the provider makes over REST, the two instance listings, an instance group's
 * members (a {@code POST}) and {@code machineTypes.get}, through {@link ComputeCalls} (no SDK settings or messages,
 * the answers streamed into records), created on first use (so creating a resolver touches neither the network
 * nor the credentials).
 * Each call runs with what is left of the resolve's deadline and is made once: the kit's
 * {@code CloudApi} retries it ({@link GceFailures#API}), Compute Engine's rate-quota answer (403
 * {@code rateLimitExceeded}, which the SDK would take for a permission error) included.
 */
final class ComputeClients {

  /** Compute Engine's largest page. */
  static final int PAGE_SIZE = 500;

  /** Read-only access to Compute Engine is all the provider needs. */
  static final String SCOPE = "https://www.googleapis.com/auth/compute.readonly";

  private final GoogleApi compute;
  private final Supplier<ComputeCalls> calls;

  ComputeClients(URI endpoint, CredentialsProvider credentials, AnswerLimit limit) {
    this.compute = new GoogleApi(endpoint, credentials, limit);
    this.calls = compute.client(ComputeCalls::new);
  }

  /** Takes the clients for one resolve ({@link GoogleApi#lease()}): the last resolve to end closes them. */
  GoogleClients.Lease lease() {
    return compute.lease();
  }

  InstancePage aggregatedList(String project, String filter, String token, Duration remaining,
      Consumer<GceInstance> seen) {
    return calls.get().aggregatedList(project, filter, token, remaining, seen);
  }

  InstancePage list(String project, String zone, String filter, String token, Duration remaining,
      Consumer<GceInstance> seen) {
    return calls.get().list(project, zone, filter, token, remaining, seen);
  }

  GroupMembersPage groupMembers(String project, String zone, String group, String instanceState, String token,
      Duration remaining) {
    return calls.get().groupMembers(project, zone, group, instanceState, token, remaining);
  }

  MachineTypeGpus.Answer machineType(String project, String zone, String type, Duration remaining) {
    return calls.get().machineType(project, zone, type, remaining);
  }
}
