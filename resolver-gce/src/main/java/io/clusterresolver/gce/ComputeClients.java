package io.clusterresolver.gce;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.rpc.ApiCallContext;
import com.google.cloud.compute.v1.InstanceGroupsClient;
import com.google.cloud.compute.v1.InstanceGroupsListInstances;
import com.google.cloud.compute.v1.InstanceGroupsListInstancesRequest;
import com.google.cloud.compute.v1.InstanceGroupsSettings;
import com.google.cloud.compute.v1.ListInstancesInstanceGroupsRequest;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.google.GoogleApi;
import io.clusterresolver.google.GoogleClients;
import io.clusterresolver.google.GoogleRest;
import java.net.URI;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The four Compute Engine calls the provider makes over REST: the two instance listings and
 * {@code machineTypes.get} through {@link ComputeGets} (no SDK settings or messages, the answers streamed
 * into records), an instance group's members (a {@code POST}) with {@code google-cloud-compute}'s client,
 * each created on first use (so creating a resolver touches neither the network nor the credentials).
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
  private final Supplier<ComputeGets> gets;
  private final Supplier<InstanceGroupsClient> groups;

  ComputeClients(URI endpoint, CredentialsProvider credentials, Duration timeout, AnswerLimit limit) {
    this.compute = new GoogleApi(endpoint, credentials, limit);
    this.gets = compute.client(ComputeGets::new);
    this.groups = compute.client(rest -> {
      InstanceGroupsSettings.Builder b = rest.connect(InstanceGroupsSettings.newBuilder());
      GoogleRest.oneAttempt(b.listInstancesSettings(), timeout);
      return InstanceGroupsClient.create(b.build());
    });
  }

  /** Takes the clients for one resolve ({@link GoogleApi#lease()}): the last resolve to end closes them. */
  GoogleClients.Lease lease() {
    return compute.lease();
  }

  InstancePage aggregatedList(String project, String filter, String token, Duration remaining,
      Consumer<GceInstance> seen) {
    return gets.get().aggregatedList(project, filter, token, remaining, seen);
  }

  InstancePage list(String project, String zone, String filter, String token, Duration remaining,
      Consumer<GceInstance> seen) {
    return gets.get().list(project, zone, filter, token, remaining, seen);
  }

  InstanceGroupsListInstances groupMembers(String project, String zone, String group, String instanceState,
      String token, Duration remaining) {
    ListInstancesInstanceGroupsRequest.Builder r = ListInstancesInstanceGroupsRequest.newBuilder().setProject(project)
        .setZone(zone).setInstanceGroup(group).setMaxResults(PAGE_SIZE)
        .setInstanceGroupsListInstancesRequestResource(
            InstanceGroupsListInstancesRequest.newBuilder().setInstanceState(instanceState));
    if (token != null) {
      r.setPageToken(token);
    }
    return groups.get().listInstancesCallable().call(r.build(), context(remaining));
  }

  MachineTypeGpus.Answer machineType(String project, String zone, String type, Duration remaining) {
    return gets.get().machineType(project, zone, type, remaining);
  }

  private static ApiCallContext context(Duration remaining) {
    return GoogleRest.context(remaining);
  }
}
