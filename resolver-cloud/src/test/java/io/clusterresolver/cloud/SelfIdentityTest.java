package io.clusterresolver.cloud;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.clusterresolver.spi.PropertySources;
import io.clusterresolver.spi.ResolverConfig;
import io.clusterresolver.spi.TaskProperties;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SelfIdentityTest {

  @Test
  void anIdentityAndAnAnswerOfNoneAreAskedOnce() {
    AtomicInteger asks = new AtomicInteger();
    SelfIdentity off = SelfIdentity.cached(() -> {
      asks.incrementAndGet();
      return Optional.empty();
    });

    assertThat(off.get()).isEmpty();
    assertThat(off.get()).isEmpty();
    assertThat(asks).hasValue(1);
  }

  @Test
  void askedInBackgroundTheAnswerComesFromAnotherThreadWhileTheCallerGoesOn() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<Thread> asker = new AtomicReference<>();
    AtomicInteger asks = new AtomicInteger();
    SelfIdentity identity = SelfIdentity.cached(() -> {
      asks.incrementAndGet();
      asker.set(Thread.currentThread());
      try {
        release.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Optional.of("i-0123456789abcdef0");
    });

    identity.askInBackground(); // returns while the metadata server has not answered
    identity.askInBackground();
    release.countDown();

    assertThat(identity.get()).hasValue("i-0123456789abcdef0");
    assertThat(asker.get()).isNotSameAs(Thread.currentThread());
    assertThat(asker.get().isDaemon()).as("never keeps the JVM alive").isTrue();
    assertThat(asks).as("the background ask and get() share one ask").hasValue(1);
  }

  @Test
  void aFailedAskIsReportedAndAskedAgainNextTime() {
    AtomicInteger asks = new AtomicInteger();
    SelfIdentity identity = SelfIdentity.cached(() -> {
      if (asks.incrementAndGet() == 1) {
        throw new IllegalStateException("metadata server reset the connection");
      }
      return Optional.of("vm-1");
    });

    assertThatThrownBy(identity::get).isInstanceOf(IllegalStateException.class).hasMessageContaining("reset");
    assertThat(identity.get()).hasValue("vm-1");
    assertThat(asks).hasValue(2);
  }

  private static ResolverConfig config(Map<String, String> properties) {
    return ResolverConfig.resolve("mycloud", TaskProperties.ALL, PropertySources.withEnvironment(properties, Map.of()));
  }

  @Test
  void whileListingTheIdentityIsAskedInBackgroundUnlessTheTaskIsGiven() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    SelfIdentity unplaced = SelfIdentity.cached(() -> {
      asked.countDown();
      return Optional.of("vm-0");
    });
    unplaced.askedWhileListing(config(Map.of("clusterresolver.mycloud.task-type", "worker"))).run();
    assertThat(asked.await(10, TimeUnit.SECONDS)).as("task-type alone does not say which task").isTrue();

    AtomicInteger asks = new AtomicInteger();
    SelfIdentity placed = SelfIdentity.cached(() -> {
      asks.incrementAndGet();
      return Optional.of("vm-1");
    });
    placed.askedWhileListing(config(Map.of("clusterresolver.mycloud.task-type", "worker",
        "clusterresolver.mycloud.task-id", "3"))).run();
    Thread.sleep(200); // a background ask, had one started, would have counted by now
    assertThat(asks).as("task-type and task-id given: the metadata server is not asked").hasValue(0);
  }
}
