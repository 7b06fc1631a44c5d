package io.clusterresolver.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.ConfigurationException;
import io.grpc.NameResolver;
import io.grpc.NameResolver.ResolutionResult;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The name resolver's threading and scheduling, driven the way a channel drives it: its own
 * synchronization context, offload executor and timer.
 */
class ClusterNameResolverSchedulingTest {

  private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
  private final SynchronizationContext sync = new SynchronizationContext((t, e) -> uncaught.add(e));
  private final ExecutorService offload = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-offload"));
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final List<ResolutionResult> results = new CopyOnWriteArrayList<>();
  private final List<Status> errors = new CopyOnWriteArrayList<>();
  private NameResolver resolver;

  @BeforeEach
  void cluster() {
    TestProvider.CLUSTER.set(Map.of("worker", List.of("127.0.0.1:1", "127.0.0.1:2")));
    TestProvider.RESOLVES.set(0);
    TestProvider.RESOLVE_TIMES.clear();
    TestProvider.RESOLVE_THREADS.clear();
    TestProvider.FORBIDDEN_CONTEXT.set(sync);
    TestProvider.RESOLVES_IN_FORBIDDEN_CONTEXT.set(0);
  }

  @AfterEach
  void stop() {
    if (resolver != null) {
      sync.execute(resolver::shutdown);
    }
    TestProvider.FORBIDDEN_CONTEXT.set(null);
    offload.shutdownNow();
    timer.shutdownNow();
  }

  private void start(String target) {
    NameResolver.Args args = NameResolver.Args.newBuilder()
        .setDefaultPort(443)
        .setProxyDetector(address -> null)
        .setSynchronizationContext(sync)
        .setServiceConfigParser(new NameResolver.ServiceConfigParser() {
          @Override
          public NameResolver.ConfigOrError parseServiceConfig(Map<String, ?> rawServiceConfig) {
            return NameResolver.ConfigOrError.fromConfig(rawServiceConfig);
          }
        })
        .setScheduledExecutorService(timer)
        .setOffloadExecutor(offload)
        .build();
    resolver = new ClusterNameResolverProvider().newNameResolver(URI.create(target), args);
    sync.execute(() -> resolver.start(new NameResolver.Listener2() {
      @Override
      public void onResult(ResolutionResult result) {
        results.add(result);
      }

      @Override
      public void onError(Status error) {
        errors.add(error);
      }
    }));
  }

  private static boolean await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(10);
    }
    return condition.getAsBoolean();
  }

  @Test
  void everyResolveRunsOnTheOffloadExecutorNeverInTheSynchronizationContext() throws Exception {
    start("cluster://grpctest/worker?min-refresh-interval=1s");
    assertThat(await(() -> results.size() == 1)).isTrue();
    sync.execute(resolver::refresh);
    assertThat(await(() -> results.size() == 2)).isTrue();
    assertThat(results.get(1).getAddressesOrError().getValue()).hasSize(2);
    assertThat(TestProvider.RESOLVE_THREADS).hasSize(2).containsOnly("test-offload");
    assertThat(TestProvider.RESOLVES_IN_FORBIDDEN_CONTEXT).hasValue(0);
    assertThat(uncaught).isEmpty();
  }

  @Test
  void refreshesWithinTheMinimumIntervalMakeOneResolveAtItsEnd() throws Exception {
    start("cluster://grpctest/worker?min-refresh-interval=1s");
    assertThat(await(() -> results.size() == 1)).isTrue();
    for (int i = 0; i < 5; i++) {
      sync.execute(resolver::refresh);
    }
    assertThat(await(() -> results.size() == 2)).isTrue();
    Thread.sleep(300);
    assertThat(TestProvider.RESOLVES).as("resolves for one start and five refreshes").hasValue(2);
    long apart = TestProvider.RESOLVE_TIMES.get(1) - TestProvider.RESOLVE_TIMES.get(0);
    assertThat(Duration.ofNanos(apart)).isGreaterThanOrEqualTo(Duration.ofMillis(950));
  }

  @Test
  void aPeriodicRefreshFollowsEachAnswerUntilShutdown() throws Exception {
    start("cluster://grpctest/worker?refresh-interval=1s&min-refresh-interval=1s");
    assertThat(await(() -> results.size() >= 3)).as("periodic answers").isTrue();
    sync.execute(resolver::shutdown);
    Thread.sleep(100); // an answer in flight at shutdown is dropped, not delivered
    int atShutdown = results.size();
    Thread.sleep(2500); // two and a half intervals: any refresh still scheduled would have answered
    assertThat(results).hasSize(atShutdown);
  }

  @Test
  void aFailingSourceIsAnErrorStatusForGrpcToRetryNotAnEmptyList() throws Exception {
    TestProvider.FAILURE.set("the inventory service is down");
    try {
      start("cluster://grpctest/worker");
      assertThat(await(() -> errors.size() == 1)).isTrue();
      assertThat(errors.get(0).getCode()).isEqualTo(Status.Code.UNAVAILABLE);
      assertThat(errors.get(0).getDescription()).contains("the inventory service is down");
      assertThat(results).isEmpty();
    } finally {
      TestProvider.FAILURE.set(null);
    }
  }

  @Test
  void anUnknownTargetOptionIsAConfigurationErrorNamingItAndTheKnownOnes() {
    assertThatThrownBy(() -> ClusterTarget.parse(URI.create("cluster://grpctest/worker?refresh=1s")))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("'refresh'").hasMessageContaining("refresh-interval")
        .hasMessageContaining("min-refresh-interval");
    assertThatThrownBy(() -> ClusterTarget.parse(URI.create("cluster://grpctest/worker?refresh-interval=soon")))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("refresh-interval");
    assertThat(ClusterTarget.parse(URI.create("cluster://grpctest/worker?refresh-interval=2m")).refreshInterval())
        .isEqualTo(Duration.ofMinutes(2));
    assertThat(ClusterTarget.parse(URI.create("cluster://grpctest/worker")).minRefreshInterval())
        .isEqualTo(Duration.ofSeconds(10));
  }
}
