package io.clusterresolver.gce;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.retrying.RetrySettings;
import com.google.api.gax.rpc.ApiCallContext;
import com.google.api.gax.rpc.UnaryCallSettings;
import com.google.cloud.compute.v1.AggregatedListInstancesRequest;
import com.google.cloud.compute.v1.GetMachineTypeRequest;
import com.google.cloud.compute.v1.InstanceAggregatedList;
import com.google.cloud.compute.v1.InstanceGroupsClient;
import com.google.cloud.compute.v1.InstanceGroupsListInstances;
import com.google.cloud.compute.v1.InstanceGroupsListInstancesRequest;
import com.google.cloud.compute.v1.InstanceGroupsSettings;
import com.google.cloud.compute.v1.InstanceList;
import com.google.cloud.compute.v1.InstancesClient;
import com.google.cloud.compute.v1.InstancesSettings;
import com.google.cloud.compute.v1.ListInstancesInstanceGroupsRequest;
import com.google.cloud.compute.v1.ListInstancesRequest;
import com.google.cloud.compute.v1.MachineType;
import com.google.cloud.compute.v1.MachineTypesClient;
import com.google.cloud.compute.v1.MachineTypesSettings;
import io.clusterresolver.cloud.AnswerLimit;
import io.clusterresolver.google.GoogleRest;
import java.net.URI;
import java.time.Duration;
import java.util.Set;

/**
 * The four Compute Engine calls the provider makes, with the real {@code google-cloud-compute}
 * clients over REST, created on first use (so creating a resolver touches neither the network nor
 * the credentials). Each call runs with what is left of the resolve's deadline and is made once: the
 * kit's {@code CloudApi} retries it ({@link GceFailures#API}), Compute Engine's rate-quota answer (403
 * {@code rateLimitExceeded}, which the SDK would take for a permission error) included.
 */
final class ComputeClients {

  /** Compute Engine's largest page. */
  static final int PAGE_SIZE = 500;

  /** Read-only access to Compute Engine is all the provider needs. */
  static final String SCOPE = "https://www.googleapis.com/auth/compute.readonly";

  private final GoogleRest rest;
  private final Duration timeout;
  private InstancesClient instances;
  private InstanceGroupsClient groups;
  private MachineTypesClient machineTypes;

  /** Resolves using the clients now; the last one to end closes them. */
  private int leases;

  ComputeClients(URI endpoint, CredentialsProvider credentials, Duration timeout, AnswerLimit limit) {
    this.rest = new GoogleRest(endpoint, credentials, limit);
    this.timeout = timeout;
  }

  /** One resolve's use of the clients, ended by {@link Lease#close()}. */
  interface Lease extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Takes the clients for one resolve. They are created on first use and closed when the last resolve
   * using them ends: gax's HTTP/JSON channel keeps a non-daemon scheduler thread until it is closed, which
   * would keep a program that resolved from exiting.
   */
  synchronized Lease lease() {
    leases++;
    return this::release;
  }

  private synchronized void release() {
    if (--leases > 0) {
      return;
    }
    for (AutoCloseable client : new AutoCloseable[] {instances, groups, machineTypes}) {
      if (client != null) {
        try {
          client.close();
        } catch (Exception e) {
          // closing only frees threads; nothing is lost
        }
      }
    }
    instances = null;
    groups = null;
    machineTypes = null;
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
    return instances().aggregatedListCallable().call(r.build(), context(remaining));
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
    return instances().listCallable().call(r.build(), context(remaining));
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
    return groups().listInstancesCallable().call(r.build(), context(remaining));
  }

  MachineType machineType(String project, String zone, String type, Duration remaining) {
    GetMachineTypeRequest request = GetMachineTypeRequest.newBuilder().setProject(project).setZone(zone)
        .setMachineType(type).build();
    return machineTypes().getCallable().call(request, context(remaining));
  }

  private static ApiCallContext context(Duration remaining) {
    return GoogleRest.context(remaining);
  }

  private synchronized InstancesClient instances() {
    if (instances == null) {
      InstancesSettings.Builder b = rest.connect(InstancesSettings.newBuilder());
      retries(b.aggregatedListSettings());
      retries(b.listSettings());
      instances = GoogleRest.create(() -> InstancesClient.create(b.build()));
    }
    return instances;
  }

  private synchronized InstanceGroupsClient groups() {
    if (groups == null) {
      InstanceGroupsSettings.Builder b = rest.connect(InstanceGroupsSettings.newBuilder());
      retries(b.listInstancesSettings());
      groups = GoogleRest.create(() -> InstanceGroupsClient.create(b.build()));
    }
    return groups;
  }

  private synchronized MachineTypesClient machineTypes() {
    if (machineTypes == null) {
      MachineTypesSettings.Builder b = rest.connect(MachineTypesSettings.newBuilder());
      retries(b.getSettings());
      machineTypes = GoogleRest.create(() -> MachineTypesClient.create(b.build()));
    }
    return machineTypes;
  }

  private void retries(UnaryCallSettings.Builder<?, ?> settings) {
    settings.setRetryableCodes(Set.of()).setRetrySettings(RetrySettings.newBuilder()
        .setMaxAttempts(1)
        .setInitialRpcTimeoutDuration(timeout)
        .setRpcTimeoutMultiplier(1.0)
        .setMaxRpcTimeoutDuration(timeout)
        .setTotalTimeoutDuration(timeout)
        .build());
  }
}
