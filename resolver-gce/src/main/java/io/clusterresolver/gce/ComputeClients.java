package io.clusterresolver.gce;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.retrying.RetrySettings;
import com.google.api.gax.rpc.ApiCallContext;
import com.google.api.gax.rpc.StatusCode;
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
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * The four Compute Engine calls the provider makes, with the real {@code google-cloud-compute}
 * clients over REST, created on first use (so creating a resolver touches neither the network nor
 * the credentials). Each call runs with what is left of the resolve's deadline; the SDK retries
 * throttling (429) and server errors (500, 503) within it, and this class retries Compute Engine's
 * rate-quota answer (403 {@code rateLimitExceeded}), which the SDK takes for a permission error.
 */
final class ComputeClients {

  /** Compute Engine's largest page. */
  static final int PAGE_SIZE = 500;

  /** Read-only access to Compute Engine is all the provider needs. */
  static final String SCOPE = "https://www.googleapis.com/auth/compute.readonly";

  /** Reads are idempotent: throttling (429), server errors (500, 503) and lost answers are retried. */
  private static final Set<StatusCode.Code> RETRYABLE = Set.of(StatusCode.Code.RESOURCE_EXHAUSTED,
      StatusCode.Code.INTERNAL, StatusCode.Code.UNAVAILABLE, StatusCode.Code.DEADLINE_EXCEEDED);

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
    return withRateQuotaRetries(remaining, left -> instances().aggregatedListCallable().call(r.build(), context(left)));
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
    return withRateQuotaRetries(remaining, left -> instances().listCallable().call(r.build(), context(left)));
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
    return withRateQuotaRetries(remaining, left -> groups().listInstancesCallable().call(r.build(), context(left)));
  }

  MachineType machineType(String project, String zone, String type, Duration remaining) {
    GetMachineTypeRequest request = GetMachineTypeRequest.newBuilder().setProject(project).setZone(zone)
        .setMachineType(type).build();
    return withRateQuotaRetries(remaining, left -> machineTypes().getCallable().call(request, context(left)));
  }

  /**
   * Runs a call, retrying Compute Engine's answer to a project over its rate quota (403
   * {@code rateLimitExceeded}, which the SDK does not retry: see {@link GceFailures#isRateQuota})
   * with jittered exponential backoff from 1 s (the quotas refill each minute) while the deadline
   * leaves time for the wait. Every other failure is the SDK's to retry or to report.
   */
  private static <T> T withRateQuotaRetries(Duration remaining, Function<Duration, T> call) {
    long deadline = System.nanoTime() + remaining.toNanos();
    long backoffMs = 1000;
    for (int attempt = 1; ; attempt++) {
      try {
        return call.apply(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
      } catch (RuntimeException e) {
        long waitMs = ThreadLocalRandom.current().nextLong(backoffMs / 2, backoffMs + 1);
        if (!GceFailures.isRateQuota(e) || System.nanoTime() + waitMs * 1_000_000 >= deadline) {
          if (attempt > 1) {
            e.addSuppressed(new Attempts(attempt));
          }
          throw e;
        }
        try {
          Thread.sleep(waitMs);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
        backoffMs = Math.min(backoffMs * 2, 16_000);
      }
    }
  }

  /** How many attempts {@link #withRateQuotaRetries} made, carried as a suppressed exception. */
  static final class Attempts extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int count;

    Attempts(int count) {
      super(count + " attempts", null, false, false);
      this.count = count;
    }
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
    settings.setRetryableCodes(RETRYABLE).setRetrySettings(RetrySettings.newBuilder()
        .setMaxAttempts(4)
        .setInitialRetryDelayDuration(Duration.ofMillis(200))
        .setRetryDelayMultiplier(2.0)
        .setMaxRetryDelayDuration(Duration.ofSeconds(2))
        .setInitialRpcTimeoutDuration(timeout)
        .setRpcTimeoutMultiplier(1.0)
        .setMaxRpcTimeoutDuration(timeout)
        .setTotalTimeoutDuration(timeout)
        .build());
  }
}
