package io.clusterresolver.grpc;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterResolvers;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.ConfigurationException;
import io.clusterresolver.TaskAddress;
import io.clusterresolver.spi.PropertySources;
import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.SynchronizationContext.ScheduledHandle;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Resolves one {@code cluster://} target: one {@link ClusterResolver#resolve()} per start or refresh,
 * on the channel's offload executor (never on the synchronization context, which must not block),
 * and every task of the job as an address group (in task-index order), delivered through the
 * synchronization context with {@code onResult2}. Failures reach the channel as a {@link Status}
 * through {@code onError}, which grpc retries with its own backoff — UNAVAILABLE when the source
 * of truth did not answer or the target or configuration is wrong (the description says
 * "configuration:"), INTERNAL for a bug — never an empty address list.
 *
 * <p>A cloud API is not DNS: a {@link #refresh()} within the target's {@code min-refresh-interval}
 * of the last resolve is deferred to the end of that interval (several refreshes meanwhile make
 * one resolve), and with a {@code refresh-interval} the job is resolved again that long after each
 * answer, so new and departed tasks reach the channel without a failed connection.
 * {@link #shutdown()} cancels what is scheduled and drops an answer still in flight.
 */
final class ClusterNameResolver extends NameResolver {

  private final ClusterTarget target;
  private final Executor offload;
  private final SynchronizationContext syncContext;
  private final ScheduledExecutorService timer;
  private final LongSupplier nanoClock;

  // Touched only in the synchronization context.
  private Listener2 listener;
  private boolean resolving;
  private boolean shutdown;
  private boolean resolvedOnce;
  private long lastResolveStart;
  private ScheduledHandle deferredRefresh;
  private ScheduledHandle periodicRefresh;

  private ClusterResolver resolver; // guarded by this

  ClusterNameResolver(ClusterTarget target, Executor offload, SynchronizationContext syncContext,
      ScheduledExecutorService timer, LongSupplier nanoClock) {
    this.target = target;
    this.offload = offload != null ? offload : SharedThreads.offload();
    this.syncContext = syncContext;
    this.timer = timer != null ? timer : SharedThreads.timer();
    this.nanoClock = nanoClock;
  }

  @Override
  public String getServiceAuthority() {
    return target.job() + (target.provider() == null ? "" : "." + target.provider());
  }

  @Override
  public void start(Listener2 listener) {
    this.listener = listener;
    resolveNow();
  }

  @Override
  public void refresh() {
    if (shutdown || resolving || isPending(deferredRefresh)) {
      return; // an answer is on its way
    }
    long wait = resolvedOnce
        ? target.minRefreshInterval().toNanos() - (nanoClock.getAsLong() - lastResolveStart) : 0;
    if (wait > 0) {
      deferredRefresh = syncContext.schedule(this::resolveNow, wait, TimeUnit.NANOSECONDS, timer);
    } else {
      resolveNow();
    }
  }

  @Override
  public void shutdown() {
    shutdown = true;
    cancel(deferredRefresh);
    cancel(periodicRefresh);
  }

  /** Called in the synchronization context; the work runs on the offload executor. */
  private void resolveNow() {
    if (resolving || shutdown) {
      return;
    }
    resolving = true;
    resolvedOnce = true;
    lastResolveStart = nanoClock.getAsLong();
    offload.execute(this::resolveOffloaded);
  }

  private void resolveOffloaded() {
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
      // The target prints without its property values (they may be secrets).
      error = Status.INTERNAL.withDescription("resolving " + target + " failed: " + e).withCause(e);
    }
    List<EquivalentAddressGroup> found = groups;
    Status failure = error;
    syncContext.execute(() -> deliver(found, failure));
  }

  private void deliver(List<EquivalentAddressGroup> found, Status failure) {
    resolving = false;
    if (shutdown) {
      return;
    }
    if (failure != null) {
      listener.onError(failure); // grpc schedules the retry with its backoff
    } else {
      listener.onResult2(ResolutionResult.newBuilder().setAddresses(found).build());
      schedulePeriodicRefresh();
    }
  }

  private void schedulePeriodicRefresh() {
    Duration every = target.refreshInterval();
    if (every.isZero() || isPending(periodicRefresh)) {
      return;
    }
    periodicRefresh = syncContext.schedule(this::refresh, every.toNanos(), TimeUnit.NANOSECONDS, timer);
  }

  /** The resolver, created on first use (its configuration errors surface through the listener). */
  private synchronized ClusterResolver resolver() {
    if (resolver == null) {
      resolver = target.provider() != null
          ? ClusterResolvers.create(target.provider(), target.properties())
          // Detection reads the target's properties too: they choose and configure the provider.
          : ClusterResolvers.detect(PropertySources.system(target.properties()));
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

  private static boolean isPending(ScheduledHandle handle) {
    return handle != null && handle.isPending();
  }

  private static void cancel(ScheduledHandle handle) {
    if (handle != null) {
      handle.cancel();
    }
  }
}
