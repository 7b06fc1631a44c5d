package io.clusterresolver.gce;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.rpc.ApiCallContext;
import com.google.cloud.compute.v1.AggregatedListInstancesRequest;
import com.google.cloud.compute.v1.GetMachineTypeRequest;
import com.google.cloud.compute.v1.InstanceAggregatedList;
import com.google.cloud.compute.v1.InstanceGroupsClient;
import com.google.cloud.compute.v1.InstanceGroupsListInstances;
import com.google.cloud.compute.v1.InstanceGroupsListInstancesRequest;
import com.google.cloud.compute.v1.InstanceGroupsSettings;
import com.google.cloud.compute.v1.InstanceList;
import com.google.cloud.compute.v1.InstancesSettings;
import com.google.cloud.compute.v1.ListInstancesInstanceGroupsRequest;
import com.google.cloud.compute.v1.ListInstancesRequest;
import com.google.cloud.compute.v1.MachineType;
import com.google.cloud.compute.v1.MachineTypesClient;
import com.google.cloud.compute.v1.MachineTypesSettings;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.google.GoogleClients;
import io.clusterresolver.google.GoogleRest;
import java.net.URI;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The four Compute Engine calls the provider makes, with {@code google-cloud-compute}'s settings and
 * messages over REST (the two instance listings through {@link InstancesListing}, not the SDK's heavy
 * {@code InstancesClient}), created on first use (so creating a resolver touches neither the network nor
 * the credentials). Each call runs with what is left of the resolve's deadline and is made once: the
 * kit's {@code CloudApi} retries it ({@link GceFailures#API}), Compute Engine's rate-quota answer (403
 * {@code rateLimitExceeded}, which the SDK would take for a permission error) included.
 */
final class ComputeClients {

  /** Compute Engine's largest page. */
  static final int PAGE_SIZE = 500;

  /** Read-only access to Compute Engine is all the provider needs. */
  static final String SCOPE = "https://www.googleapis.com/auth/compute.readonly";

  private final GoogleClients clients = new GoogleClients();
  private final Supplier<InstancesListing> instances;
  private final Supplier<InstanceGroupsClient> groups;
  private final Supplier<MachineTypesClient> machineTypes;

  ComputeClients(URI endpoint, CredentialsProvider credentials, Duration timeout, AnswerLimit limit) {
    GoogleRest rest = new GoogleRest(endpoint, credentials, limit);
    this.instances = clients.client(() -> {
      InstancesSettings.Builder b = rest.connect(InstancesSettings.newBuilder());
      GoogleRest.oneAttempt(b.aggregatedListSettings(), timeout);
      GoogleRest.oneAttempt(b.listSettings(), timeout);
      return GoogleRest.create(() -> new InstancesListing(b.build()));
    });
    this.groups = clients.client(() -> {
      InstanceGroupsSettings.Builder b = rest.connect(InstanceGroupsSettings.newBuilder());
      GoogleRest.oneAttempt(b.listInstancesSettings(), timeout);
      return GoogleRest.create(() -> InstanceGroupsClient.create(b.build()));
    });
    this.machineTypes = clients.client(() -> {
      MachineTypesSettings.Builder b = rest.connect(MachineTypesSettings.newBuilder());
      GoogleRest.oneAttempt(b.getSettings(), timeout);
      return GoogleRest.create(() -> MachineTypesClient.create(b.build()));
    });
  }

  /** Takes the clients for one resolve ({@link GoogleClients#lease()}): the last resolve to end closes them. */
  GoogleClients.Lease lease() {
    return clients.lease();
  }

  InstanceAggregatedList aggregatedList(String project, String filter, String token, Duration remaining) {
    AggregatedListInstancesRequest.Builder r = AggregatedListInstancesRequest.newBuilder().setProject(project)
        .setMaxResults(PAGE_SIZE).setReturnPartialSuccess(true);
    if (!filter.isEmpty()) {
      r.setFilter(filter);
    }
    if (token != null) {
      r.setPageToken(token);
    }
    return instances.get().aggregatedListCallable().call(r.build(), context(remaining));
  }

  InstanceList list(String project, String zone, String filter, String token, Duration remaining) {
    ListInstancesRequest.Builder r = ListInstancesRequest.newBuilder().setProject(project).setZone(zone)
        .setMaxResults(PAGE_SIZE);
    if (!filter.isEmpty()) {
      r.setFilter(filter);
    }
    if (token != null) {
      r.setPageToken(token);
    }
    return instances.get().listCallable().call(r.build(), context(remaining));
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

  MachineType machineType(String project, String zone, String type, Duration remaining) {
    GetMachineTypeRequest request = GetMachineTypeRequest.newBuilder().setProject(project).setZone(zone)
        .setMachineType(type).build();
    return machineTypes.get().getCallable().call(request, context(remaining));
  }

  private static ApiCallContext context(Duration remaining) {
    return GoogleRest.context(remaining);
  }
}
