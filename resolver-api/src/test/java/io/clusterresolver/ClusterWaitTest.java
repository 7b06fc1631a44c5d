package io.clusterresolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** {@link ClusterWait} against a fake provider that answers from a script: how many polls each outcome takes. */
class ClusterWaitTest {

  /** Answers the i-th {@code resolve()} with the i-th step (the last one repeats); counts the calls. */
  private static final class Scripted implements ClusterResolver {
    private final List<Supplier<Resolution>> steps;
    int calls;

    @SafeVarargs
    Scripted(Supplier<Resolution>... steps) {
      this.steps = List.of(steps);
    }

    @Override
    public Resolution resolve() {
      return steps.get(Math.min(calls++, steps.size() - 1)).get();
    }

    @Override
    public ClusterSpec clusterSpec() {
      return resolve().clusterSpec();
    }

    @Override
    public String master(String taskType, Integer taskId, String rpcLayer) {
      return "";
    }

    @Override
    public Map<String, Integer> numAccelerators(String taskType, Integer taskId) {
      return Map.of();
    }

    @Override
    public Optional<String> taskType() {
      return Optional.empty();
    }

    @Override
    public OptionalInt taskId() {
      return OptionalInt.empty();
    }

    @Override
    public Optional<String> rpcLayer() {
      return Optional.empty();
    }
  }

  private static Supplier<Resolution> tasks(int n) {
    List<String> workers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      workers.add("10.0.0." + (i + 1) + ":2222");
    }
    return () -> Resolution.builder(ClusterSpec.of(Map.of("worker", workers))).build();
  }

  private static Supplier<Resolution> fails(String message, boolean retryable) {
    return () -> {
      throw new ClusterResolverException(message, null, retryable);
    };
  }

  /** A wait that polls every millisecond for up to 20 s: a test that waits for its timeout would be slow, and fail. */
  private static ClusterWait quick(int minTasks, List<ClusterWait.Poll> polls) {
    return ClusterWait.forTasks(minTasks).timeout(Duration.ofSeconds(20)).initialInterval(Duration.ofMillis(1))
        .maxInterval(Duration.ofMillis(1)).onPoll(polls::add);
  }

  @Test
  void retryableFailuresAreWaitedThrough() {
    Scripted provider = new Scripted(fails("node CREATING", true), fails("node CREATING", true), tasks(2));
    List<ClusterWait.Poll> polls = new ArrayList<>();
    Resolution r = quick(2, polls).await(provider);
    assertThat(r.clusterSpec().totalTasks()).isEqualTo(2);
    assertThat(provider.calls).isEqualTo(3);
    assertThat(polls).extracting(ClusterWait.Poll::failure).containsExactly("node CREATING", "node CREATING", null);
  }

  @Test
  void theFirstNonRetryableFailureEndsTheWaitAtOnceWithTheProvidersMessage() {
    Scripted provider = new Scripted(tasks(1), fails("node CREATING", true),
        fails("tpu: node n is PREEMPTED and must be recreated", false), tasks(4));
    List<ClusterWait.Poll> polls = new ArrayList<>();
    long start = System.nanoTime();

    Throwable t = catchThrowable(() -> quick(4, polls).await(provider));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(provider.calls).as("polls: the third failed for good, the fourth would have succeeded").isEqualTo(3);
    assertThat(polls).hasSize(3);
    assertThat(t).isExactlyInstanceOf(ClusterResolverException.class)
        .hasMessageContaining("poll 3").hasMessageContaining("terminal")
        .hasMessageContaining("tpu: node n is PREEMPTED and must be recreated");
    assertThat(((ClusterResolverException) t).isRetryable()).isFalse();
    assertThat(t.getCause()).hasMessage("tpu: node n is PREEMPTED and must be recreated");
  }

  @Test
  void theStaticAwaitStopsTooAndAConfigurationErrorStillEndsItAtOnce() {
    Scripted terminal = new Scripted(fails("gone", false), tasks(1));
    assertThat(catchThrowable(() -> ClusterResolvers.await(terminal, 1, Duration.ofMinutes(10))))
        .isInstanceOf(ClusterResolverException.class).hasMessageContaining("gone");
    assertThat(terminal.calls).isEqualTo(1);

    Scripted misconfigured = new Scripted(() -> {
      throw new ConfigurationException("clusterresolver.x.y: bad");
    }, tasks(1));
    assertThat(catchThrowable(() -> quick(1, new ArrayList<>()).await(misconfigured)))
        .isExactlyInstanceOf(ConfigurationException.class);
    assertThat(misconfigured.calls).isEqualTo(1);
  }

  @Test
  void failuresAreRetryableUnlessTheProviderSaysOtherwise() {
    assertThat(new ClusterResolverException("x").isRetryable()).isTrue();
    assertThat(new ClusterResolverException("x", new RuntimeException()).isRetryable()).isTrue();
    assertThat(new ClusterResolverException("x", null, true).isRetryable()).isTrue();
    assertThat(new ClusterResolverException("x", null, false).isRetryable()).isFalse();
  }
}
