package io.clusterresolver.gce;

import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.httpjson.InstantiatingHttpJsonChannelProvider;
import com.google.api.gax.httpjson.HttpJsonCallContext;
import com.google.api.gax.retrying.RetrySettings;
import com.google.api.gax.rpc.ApiCallContext;
import com.google.api.gax.rpc.ClientSettings;
import com.google.api.gax.rpc.UnaryCallSettings;
import com.google.auth.Credentials;
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
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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

  private final URI endpoint;
  private final CredentialsProvider credentials;
  private final Duration timeout;
  /** Every answer read through bounded connections: the size limit, and the call's timeout over the whole body. */
  private final HttpTransport transport;
  private InstancesClient instances;
  private InstanceGroupsClient groups;
  private MachineTypesClient machineTypes;

  /** Resolves using the clients now; the last one to end closes them. */
  private int leases;
  private Credentials loadedCredentials;

  ComputeClients(URI endpoint, CredentialsProvider credentials, Duration timeout, AnswerLimit limit) {
    this.endpoint = endpoint;
    this.transport = new NetHttpTransport.Builder().setConnectionFactory(limit::open).build();
    // Loaded once per resolver: clients come and go with resolves, the credentials (and their token) stay.
    this.credentials = () -> {
      synchronized (this) {
        if (loadedCredentials == null) {
          loadedCredentials = credentials.getCredentials();
        }
        return loadedCredentials;
      }
    };
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
    // The timeout bounds the wait for headers; the header (read by the bounded connection) bounds the body too.
    return HttpJsonCallContext.createDefault().withTimeoutDuration(remaining)
        .withExtraHeaders(Map.of(AnswerLimit.TIME_HEADER, List.of(Long.toString(Math.max(1, remaining.toMillis())))));
  }

  private synchronized InstancesClient instances() {
    if (instances == null) {
      InstancesSettings.Builder b = connected(InstancesSettings.newBuilder());
      retries(b.aggregatedListSettings());
      retries(b.listSettings());
      instances = create(() -> InstancesClient.create(b.build()));
    }
    return instances;
  }

  private synchronized InstanceGroupsClient groups() {
    if (groups == null) {
      InstanceGroupsSettings.Builder b = connected(InstanceGroupsSettings.newBuilder());
      retries(b.listInstancesSettings());
      groups = create(() -> InstanceGroupsClient.create(b.build()));
    }
    return groups;
  }

  private synchronized MachineTypesClient machineTypes() {
    if (machineTypes == null) {
      MachineTypesSettings.Builder b = connected(MachineTypesSettings.newBuilder());
      retries(b.getSettings());
      machineTypes = create(() -> MachineTypesClient.create(b.build()));
    }
    return machineTypes;
  }

  /** The credentials and, when overridden, the endpoint ({@code http://} is kept: the SDK assumes https otherwise). */
  private <B extends ClientSettings.Builder<?, B>> B connected(B builder) {
    builder.setCredentialsProvider(credentials);
    if (endpoint != null) {
      builder.setEndpoint(endpoint.toString());
    }
    builder.setTransportChannelProvider(((InstantiatingHttpJsonChannelProvider) builder.getTransportChannelProvider())
        .toBuilder().setHttpTransport(transport).build());
    return builder;
  }

  /** One attempt per call: the kit retries (an SDK retry inside it would multiply the attempts). */
  private void retries(UnaryCallSettings.Builder<?, ?> settings) {
    settings.setRetryableCodes(Set.of()).setRetrySettings(RetrySettings.newBuilder()
        .setMaxAttempts(1)
        .setInitialRpcTimeoutDuration(timeout)
        .setRpcTimeoutMultiplier(1.0)
        .setMaxRpcTimeoutDuration(timeout)
        .setTotalTimeoutDuration(timeout)
        .build());
  }

  /** A client factory that may fail on credentials (Application Default Credentials not found). */
  private interface Factory<T> {
    T create() throws IOException;
  }

  private static <T> T create(Factory<T> factory) {
    try {
      return factory.create();
    } catch (IOException e) {
      throw new NoCredentials(e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  /** Credentials could not be loaded: nothing was asked of the API (the kit makes it a configuration error). */
  static final class NoCredentials extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoCredentials(String message) {
      super(message, null, false, false);
    }
  }
}
