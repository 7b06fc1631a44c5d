package io.clusterresolver.grpc;

import io.clusterresolver.ClusterResolver;
import io.clusterresolver.ClusterResolverException;
import io.clusterresolver.ClusterSpec;
import io.clusterresolver.SimpleClusterResolver;
import io.clusterresolver.spi.ClusterResolverProvider;
import io.clusterresolver.spi.ConfigProperty;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.ResolverContext;
import io.grpc.SynchronizationContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** A provider for these tests: the cluster is whatever {@link #CLUSTER} holds when asked. */
public final class TestProvider implements ClusterResolverProvider {

  static final AtomicReference<Map<String, List<String>>> CLUSTER = new AtomicReference<>(Map.of());
  static final AtomicInteger RESOLVES = new AtomicInteger();
  static final AtomicReference<String> FAILURE = new AtomicReference<>();
  /** When {@link #clusterSpec} was called ({@code System.nanoTime()}) and on which thread. */
  static final List<Long> RESOLVE_TIMES = new CopyOnWriteArrayList<>();
  static final List<String> RESOLVE_THREADS = new CopyOnWriteArrayList<>();
  /** A synchronization context no resolve may run in; checked by every resolve. */
  static final AtomicReference<SynchronizationContext> FORBIDDEN_CONTEXT = new AtomicReference<>();
  static final AtomicInteger RESOLVES_IN_FORBIDDEN_CONTEXT = new AtomicInteger();
  /** When set, a resolve throws it (a bug in a provider: the channel sees INTERNAL). */
  static final AtomicReference<RuntimeException> CRASH = new AtomicReference<>();
  /** The {@code token} each created resolver was configured with ("" when none). */
  static final List<String> TOKENS = new CopyOnWriteArrayList<>();

  /** A secret the tests put in targets; it must never show in a status. */
  static final ConfigProperty<String> TOKEN = ConfigProperty.string("token").secret()
      .description("A secret for the tests").build();
  /** Set (to anything) in the properties to make this provider the one detection picks. */
  static final ConfigProperty<String> HERE = ConfigProperty.string("here")
      .description("Makes this provider apply to the process").build();

  @Override
  public String name() {
    return "grpctest";
  }

  @Override
  public int priority() {
    return 0;
  }

  @Override
  public boolean isAvailable(ResolverContext context) {
    return context.property(HERE.key(name())).isPresent();
  }

  @Override
  public List<ConfigProperty<?>> properties() {
    return List.of(TOKEN, HERE);
  }

  @Override
  public ClusterResolver create(ResolverConfig config) {
    TOKENS.add(config.find(TOKEN).orElse(""));
    return new ClusterResolver() {
      @Override
      public ClusterSpec clusterSpec() {
        RESOLVES.incrementAndGet();
        RESOLVE_TIMES.add(System.nanoTime());
        RESOLVE_THREADS.add(Thread.currentThread().getName());
        SynchronizationContext forbidden = FORBIDDEN_CONTEXT.get();
        if (forbidden != null) {
          try {
            forbidden.throwIfNotInThisSynchronizationContext();
            RESOLVES_IN_FORBIDDEN_CONTEXT.incrementAndGet();
          } catch (IllegalStateException expected) {
            // Not in it: as it must be.
          }
        }
        if (CRASH.get() != null) {
          throw CRASH.get();
        }
        if (FAILURE.get() != null) {
          throw new ClusterResolverException(FAILURE.get());
        }
        return ClusterSpec.of(CLUSTER.get());
      }

      @Override
      public String master(String taskType, Integer taskId, String rpcLayer) {
        return SimpleClusterResolver.of(clusterSpec()).master(taskType, taskId, rpcLayer);
      }

      @Override
      public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
        return Map.of();
      }

      @Override
      public java.util.Optional<String> taskType() {
        return java.util.Optional.empty();
      }

      @Override
      public java.util.OptionalInt taskId() {
        return java.util.OptionalInt.empty();
      }

      @Override
      public java.util.Optional<String> rpcLayer() {
        return java.util.Optional.empty();
      }
    };
  }
}
