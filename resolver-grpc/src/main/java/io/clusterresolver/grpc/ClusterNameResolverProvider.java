package io.clusterresolver.grpc;

import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.Collection;
import java.util.List;

/**
 * Lets grpc-java channels reach the tasks of a cluster job: {@code cluster://slurm/worker},
 * {@code cluster://aws/ps?clusterresolver.aws.asg=trainers}, or {@code cluster:///worker} (the
 * provider that applies here). Every task of the job becomes one address; the channel's load
 * balancing policy (pick_first by default, {@code round_robin} to spread calls) chooses among them,
 * and {@code refresh()} asks the provider again. Registered with {@link java.util.ServiceLoader}, so
 * {@code ManagedChannelBuilder.forTarget("cluster://slurm/worker")} works with this jar on the class
 * path. Safe to load: it does no work until a channel uses it.
 */
public final class ClusterNameResolverProvider extends NameResolverProvider {

  /** A public zero-argument constructor for {@link java.util.ServiceLoader}. */
  public ClusterNameResolverProvider() {}

  @Override
  protected boolean isAvailable() {
    return true;
  }

  /** Above the default (5) would shadow DNS for its own targets only: the scheme is our own. */
  @Override
  protected int priority() {
    return 5;
  }

  @Override
  public String getDefaultScheme() {
    return ClusterTarget.SCHEME;
  }

  @Override
  public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
    ClusterTarget target = ClusterTarget.parse(targetUri);
    if (target == null) {
      return null; // another scheme: not ours
    }
    return new ClusterNameResolver(target, args.getOffloadExecutor(), args.getSynchronizationContext(),
        args.getScheduledExecutorService(), System::nanoTime);
  }

  @Override
  public Collection<Class<? extends SocketAddress>> getProducedSocketAddressTypes() {
    return List.of(InetSocketAddress.class);
  }
}
