package io.clusterresolver.grpc;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.TaskAddress;
import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Resolves one {@code cluster://} target: one {@link ClusterResolver#resolve()} per start or refresh,
 * off the channel's threads, and every task of the job as an address group (in task-index order).
 * Failures reach the channel as a {@link Status} — UNAVAILABLE when the source of truth did not
 * answer (the channel retries with backoff) or the target or configuration is wrong (the
 * description says "configuration:"), INTERNAL for a bug — never an empty address list.
 */
final class ClusterNameResolver extends NameResolver {

  private final ClusterTarget target;
  private final Executor executor;
  private final SynchronizationContext syncContext;
  private Listener2 listener;
  private ClusterResolver resolver;
  private boolean resolving;
  private boolean shutdown;

  ClusterNameResolver(ClusterTarget target, Executor executor, SynchronizationContext syncContext) {
    this.target = target;
    this.executor = executor != null ? executor : Runnable::run;
    this.syncContext = syncContext;
  }

  @Override
  public String getServiceAuthority() {
    return target.job() + (target.provider() == null ? "" : "." + target.provider());
  }

  @Override
  public void start(Listener2 listener) {
    this.listener = listener;
    resolve();
  }

  @Override
  public void refresh() {
    resolve();
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  /** Called in the synchronization context; the work runs on the executor. */
  private void resolve() {
    if (resolving || shutdown) {
      return;
    }
    resolving = true;
    executor.execute(() -> {
      List<EquivalentAddressGroup> groups = null;
      Status error = null;
      try {
        groups = addresses(resolver().resolve().clusterSpec());
      } catch (ConfigurationException e) {
        // Name resolution failures reach calls as UNAVAILABLE (gRPC turns other control-plane codes
        // into INTERNAL); the description says it is the configuration.
        error = Status.UNAVAILABLE.withDescription("configuration: " + e.getMessage());
      } catch (ClusterResolverException e) {
        error = Status.UNAVAILABLE.withDescription(e.getMessage());
      } catch (RuntimeException e) {
        error = Status.INTERNAL.withDescription("resolving " + target + " failed: " + e).withCause(e);
      }
      List<EquivalentAddressGroup> found = groups;
      Status failure = error;
      syncContext.execute(() -> {
        resolving = false;
        if (shutdown) {
          return;
        }
        if (failure != null) {
          listener.onError(failure);
        } else {
          listener.onResult(ResolutionResult.newBuilder().setAddresses(found).build());
        }
      });
    });
  }

  /** The resolver, created on first use (its configuration errors surface through the listener). */
  private synchronized ClusterResolver resolver() {
    if (resolver == null) {
      resolver = target.provider() != null
          ? ClusterResolvers.create(target.provider(), target.properties())
          : ClusterResolvers.detect();
    }
    return resolver;
  }

  private List<EquivalentAddressGroup> addresses(ClusterSpec spec) {
    if (!spec.hasJob(target.job())) {
      throw new ConfigurationException("Job '" + target.job() + "' of gRPC target cluster://"
          + (target.provider() == null ? "" : target.provider()) + "/" + target.job()
          + " is not in the cluster; its jobs are: " + String.join(", ", spec.jobs()));
    }
    List<EquivalentAddressGroup> groups = new ArrayList<>();
    for (int index : spec.taskIndices(target.job())) {
      TaskAddress address = TaskAddress.parse(spec.taskAddress(target.job(), index));
      groups.add(new EquivalentAddressGroup(new InetSocketAddress(address.host(), address.port())));
    }
    if (groups.isEmpty()) {
      throw new ClusterResolverException("Job '" + target.job() + "' has no tasks yet");
    }
    return groups;
  }
}
